"""Where a new process's start-up time goes: a per-step timeline, with an empty and then a warm
kernel cache, so that the GPU breakdown is measured rather than guessed.

    python bench/startup_probe.py [--reps 5] [--fake-cuda] [--json out.json]

Each repetition starts new interpreters (one with an empty ACCELPY_CACHE_DIR, one reusing it)
that time, from the moment the parent started them:

    interpreter   Python itself up (to the first line of the child)
    numpy         import numpy
    accelpy       import accelpy (numpy already imported)
    cuda init     ap.cuda.is_available(): dlopen libcuda, cuInit, device count
    context       the first CUDA array (from host memory: primary context, stream, pool, copy)
    raw compile   RawKernel(...).compile(): NVRTC, or a disk-cache hit that must not load it
    raw launch    the first launch (cuModuleLoadData, argument checks, cuLaunchKernel)
    raw sync      ap.cuda.synchronize() after it
    ew first      a new generated elementwise kernel, evaluated and synchronized
    readback      the result copied to NumPy

and prints the median of each step, the libraries the process had loaded at the end (a warm
cache must show no NVRTC), and the kernel cache's counters. `--fake-cuda` runs the CUDA host
path through bench/fake_cuda_driver.c (no GPU; kernels do not run, so times are host-only).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import time
t = [("interpreter", time.time())]
import numpy as np
t.append(("numpy", time.time()))
import accelpy as ap
t.append(("accelpy", time.time()))
assert ap.cuda.is_available(), ap.cuda.unavailable_reason()
t.append(("cuda init", time.time()))
a = ap.asarray(np.arange(1024, dtype=np.float32), device="cuda")
ap.eval(a)
t.append(("context", time.time()))
k = ap.RawKernel(r'''
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}''', "add")
k.compile()
t.append(("raw compile", time.time()))
c = ap.empty_like(a)
k((4,), (256,), (a, a, c, np.int32(1024)))
t.append(("raw launch", time.time()))
ap.cuda.synchronize()
t.append(("raw sync", time.time()))
y = ap.exp(ap.sin(a) * 0.5) - ap.sqrt(a + 1.25)
ap.eval(y)
ap.cuda.synchronize()
t.append(("ew first", time.time()))
host = ap.asnumpy(y)
t.append(("readback", time.time()))
maps = open("/proc/self/maps").read()
libs = sorted({n for n in ("libcuda", "libnvrtc", "libcublas", "libcublasLt", "libcufft",
                           "libcusolver", "libaccel_cub") if n + "." in maps or n + "-" in maps})
s = ap.cuda.kernel_cache_stats()
print(json.dumps({"times": t, "libs": libs,
                  "cache": {k: s[k] for k in ("compiled", "disk_hits", "compile_ms")}}))
"""


def run_child(env):
    start = time.time()
    out = subprocess.run([sys.executable, "-c", "import json\n" + CHILD], env=env,
                         capture_output=True, text=True, check=True).stdout
    res = json.loads(out.strip().splitlines()[-1])
    steps, prev = [], start
    for name, t in res["times"]:
        steps.append((name, (t - prev) * 1e3))
        prev = t
    res["steps"] = steps
    res["total_ms"] = (prev - start) * 1e3
    return res


def fake_driver_env():
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_cuda_driver.c")
    lib = os.path.join(tempfile.mkdtemp(prefix="accelpy-fake-cuda-"), "libcuda.so.1")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", lib, src], check=True)
    return {"ACCELPY_CUDA_DRIVER": lib}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--fake-cuda", action="store_true",
                        help="the host path through bench/fake_cuda_driver.c (no GPU needed)")
    parser.add_argument("--json", help="write the medians and the raw runs here")
    args = parser.parse_args()
    base = dict(os.environ, **(fake_driver_env() if args.fake_cuda else {}))
    runs = {"empty": [], "warm": []}
    for _ in range(args.reps):
        with tempfile.TemporaryDirectory() as d:
            env = dict(base, ACCELPY_CACHE_DIR=d)
            runs["empty"].append(run_child(env))
            runs["warm"].append(run_child(env))
    names = [n for n, _ in runs["empty"][0]["steps"]]
    medians = {c: {n: statistics.median(dict(r["steps"])[n] for r in rs) for n in names}
               for c, rs in runs.items()}
    totals = {c: statistics.median(r["total_ms"] for r in rs) for c, rs in runs.items()}
    title = f"step (ms, median of {args.reps})"
    print(f"{title:28} {'empty cache':>12} {'warm cache':>12}")
    for n in names:
        print(f"{n:28} {medians['empty'][n]:12.1f} {medians['warm'][n]:12.1f}")
    print(f"{'total':28} {totals['empty']:12.1f} {totals['warm']:12.1f}")
    for c, rs in runs.items():
        last = rs[-1]
        print(f"{c} cache: libraries loaded {', '.join(last['libs']) or '-'}; kernels compiled "
              f"{last['cache']['compiled']} ({last['cache']['compile_ms']:.1f} ms), disk hits "
              f"{last['cache']['disk_hits']}")
    if "libnvrtc" in runs["warm"][-1]["libs"]:
        print("WARNING: the warm-cache process loaded NVRTC")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d %H:%M:%S"), "fake_cuda": args.fake_cuda,
                       "median_ms": medians, "total_ms": totals, "runs": runs}, f, indent=1)


if __name__ == "__main__":
    main()
