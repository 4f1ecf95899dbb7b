"""GPU benchmarks of loops over small arrays (issue 31): the host's cost per step decides them.
`y = y * 0.999 + 0.001` on 1,000 float32 elements, 2000 steps, then `float(y.sum())`, timed
whole (wall clock, to the number on the host) under accelpy, CuPy and PyTorch eager, and under
PyTorch's CUDA graphs (torch.cuda.graphs: the step captured once and replayed 2000 times, the
reference for what replaying a loop body gives). Target: accelpy at least 5x faster per step
than CuPy and PyTorch eager. A second loop evaluates a time step of two fields and a sum every
step (two kernels after row fusion: v, read reversed, then the sum and u's update as one row
group; accelpy replays them as one CUDA graph, src/cuda/graphs.hpp, which records only
evaluations of >= 2 kernels). accelpy runs each loop with replay on and off
(`accelpy.cuda.graphs`) in the same run. Imported by
bench/gpu.py, which times and reports them; `python bench/gpu_loops.py [--quick]` runs them
alone."""

import statistics
import sys
import time

import numpy as np
from gpu_timing import cupy, torch

import accelpy as ap

N, STEPS = 1000, 2000
CHECK = True  # the fake driver of tests/python computes nothing: its test turns this off


def _expected():
    y = np.linspace(0, 1, N, dtype=np.float32)
    for _ in range(STEPS):
        y = y * np.float32(0.999) + np.float32(0.001)
    return float(y.sum())


FIELD_STEPS = 500


def _fields_step(xp, u, v):
    """One time step of two fields and their energy, each evaluated (accelpy: two kernels)."""
    s = (u * u).sum()
    v = v * 0.999 + u * 0.001
    # v read reversed (a view in accelpy: a group of its own; torch has no negative steps)
    u = u - xp.flip(v, (0,)) * 0.001 + s * 1e-9
    if xp is ap:
        ap.eval(u, v)
    return u, v


def _fields_expected():
    u = np.linspace(0, 1, N, dtype=np.float32)
    v = np.linspace(1, 0, N, dtype=np.float32)
    for _ in range(FIELD_STEPS):
        u, v = _fields_step(np, u, v)
    return float(u.sum())


def _per_step_us(run, reps, steps=STEPS, expected=_expected):
    """Median microseconds per step of run() (one whole loop, to a host number) after a
    warm-up run; checks the loop's result against NumPy's."""
    got = run()
    if CHECK:
        want = expected()
        assert abs(got - want) <= 1e-3 * abs(want), (got, want)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) / steps * 1e6


def _fields_loop(xp, start):
    def run():
        u, v = start()
        for _ in range(FIELD_STEPS):
            u, v = _fields_step(xp, u, v)
        return float(u.sum())
    return run


def _without_replay(measure):
    """measure() with accelpy's CUDA graph replay off."""
    ap.cuda.graphs = False
    try:
        return measure()
    finally:
        ap.cuda.graphs = True


def _loop(xp, start):
    def run():
        y = start()
        for _ in range(STEPS):
            y = y * 0.999 + 0.001
        return float(y.sum())
    return run


def _torch_graph():
    """The step captured into one CUDA graph (in place on a static tensor), replayed STEPS
    times: the launch of a whole graph per step, no Python dispatch of each op."""
    y = torch.empty(N, device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):  # warm-up on a side stream, as capture requires
        y.mul_(0.999).add_(0.001)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y.mul_(0.999).add_(0.001)
    start = torch.linspace(0, 1, N, device="cuda")

    def run():
        y.copy_(start)
        for _ in range(STEPS):
            graph.replay()
        return float(y.sum())
    return run


def cases(quick=False):
    """{"loop_1000x2000_us": {library: microseconds per step}, "fields_1000x500_us": ...};
    "accelpy" with CUDA graph replay (the default), "accelpy_no_replay" without."""
    reps = 3 if quick else 7

    def start_ap():
        return ap.linspace(0, 1, N, dtype=np.float32, device="cuda")
    loop = _loop(ap, start_ap)
    out = {"accelpy": _per_step_us(loop, reps),
           "accelpy_no_replay": _without_replay(lambda: _per_step_us(loop, reps))}

    def fields(xp, make):
        return _per_step_us(_fields_loop(xp, make), reps, FIELD_STEPS, _fields_expected)

    def ap_fields():
        return (ap.linspace(0, 1, N, dtype=np.float32, device="cuda"),
                ap.linspace(1, 0, N, dtype=np.float32, device="cuda"))
    step = {"accelpy": fields(ap, ap_fields),
            "accelpy_no_replay": _without_replay(lambda: fields(ap, ap_fields))}
    if cupy is not None:
        out["cupy"] = _per_step_us(_loop(cupy, lambda: cupy.linspace(
            0, 1, N, dtype=np.float32)), reps)
        step["cupy"] = fields(cupy, lambda: (cupy.linspace(0, 1, N, dtype=np.float32),
                                             cupy.linspace(1, 0, N, dtype=np.float32)))
    if torch is not None:
        out["torch"] = _per_step_us(_loop(torch, lambda: torch.linspace(
            0, 1, N, device="cuda")), reps)
        out["torch.cuda.graphs"] = _per_step_us(_torch_graph(), reps)
        step["torch"] = fields(torch, lambda: (torch.linspace(0, 1, N, device="cuda"),
                                               torch.linspace(1, 0, N, device="cuda")))
    return {"loop_1000x2000_us": out, "fields_1000x500_us": step}


def report(cases):
    """The table's lines for these cases (none if they did not run)."""
    if "loop_1000x2000_us" not in cases:
        return []
    m = cases["loop_1000x2000_us"]
    eager = [m[k] for k in ("cupy", "torch") if m.get(k) is not None]
    ratio = f"{min(eager) / m['accelpy']:.2f}x" if eager else "-"

    def fmt(v):
        return "-" if v is None else f"{v:.2f}"
    lines = [f"\n{'loop (us per step)':30} {'accelpy':>8} {'cupy':>8} {'torch':>8} "
             f"{'graphs':>8} {'vs eager':>8} target",
             f"{'y=y*.999+.001 1000 f32':30} {fmt(m['accelpy']):>8} {fmt(m.get('cupy')):>8} "
             f"{fmt(m.get('torch')):>8} {fmt(m.get('torch.cuda.graphs')):>8} {ratio:>8} >=5x",
             f"{'  accelpy without replay':30} {fmt(m.get('accelpy_no_replay')):>8}"]
    f = cases.get("fields_1000x500_us")
    if f:
        eager = [f[k] for k in ("cupy", "torch") if f.get(k) is not None]
        ratio = f"{min(eager) / f['accelpy']:.2f}x" if eager else "-"
        lines += [f"{'2-field step + sum, 1000 f32':30} {fmt(f['accelpy']):>8} "
                  f"{fmt(f.get('cupy')):>8} {fmt(f.get('torch')):>8} {'-':>8} {ratio:>8}",
                  f"{'  accelpy without replay':30} {fmt(f.get('accelpy_no_replay')):>8}"]
    return lines


if __name__ == "__main__":
    result = cases("--quick" in sys.argv)
    print("\n".join(report(result)))
