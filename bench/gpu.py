"""GPU benchmarks: accelpy against CuPy and PyTorch in the same run.

Each figure is the median of event-timed runs after warm-up; bandwidths count the bytes that
must move. Results go to bench/results/<device>.json (date, device, versions); a table is
printed last. Usage: python bench/gpu.py [--out DIR] [--quick] [--only CASE]...

Beside it: gpu_timing.py (the peers and timers every case uses), gpu_host.py (dispatch,
transfers, first use, import), gpu_indexing.py (indexing and NumPy breadth), gpu_fusion.py
(fusion, issue 4), gpu_spectral.py (fft and linalg, issue 8), gpu_loops.py (loops of small
steps, issue 31) and raw_kernels.py (user kernels, issue 5).
"""

import argparse
import datetime
import json
import os
import sys
import time
import traceback

import numpy as np
from gpu_fusion import FUSION_CASES, case_fused, first_use_fused_ms
from gpu_host import dispatch_us, first_use_ms, host_cpus, import_seconds, transfers, versions
from gpu_indexing import case_breadth, indexing_cases, print_indexing
from gpu_timing import (
    cupy,
    gbps,
    timer_ap,
    timer_cupy,
    timer_torch,
    torch,
)

import accelpy as ap


def case_add(n):
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    a, b = ap.asarray(x, device="cuda"), ap.asarray(x[::-1].copy(), device="cuda")

    def run_ap():
        ap.eval(a + b)

    out = {"accelpy": timer_ap(run_ap)}
    if torch is not None:
        ta, tb = torch.from_numpy(x).cuda(), torch.from_numpy(x[::-1].copy()).cuda()
        out["torch"] = timer_torch(lambda: ta + tb)
        del ta, tb
    if cupy is not None:
        ca, cb = cupy.asarray(x), cupy.asarray(x[::-1].copy())
        out["cupy"] = timer_cupy(lambda: ca + cb)
        del ca, cb
    return out, 3 * 4 * n


def case_sum(shape, axis):
    x = np.random.default_rng(1).standard_normal(shape, dtype=np.float32)
    a = ap.asarray(x, device="cuda")
    out = {"accelpy": timer_ap(lambda: ap.eval(a.sum(axis=axis)))}
    if torch is not None:
        t = torch.from_numpy(x).cuda()
        out["torch"] = timer_torch(lambda: t.sum() if axis is None else t.sum(dim=axis))
        del t
    if cupy is not None:
        c = cupy.asarray(x)
        out["cupy"] = timer_cupy(lambda: c.sum(axis=axis))
        del c
    return out, 4 * x.size


def case_matmul(side, dtype):
    """side^3 matmul in float32 (TF32 off in every library) or bfloat16: milliseconds per
    product; TFLOP/s = 2 side^3 / time."""
    import ml_dtypes

    rng = np.random.default_rng(2)
    x = rng.standard_normal((side, side), dtype=np.float32)
    y = rng.standard_normal((side, side), dtype=np.float32)
    if dtype == "bfloat16":
        x, y = x.astype(ml_dtypes.bfloat16), y.astype(ml_dtypes.bfloat16)
    a, b = ap.asarray(x, device="cuda"), ap.asarray(y, device="cuda")
    out = {"accelpy": timer_ap(lambda: ap.eval(a @ b))}
    if torch is not None:
        torch.backends.cuda.matmul.allow_tf32 = False
        tdt = torch.bfloat16 if dtype == "bfloat16" else torch.float32
        ta = torch.from_numpy(x.astype(np.float32)).cuda().to(tdt)
        tb = torch.from_numpy(y.astype(np.float32)).cuda().to(tdt)
        out["torch"] = timer_torch(lambda: ta @ tb)
        del ta, tb
    if cupy is not None and dtype == "float32":  # CuPy has no bfloat16
        ca, cb = cupy.asarray(x), cupy.asarray(y)
        out["cupy"] = timer_cupy(lambda: ca @ cb)
        del ca, cb
    return out, 2.0 * side**3


def tflops(flops, ms):
    return None if ms is None else flops / (ms * 1e-3) / 1e12


# ---- sorting and scans (CUB): sort/argsort of 2^26 float32, cumsum of 2^28 float32 ---------

def case_library(name, n):
    """accelpy against CuPy and PyTorch on one library op over n random float32."""
    x = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    ops = {"sort": (ap.sort, lambda t: torch.sort(t)[0], lambda c: cupy.sort(c)),
           "argsort": (ap.argsort, lambda t: torch.argsort(t, stable=True),
                       lambda c: cupy.argsort(c)),
           "cumsum": (ap.cumsum, lambda t: torch.cumsum(t, 0), lambda c: cupy.cumsum(c))}
    run_ap, run_torch, run_cupy = ops[name]
    a = ap.asarray(x, device="cuda")
    out = {"accelpy": timer_ap(lambda: ap.eval(run_ap(a)))}
    if torch is not None:
        t = torch.from_numpy(x).cuda()
        out["torch"] = timer_torch(lambda: run_torch(t))
        del t
    if cupy is not None:
        c = cupy.asarray(x)
        out["cupy"] = timer_cupy(lambda: run_cupy(c))
        del c
    return out


LIBRARY_CASES = [("sort", 26), ("argsort", 26), ("cumsum", 28)]


# ---- random numbers (accelpy.random, Philox4x32-10) ----------------------------------------


def case_random(n, kind):
    """n float32 draws: accelpy's Philox against torch's (Philox) and CuPy's (cuRAND XORWOW)."""
    g = ap.random.default_rng(0)
    draw = g.standard_normal if kind == "normal" else g.random
    out = {"accelpy": timer_ap(lambda: ap.eval(draw(n, dtype=np.float32, device="cuda")))}
    if torch is not None:
        fn = torch.randn if kind == "normal" else torch.rand
        out["torch"] = timer_torch(lambda: fn(n, device="cuda", dtype=torch.float32))
    if cupy is not None:
        fn = cupy.random.standard_normal if kind == "normal" else cupy.random.random
        out["cupy"] = timer_cupy(lambda: fn(n, dtype=cupy.float32))
    return out, 4 * n


def case_d2d(n):
    """Device copy bandwidth: the floor every memory-bound kernel is compared with."""
    x = ap.zeros(n, dtype=np.float32, device="cuda")
    ap.eval(x)
    res = {"accelpy": timer_ap(lambda: ap.eval(x.copy()))}
    if torch is not None:
        src = torch.zeros(n, device="cuda")
        dst = torch.empty_like(src)
        res["torch"] = timer_torch(lambda: dst.copy_(src))
    return res, 2 * 4 * n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    parser.add_argument("--quick", action="store_true", help="smaller sizes (smoke test)")
    parser.add_argument("--only", action="append", default=[], metavar="CASE",
                        help="run this case (repeatable; default: all); names may hold commas")
    parser.add_argument("--table", metavar="JSON", help="print the table of a saved run and exit")
    args = parser.parse_args()
    if args.table:
        with open(args.table) as f:
            print_table(json.load(f), args.quick)
        return
    if not ap.cuda.is_available():
        sys.exit(f"no CUDA GPU: {ap.cuda.unavailable_reason()}")
    n = 1 << (22 if args.quick else 28)
    side = 2048 if args.quick else 16384
    props = ap.cuda.get_device_properties(0)
    cases = {}
    result = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "device": props.name, "compute_capability": f"{props.major}.{props.minor}",
              "versions": versions(), "host": host_cpus(), "cases": cases}
    os.makedirs(args.out, exist_ok=True)
    fname = "".join(c if c.isalnum() else "_" for c in props.name).strip("_") + ".json"

    def save():  # after every case, so a run cut short keeps what it measured
        with open(os.path.join(args.out, fname), "w") as f:
            json.dump(result, f, indent=2)

    only = set(args.only)

    def measure(name, fn):
        # One failing case must not cost the others' numbers: report it and go on.
        if only and name not in only:
            return
        t0 = time.perf_counter()
        try:
            cases[name] = fn()
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            print(f"case {name}: FAILED", flush=True)
            return
        print(f"case {name} ({time.perf_counter() - t0:.1f}s): {cases[name]}", flush=True)
        save()

    # The host-bound cases first, before torch.compile (the fusion cases) starts its compile
    # workers: a full run measured pageable copies at 8.5 GB/s on a host where runs without
    # torch.compile before them measured 31 (the workers' CPU use is the suspect, not proven).
    measure("dispatch_us", dispatch_us)
    measure("transfer_256MiB_gbps", transfers)
    measure("first_use", first_use_ms)
    measure("first_use_fused", first_use_fused_ms)
    measure("import_s", import_seconds)
    measure("import_numpy_s", lambda: import_seconds(module="numpy"))  # part of import_s
    floor_ms, floor_bytes = case_d2d(n)
    d2d = gbps(floor_bytes, floor_ms.get("torch") or floor_ms["accelpy"])
    cases["d2d_copy"] = {"bytes": floor_bytes, "ms": floor_ms, "gbps": d2d}

    def bandwidth_case(fn):
        ms, nbytes = fn()
        # Host microseconds and first-call times sit beside the timings: no bandwidth of theirs.
        times = {k: v for k, v in ms.items() if not k.endswith(("_us", "_first_call_ms"))}
        return {"bytes": nbytes, "ms": ms, "gbps": {k: gbps(nbytes, v) for k, v in times.items()},
                "floor_ms": nbytes / (d2d * 1e9) * 1e3}

    for name, fn in [("add_2^28_f32", lambda: case_add(n)),
                     ("sum_2^28_f32", lambda: case_sum((n,), None)),
                     ("sum_16384^2_axis0", lambda: case_sum((side, side), 0)),
                     ("sum_16384^2_axis1", lambda: case_sum((side, side), 1)),
                     ("randn_2^28_f32", lambda: case_random(n, "normal")),
                     ("rand_2^28_f32", lambda: case_random(n, "uniform"))]:
        measure(name, lambda fn=fn: bandwidth_case(fn))
    nf = 1 << (20 if args.quick else 26)
    for name, fn, nin, nout in FUSION_CASES:
        measure(name, lambda fn=fn, nin=nin, nout=nout: bandwidth_case(
            lambda: case_fused(fn, nin, nout, nf)))
    mside = 2048 if args.quick else 8192
    for dt in ("float32", "bfloat16"):
        def matmul_case(dt=dt):
            ms, flops = case_matmul(mside, dt)
            return {"flops": flops, "ms": ms,
                    "tflops": {k: tflops(flops, v) for k, v in ms.items()}}
        measure(f"matmul_{mside}^3_{dt}", matmul_case)
    for name, fn in indexing_cases(args.quick):
        measure(name, lambda fn=fn: bandwidth_case(fn))
    for op, log2n in LIBRARY_CASES:
        measure(f"{op}_2^{log2n}_f32",
                lambda op=op, log2n=log2n: {"ms": case_library(op, 1 << (20 if args.quick
                                                                        else log2n))})
    for op in ("histogram2d", "select"):  # NumPy breadth A
        measure(f"{op}_2^{24 if args.quick else 26}_f32",
                lambda op=op: case_breadth(op, 1 << (24 if args.quick else 26)))
    import gpu_spectral  # fft and linalg (issue 8), beside this file

    measure("spectral", lambda: gpu_spectral.cases(args.quick))
    cases.update(cases.pop("spectral", {}))
    import gpu_loops  # issue 31: a loop of small steps, beside PyTorch's CUDA graphs

    measure("loops", lambda: gpu_loops.cases(args.quick))
    cases.update(cases.pop("loops", {}))
    import raw_kernels  # issue 5: raw kernel launch overhead and new-process startup

    measure("raw_launch_us", raw_kernels.launch_overhead_us)
    measure("raw_startup_s", raw_kernels.startup_seconds)
    save()

    try:
        print_table(result, args.quick)
    except (KeyError, TypeError):
        traceback.print_exc()


def print_table(result, quick=False):
    """The short table of a run's results (also for a saved JSON file: --table)."""
    cases = result["cases"]
    floor = cases["d2d_copy"]
    floor_ms, floor_bytes = floor["ms"], floor["bytes"]
    mside = 2048 if quick else 8192
    import gpu_loops
    import gpu_spectral
    import raw_kernels

    # A case that failed, or was left out with --only, is missing: its lines are skipped.
    def fmt(v, unit=""):
        return "-" if v is None else f"{v:.1f}{unit}"

    def rfmt(ratio):
        return "-" if ratio is None else f"{ratio:.3f}x"

    print("==== results", result["device"], "====")
    if "host" in result:
        h = result["host"]
        print(f"host: {h['cpu_count']} CPUs, {h['affinity']} in the affinity mask, cgroup "
              f"cpu.max {h['cgroup_cpu_max']}, accelpy threads {h['accelpy_threads']}, load "
              f"{h['load_avg'][0]:.1f}")
    def vs_torch(label, v, target):  # a rate (higher is better) beside CuPy's and PyTorch's
        ratio = (v["accelpy"] / v["torch"]) if v.get("torch") else None
        print(f"{label:24} {fmt(v['accelpy']):>10} {fmt(v.get('cupy')):>10} "
              f"{fmt(v.get('torch')):>10} {rfmt(ratio):>9} {target}")

    print(f"{'case':24} {'accelpy':>10} {'cupy':>10} {'torch':>10} {'vs torch':>9} target")
    for name, target in [("add_2^28_f32", ">=0.97x torch"), ("sum_2^28_f32", "~torch"),
                         ("sum_16384^2_axis0", "~torch"), ("sum_16384^2_axis1", "~torch")]:
        if name in cases:
            vs_torch(name + " GB/s", cases[name]["gbps"], target)
    for name in ("randn_2^28_f32", "rand_2^28_f32"):
        if name not in cases:
            continue
        m = cases[name]["ms"]
        peers = [v for k, v in m.items() if k != "accelpy" and v is not None]
        ratio = min(peers) / m["accelpy"] if peers else None
        ms3 = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        print(f"{name + ' ms':24} {ms3(m['accelpy']):>10} {ms3(m.get('cupy')):>10} "
              f"{ms3(m.get('torch')):>10} {rfmt(ratio):>9} >=0.97x faster peer")
    print(f"{'d2d copy GB/s (floor)':24} {fmt(gbps(floor_bytes, floor_ms['accelpy'])):>10} "
          f"{'-':>10} {fmt(gbps(floor_bytes, floor_ms.get('torch'))):>10}")
    if "dispatch_us" in cases:
        d = cases["dispatch_us"]
        print(f"{'dispatch 1-elem add us':24} {fmt(d['accelpy']):>10} {fmt(d.get('cupy')):>10} "
              f"{fmt(d.get('torch')):>10} {'':>9} <=3us")
        print(f"{'  in short bursts':24} {fmt(d.get('accelpy_burst')):>10} "
              f"{fmt(d.get('cupy_burst')):>10} {fmt(d.get('torch_burst')):>10}")
        print(f"{'  no small-block cache':24} {fmt(d.get('accelpy_no_block_cache')):>10}")
        print(f"{'  3-op chain, eval':24} {fmt(d.get('accelpy_3op_chain')):>10}")
    tr = cases.get("transfer_256MiB_gbps")
    for i, way in enumerate(["H2D", "D2H"] if tr else []):
        print(f"{'256MiB ' + way + ' GB/s':24} {fmt(tr['accelpy'][i]):>10} "
              f"{fmt(tr['cupy'][i] if 'cupy' in tr else None):>10} "
              f"{fmt(tr['torch'][i] if 'torch' in tr else None):>10} {'':>9} >=40")
    for dt in ("float32", "bfloat16"):
        if f"matmul_{mside}^3_{dt}" in cases:
            vs_torch(f"matmul {dt} TFLOP/s", cases[f"matmul_{mside}^3_{dt}"]["tflops"],
                     ">=0.97x torch")
    if "first_use" in cases:
        fu = cases["first_use"]
        print(f"{'new kernel, empty cache':24} {fmt(fu['empty_cache_ms'], 'ms'):>10} "
              f"{'':>32} <=60ms (exp/sin/sqrt; arithmetic: "
              f"{fmt(fu.get('empty_cache_arith_ms'), 'ms')})")
        print(f"{'new kernel, disk hit':24} {fmt(fu['disk_hit_ms'], 'ms'):>10} {'':>32} <=2ms")
    if "import_s" in cases:
        ms = {k: None if cases.get(k) is None else cases[k] * 1e3
              for k in ("import_s", "import_numpy_s")}
        print(f"{'import accelpy':24} {fmt(ms['import_s'], 'ms'):>10} {'':>32} <=150ms "
              f"(numpy alone {fmt(ms['import_numpy_s'], 'ms')})")
    if tr:
        h = tr["host"]
        print(f"{'host bounds GB/s':24} first touch {h['first_touch_gbps']:.1f}, memcpy "
              f"(1 core) {h['memcpy_1thread_gbps']:.1f}, pinned H2D {h['pinned_h2d_gbps']:.1f}")
    print(f"\n{'fusion (ms)':30} {'floor':>7} {'accelpy':>8} {'x floor':>8} {'cupy':>7} "
          f"{'c.fuse':>7} {'torch':>7} {'compile':>8} target   (queued back to back: accelpy, "
          "compile; host us per call: accelpy alone, accelpy queued, compile queued)")
    targets = ["<=1.05x", "<=1.10x", "<=1.15x", "<=1.10x", "~1 pass", "<=1.15x", "<=1.3x",
               "<=1.3x", "~torch", "~torch", "~torch"]

    def piped(m):  # runs from before pipelined_ms have neither (and before 2026-12-04, no host)
        a, c = m.get("accelpy_pipelined"), m.get("torch.compile_pipelined")
        h = [m.get(k + "host_us") for k in ("accelpy_alone_", "accelpy_", "torch.compile_")]
        return ("" if a is None else f"{a:.3f} {'-' if c is None else f'{c:.3f}'}") + \
            ("" if h[0] is None else "; " + " ".join(fmt(v) for v in h))

    for (name, *_), target in zip(FUSION_CASES, targets, strict=True):
        if name not in cases:  # a case added after the run
            continue
        c = cases[name]
        m = c["ms"]
        print(f"{name:30} {c['floor_ms']:7.3f} {m['accelpy']:8.3f} "
              f"{m['accelpy'] / c['floor_ms']:7.2f}x {fmt(m.get('cupy')):>7} "
              f"{fmt(m.get('cupy.fuse')):>7} {fmt(m.get('torch')):>7} "
              f"{fmt(m.get('torch.compile')):>8} {target:8} {piped(m)}")
    raw_kernels.report(cases)
    print(f"\n{'library op (ms)':30} {'accelpy':>8} {'cupy':>7} {'torch':>7} "
          f"{'vs best':>8} target")
    for op, log2n in LIBRARY_CASES:
        if f"{op}_2^{log2n}_f32" not in cases:
            continue
        m = cases[f"{op}_2^{log2n}_f32"]["ms"]
        peers = [v for k, v in m.items() if k != "accelpy" and v is not None]
        ratio = min(peers) / m["accelpy"] if peers else None
        print(f"{op + f' 2^{log2n} f32':30} {m['accelpy']:8.3f} {fmt(m.get('cupy')):>7} "
              f"{fmt(m.get('torch')):>7} {rfmt(ratio):>8} >=0.97x")
    if "first_use_fused" in cases:
        fu = cases["first_use_fused"]
        print(f"{'new fused expr, empty cache':30} {fmt(fu['empty_cache_ms'], 'ms'):>10} <=100ms")
        print(f"{'new fused expr, disk hit':30} {fmt(fu['disk_hit_ms'], 'ms'):>10} <=2ms")
    print("\n".join(gpu_spectral.report(cases)))
    print_indexing(cases)
    print("\n".join(gpu_loops.report(cases)))


if __name__ == "__main__":
    main()
