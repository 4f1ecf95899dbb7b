"""GPU benchmarks of the host's side: dispatch of a one-element op, host-device transfers, the
first use of a new kernel, import time, and the versions and CPUs of the run. Imported by
bench/gpu.py, which times and reports them."""

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from gpu_timing import burst_us, cupy, empty_cache_env, per_op_us, torch

import accelpy as ap

DISPATCH = """
import sys
import numpy as np
import accelpy as ap
sys.path.insert(0, sys.argv[2])
from gpu_timing import per_op_us
a = ap.ones(1, dtype=np.float32, device="cuda")
print(per_op_us(lambda: ap.eval(a + a), ap.cuda.synchronize, int(sys.argv[1])))
"""


def dispatch_us(reps=20000):
    a = ap.ones(1, dtype=np.float32, device="cuda")
    b = ap.ones(1, dtype=np.float32, device="cuda")
    out = {"accelpy": per_op_us(lambda: ap.eval(a + b), ap.cuda.synchronize, reps),
           "accelpy_burst": burst_us(lambda: ap.eval(a + b), ap.cuda.synchronize)}
    # The same loop without the small-block cache (every result allocated and freed through the
    # driver's pool), in a new process: the cache stays only while it measurably helps.
    r = subprocess.run([sys.executable, "-c", DISPATCH, str(reps), os.path.dirname(__file__)],
                       capture_output=True, text=True,
                       env=dict(os.environ, ACCELPY_CUDA_SMALL_BLOCK_CACHE="0"))
    out["accelpy_no_block_cache"] = float(r.stdout.split()[-1]) if r.returncode == 0 else None
    # A three-op chain, evaluated: planner, one fused kernel.
    out["accelpy_3op_chain"] = per_op_us(lambda: ap.eval((a + b) * a - b), ap.cuda.synchronize,
                                         reps)
    if torch is not None:
        ta = torch.ones(1, device="cuda")
        out["torch"] = per_op_us(lambda: ta + ta, torch.cuda.synchronize, reps)
        out["torch_burst"] = burst_us(lambda: ta + ta, torch.cuda.synchronize)
    if cupy is not None:
        ca = cupy.ones(1, dtype=np.float32)
        out["cupy"] = per_op_us(lambda: ca + ca, cupy.cuda.runtime.deviceSynchronize, reps)
        out["cupy_burst"] = burst_us(lambda: ca + ca, cupy.cuda.runtime.deviceSynchronize)
    return out


def transfers(nbytes=256 << 20, reps=5):
    x = np.random.default_rng(2).integers(0, 255, nbytes, dtype=np.uint8)
    res = {}

    def measure(up, down, sync):
        up_t, down_t = [], []
        for _ in range(reps + 1):
            sync()
            t0 = time.perf_counter()
            g = up()
            sync()
            t1 = time.perf_counter()
            down(g)
            t2 = time.perf_counter()
            up_t.append(t1 - t0)
            down_t.append(t2 - t1)
        return (nbytes / statistics.median(up_t[1:]) / 1e9,
                nbytes / statistics.median(down_t[1:]) / 1e9)

    res["accelpy"] = measure(lambda: ap.asarray(x, device="cuda"), ap.asnumpy,
                             ap.cuda.synchronize)
    if torch is not None:
        res["torch"] = measure(lambda: torch.from_numpy(x).cuda(), lambda g: g.cpu().numpy(),
                               torch.cuda.synchronize)
    if cupy is not None:
        res["cupy"] = measure(lambda: cupy.asarray(x), cupy.asnumpy,
                              cupy.cuda.runtime.deviceSynchronize)
    # What bounds the pageable figures on this host: a fresh destination's first touch (every
    # download writes one), one core's memcpy, and the DMA engine itself (pinned memory).
    t0 = time.perf_counter()
    np.ones(nbytes, np.uint8)
    first_touch = nbytes / (time.perf_counter() - t0) / 1e9
    dst = np.ones_like(x)
    t0 = time.perf_counter()
    np.copyto(dst, x)
    memcpy = nbytes / (time.perf_counter() - t0) / 1e9
    pinned = ap.cuda.pinned_empty(nbytes, np.uint8)
    pinned[:] = x
    up, _ = measure(lambda: ap.asarray(pinned, device="cuda"), lambda g: None,
                    ap.cuda.synchronize)
    res["host"] = {"first_touch_gbps": first_touch, "memcpy_1thread_gbps": memcpy,
                   "pinned_h2d_gbps": up}
    return res


FIRST_USE = """
import time, accelpy as ap, numpy as np
x = ap.arange(1000, dtype=np.float32, device="cuda")
ap.eval(x * 2.0)        # CUDA, NVRTC and the cache are warm
ap.cuda.synchronize()
def first(expr):        # a structure not used before: compile (or disk hit), load, launch
    t0 = time.perf_counter()
    ap.eval(expr())
    ap.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3
arith = first(lambda: (x - 1.5) * x + 0.25)
trans = first(lambda: ap.exp(ap.sin(x) * 0.5) - ap.sqrt(x + 1.25))
s = ap.cuda.kernel_cache_stats()
print(arith, trans, s["compiled"], s["disk_hits"])
"""


def first_use_ms():
    with tempfile.TemporaryDirectory() as d:
        env = empty_cache_env(d)
        cold = subprocess.run([sys.executable, "-c", FIRST_USE], env=env, capture_output=True,
                              text=True, check=True).stdout.split()
        warm = subprocess.run([sys.executable, "-c", FIRST_USE], env=env, capture_output=True,
                              text=True, check=True).stdout.split()
    # Two new structures: arithmetic, and one with transcendental functions (sin's slow path
    # alone is most of its NVRTC time).
    return {"empty_cache_ms": float(cold[1]), "empty_cache_arith_ms": float(cold[0]),
            "disk_hit_ms": float(warm[1]), "disk_hit_arith_ms": float(warm[0]),
            "compiled_cold": int(cold[2]), "disk_hits_warm": int(warm[3])}


def import_seconds(reps=5, module="accelpy"):
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  check=True).stdout) for _ in range(reps)]
    return statistics.median(times)


def versions():
    v = {"accelpy": ap.__version__, "numpy": np.__version__, "python": platform.python_version()}
    if torch is not None:
        v["torch"] = torch.__version__
    if cupy is not None:
        v["cupy"] = cupy.__version__
    for lib in ap._core._cuda.libraries():
        v[lib["name"]] = lib["version"] if lib["found"] else None
    return v


def host_cpus():
    """The CPUs the host-bound cases (transfers, dispatch) had: what the OS shows, the
    affinity mask, a cgroup CPU quota, and accelpy's CPU threads."""
    def read(path):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            return None
    return {"cpu_count": os.cpu_count(), "affinity": len(os.sched_getaffinity(0)),
            "cgroup_cpu_max": read("/sys/fs/cgroup/cpu.max"),
            "accelpy_threads": ap._core._num_threads(), "load_avg": os.getloadavg()}
