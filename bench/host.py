"""Host cost per operation on the CPU: loops over small and medium arrays, accelpy beside NumPy.

Real programs are loops over small arrays, where what the host spends per operation (building
the node, planning, finding the loop, the Python binding) decides, not the arithmetic. Each case
runs the same loop in accelpy and in NumPy, in the same run, alternating, and reports the median
of the timed repeats after warm-up; accelpy's loops end by reading a value to the host, so
deferred work is counted. A ratio above 1 means accelpy is faster.

    python bench/host.py            # full sizes (about a minute)
    python bench/host.py --smoke    # tiny sizes, seconds: CI checks that every case runs
    python bench/host.py --json PATH  # also writes the results (bench/results/cpu-vm-host-*.json)
    python bench/host.py --clock thread  # this thread's CPU time instead of wall time
    python bench/host.py --clock process  # the CPU time of all the process's threads

On a shared machine wall time is mostly waiting for a core; `--clock thread` (time.thread_time)
counts only the CPU time of the timing thread, which the load moves far less (the small cases
run on one thread). A case whose groups are spread over the pool's threads (the game of life's
fused step) does work the thread clock misses: `--clock process` (time.process_time) counts it.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import accelpy as ap


def scale_loop(xp, n, steps):
    """`y = y * 0.999 + 0.001` `steps` times, then y.sum(): two ops per step."""
    y = xp.asarray(np.linspace(0, 1, n, dtype=np.float32))

    def run():
        nonlocal y
        z = y
        for _ in range(steps):
            z = z * 0.999 + 0.001
        return float(z.sum())

    return run


def sqrt_loop(xp, n, steps):
    """`y = sqrt(y*y + 1) - 1; float(y.sum())` each iteration: a host read per step."""
    y0 = xp.asarray(np.linspace(0, 1, n, dtype=np.float32))

    def run():
        y = y0
        total = 0.0
        for _ in range(steps):
            y = xp.sqrt(y * y + 1) - 1
            total += float(y.sum())
        return total

    return run


def life(xp, side, steps):
    """Conway's game of life on a side x side int64 torus (np.roll neighbours)."""
    rng = np.random.default_rng(7)
    board = xp.asarray((rng.random((side, side)) < 0.3).astype(np.int64))

    def run():
        z = board
        for _ in range(steps):
            n = sum(
                xp.roll(xp.roll(z, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j
            )
            z = ((n == 3) | ((z == 1) & (n == 2))).astype(xp.int64)
        return int(z.sum())

    return run


# (name, unit, ops per run, maker, args): `ops` divides the run's time into the unit's figure.
FULL = [
    ("y*0.999+0.001 x2000, 10 f32", "us/op", 4000, scale_loop, (10, 2000)),
    ("y*0.999+0.001 x2000, 1,000 f32", "us/op", 4000, scale_loop, (1000, 2000)),
    ("y*0.999+0.001 x2000, 100,000 f32", "us/op", 4000, scale_loop, (100_000, 2000)),
    ("sqrt(y*y+1)-1; float(sum), 1,000 f32", "us/iter", 500, sqrt_loop, (1000, 500)),
    ("game of life 256x256 int64, 50 steps", "ms", 1e-3, life, (256, 50)),
]
SMOKE = [
    ("y*0.999+0.001 x200, 10 f32", "us/op", 400, scale_loop, (10, 200)),
    ("y*0.999+0.001 x200, 1,000 f32", "us/op", 400, scale_loop, (1000, 200)),
    ("sqrt(y*y+1)-1; float(sum), 1,000 f32", "us/iter", 50, sqrt_loop, (1000, 50)),
    ("game of life 32x32 int64, 5 steps", "ms", 1e-3, life, (32, 5)),
]


CLOCKS = {"wall": time.perf_counter, "thread": time.thread_time, "process": time.process_time}


def measure(case, repeat, warmup, clock=time.perf_counter):
    """Medians (seconds per run) of accelpy and NumPy, timed alternately in the same run, and
    the spread of accelpy's samples (max/min)."""
    name, _, _, maker, args = case
    fns = {"accelpy": maker(ap, *args), "numpy": maker(np, *args)}
    got, want = fns["accelpy"](), fns["numpy"]()
    if not np.isclose(got, want, rtol=1e-3, atol=1e-3):
        raise AssertionError(f"{name}: accelpy {got} != NumPy {want}")
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    samples = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            t0 = clock()
            fn()
            samples[k].append(clock() - t0)
    med = {k: statistics.median(v) for k, v in samples.items()}
    spread = {k: max(v) / min(v) for k, v in samples.items()}
    return med, spread


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="tiny sizes, a few seconds (CI)")
    p.add_argument("--repeat", type=int, default=None, help="timed runs per case")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON")
    p.add_argument(
        "--clock",
        choices=CLOCKS,
        default="wall",
        help="wall time (default), this thread's CPU time or the process's",
    )
    p.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="TEXT",
        help="only the cases whose name contains TEXT",
    )
    args = p.parse_args(argv)
    cases = SMOKE if args.smoke else FULL
    if args.only:
        cases = [c for c in cases if any(t in c[0] for t in args.only)]
    repeat = args.repeat or (3 if args.smoke else 15)
    warmup = 1 if args.smoke else 3
    rows = []
    for case in cases:
        name, unit, ops = case[0], case[1], case[2]
        med, spread = measure(case, repeat, warmup, CLOCKS[args.clock])
        scale = 1e6 / ops if unit != "ms" else 1e3
        rows.append(
            {
                "case": name,
                "unit": unit,
                "accelpy": med["accelpy"] * scale,
                "numpy": med["numpy"] * scale,
                "ratio": med["numpy"] / med["accelpy"],
                "spread_accelpy": spread["accelpy"],
                "spread_numpy": spread["numpy"],
            }
        )
    width = max(len(r["case"]) for r in rows)
    print(f"{'case':<{width}}  {'unit':>7}  {'numpy':>9}  {'accelpy':>9}  {'speed':>6}  spread")
    for r in rows:
        print(
            f"{r['case']:<{width}}  {r['unit']:>7}  {r['numpy']:9.3f}  {r['accelpy']:9.3f}  "
            f"{r['ratio']:5.2f}x  {r['spread_numpy']:.2f}/{r['spread_accelpy']:.2f}"
        )
    print(
        "speed: NumPy's time / accelpy's (above 1: accelpy faster); spread: max/min of the "
        "timed runs (NumPy/accelpy)"
    )
    if args.json:
        out = {
            "date": datetime.date.today().isoformat(),
            "machine": platform.machine(),
            "processor": platform.processor(),
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "accelpy": getattr(ap, "__version__", "?"),
            "mode": "smoke" if args.smoke else "full",
            "repeat": repeat,
            "clock": args.clock,
            "results": rows,
        }
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
