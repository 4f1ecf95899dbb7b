"""Raw-kernel benchmarks (issue 5), run by bench/gpu.py: per-launch host overhead against
CuPy's RawKernel (target <= 0.5x CuPy's), and a new process importing, compiling a small kernel
and running it, with an empty (target <= 0.15 s) and a warm (<= 0.05 s) disk cache."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from gpu_timing import burst_us, cupy

import accelpy as ap

CODE = r"""
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""
STARTUP = os.path.join(os.path.dirname(__file__), "raw_startup.py")


def _per_launch_us(launch, sync, reps):
    for _ in range(200):
        launch()
    sync()
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            launch()
        samples.append((time.perf_counter() - t0) / reps * 1e6)
        sync()
    return statistics.median(samples)


def launch_overhead_us(reps=20000):
    """Host microseconds per launch of a 4-argument kernel (1 block), accelpy against CuPy in
    the same run: in a long loop (as issue 5 measures it) and in short bursts (no launch waits
    for the GPU). `accelpy_floor` is accelpy's launch of the same kernel repeated in C++ with the
    arguments packed once: the driver's own cost (cuLaunchKernel), which no Python path beats."""
    a = ap.ones(256, dtype=np.float32, device="cuda")
    c = ap.empty(256, dtype=np.float32, device="cuda")
    k = ap.RawKernel(CODE, "add")
    n = np.int32(256)
    out = {"accelpy": _per_launch_us(lambda: k((1,), (256,), (a, a, c, n)),
                                     ap.cuda.synchronize, reps),
           "accelpy_burst": burst_us(lambda: k((1,), (256,), (a, a, c, n)), ap.cuda.synchronize,
                                     bursts=200)}
    floors = []
    for _ in range(5):
        ap.cuda.synchronize()
        floors.append(k._time_launches((1,), (256,), (a, a, c, n), 256) * 1e6)
    ap.cuda.synchronize()
    out["accelpy_floor"] = statistics.median(floors)
    if cupy is not None:
        ca = cupy.ones(256, dtype=np.float32)
        cc = cupy.empty_like(ca)
        ck = cupy.RawKernel(CODE, "add")
        out["cupy"] = _per_launch_us(lambda: ck((1,), (256,), (ca, ca, cc, n)),
                                     cupy.cuda.runtime.deviceSynchronize, reps)
        out["cupy_burst"] = burst_us(lambda: ck((1,), (256,), (ca, ca, cc, n)),
                                     cupy.cuda.runtime.deviceSynchronize, bursts=200)
        out["ratio_to_cupy"] = out["accelpy"] / out["cupy"]
    return out


def _startup(args, env):
    r = subprocess.run([sys.executable, STARTUP, *args], env=env, capture_output=True,
                       text=True, check=True)
    return float(r.stdout.split()[-1])


def startup_seconds(reps=3):
    """New process: import + compile (empty cache, then warm disk cache) + run; medians."""
    out = {}
    for lib, args, var in (("accelpy", [], "ACCELPY_CACHE_DIR"),
                           ("cupy", ["--cupy"], "CUPY_CACHE_DIR")):
        if lib == "cupy" and cupy is None:
            continue
        cold, warm = [], []
        for _ in range(reps):
            with tempfile.TemporaryDirectory() as d:
                env = dict(os.environ, **{var: d})
                cold.append(_startup(args, env))
                warm.append(_startup(args, env))
        out[lib] = {"empty_cache_s": statistics.median(cold),
                    "warm_cache_s": statistics.median(warm)}
    return out


def report(cases):
    if "raw_launch_us" not in cases:  # left out of the run (--only)
        return
    lo = cases["raw_launch_us"]
    print(f"{'raw kernel launch us':24} {lo['accelpy']:>10.2f} "
          f"{lo.get('cupy', float('nan')):>10.2f} {'':>10} {'':>9} <=0.5x cupy")
    print(f"{'raw launch burst us':24} {lo['accelpy_burst']:>10.2f} "
          f"{lo.get('cupy_burst', float('nan')):>10.2f}   (driver floor "
          f"{lo['accelpy_floor']:.2f} us: cuLaunchKernel alone)")
    for lib, s in cases.get("raw_startup_s", {}).items():
        print(f"{'raw startup ' + lib:24} cold {s['empty_cache_s']:.3f}s warm "
              f"{s['warm_cache_s']:.3f}s  (targets for accelpy: <=0.15s, <=0.05s)")


if __name__ == "__main__":
    if not ap.cuda.is_available():
        sys.exit(f"no CUDA GPU: {ap.cuda.unavailable_reason()}")
    res = {"raw_launch_us": launch_overhead_us(), "raw_startup_s": startup_seconds()}
    print(res)
    report(res)
