"""Host cost of bench/gpu.py's fused cases on the CUDA path, on a machine without a GPU.

Runs layer norm and Black-Scholes (bench/gpu_fusion.py's expressions) and the 1,000-element loop
step of bench/gpu_loops.py through bench/fake_cuda_driver.c: every allocation, graph build,
planning, kernel-cache lookup, argument packing and launch is accelpy's real host code; the
driver's own calls return at once (a real one adds ~2 us a launch). Prints the host's
microseconds per call after warm-up: medians of `--samples` runs of `--inner` calls, queued
back to back as gpu_fusion's pipelined figure is, in the thread's CPU time (steady on a shared,
loaded machine, where wall time is not). With `--perf DIR` it also records a profile per case
(`perf record --call-graph dwarf`, DIR/<case>.data) of the case run over and over.

Host work per call does not depend on the arrays' sizes, so the rows are fewer than on a GPU
(the fake driver's "device memory" is host memory): layer norm keeps its 4096 columns, Black-
Scholes runs on 2^16 elements.

    python bench/cuda_host_cost.py [--cases ln,bs,loop] [--perf DIR]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _fake_env(tmp):
    lib = os.path.join(tmp, "libcuda.so.1")
    subprocess.run(
        ["cc", "-O2", "-shared", "-fPIC", "-o", lib, os.path.join(HERE, "fake_cuda_driver.c")],
        check=True,
    )
    return dict(
        os.environ,
        ACCELPY_CUDA_DRIVER=lib,
        ACCELPY_FAKE_CUDA="1",
        ACCELPY_CACHE_DIR=os.environ.get("ACCELPY_CACHE_DIR", os.path.join(tmp, "cache")),
    )


def _cases(names):
    import numpy as np

    import accelpy as ap

    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "python"))
    import fusion_programs

    rng = np.random.default_rng(3)
    out = {}
    if "ln" in names:
        x = ap.asarray(rng.standard_normal((64, 4096), dtype=np.float32), device="cuda")
        g = ap.asarray(rng.uniform(0.5, 1.5, 4096).astype(np.float32), device="cuda")
        b = ap.asarray(rng.standard_normal(4096, dtype=np.float32), device="cuda")
        out["layer norm 64x4096"] = (lambda: ap.eval(fusion_programs.layer_norm(ap, x, g, b)), 1)
    if "bs" in names:
        n = 1 << 16
        S, X, T = (
            ap.asarray(rng.uniform(lo, hi, n).astype(np.float32), device="cuda")
            for lo, hi in ((5, 30), (1, 100), (0.25, 10))
        )
        out["black-scholes 3x2^16"] = (
            lambda: ap.eval(*fusion_programs.black_scholes(ap, S, X, T)),
            1,
        )
    if "loop" in names:
        steps = 2000

        def loop():
            y = ap.linspace(0, 1, 1000, dtype=np.float32, device="cuda")
            for _ in range(steps):
                y = y * 0.999 + 0.001
            return float(y.sum())

        out["loop step 1000 f32"] = (loop, steps)
    return out


def measure(names, samples, inner):
    import accelpy as ap

    res = {}
    for name, (fn, per) in _cases(names).items():
        for _ in range(3):
            fn()
        ap.cuda.wait_for_optimized_kernels()
        for _ in range(max(inner // 4, 2)):
            fn()
        times = []
        n = max(inner // per, 1)
        for _ in range(samples):
            t0 = time.thread_time()
            for _ in range(n):
                fn()
            times.append((time.thread_time() - t0) / (n * per) * 1e6)
        ap.cuda.synchronize()
        res[name] = statistics.median(times)
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default="ln,bs,loop")
    p.add_argument("--samples", type=int, default=15)
    p.add_argument("--inner", type=int, default=200)
    p.add_argument("--perf", metavar="DIR", help="also record a perf profile per case there")
    p.add_argument("--_child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--_loop_s", type=float, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    names = args.cases.split(",")
    if not args._child:
        with tempfile.TemporaryDirectory() as tmp:
            env = _fake_env(tmp)
            cmd = [
                sys.executable,
                os.path.abspath(__file__),
                "--_child",
                "--cases",
                args.cases,
                "--samples",
                str(args.samples),
                "--inner",
                str(args.inner),
            ]
            subprocess.run(cmd, env=env, check=True)
            if args.perf:
                os.makedirs(args.perf, exist_ok=True)
                for c in names:
                    data = os.path.join(args.perf, f"{c}.data")
                    subprocess.run(
                        [
                            "perf",
                            "record",
                            "-q",
                            "--call-graph",
                            "dwarf,16384",
                            "-F",
                            "2000",
                            "-o",
                            data,
                            "--",
                            sys.executable,
                            os.path.abspath(__file__),
                            "--_child",
                            "--cases",
                            c,
                            "--_loop_s",
                            "6",
                        ],
                        env=env,
                        check=True,
                    )
        return
    if args._loop_s:  # the profile: the case run over and over, most samples in steady state
        import accelpy as ap

        ((_, (fn, _)),) = _cases(names).items()
        for _ in range(5):
            fn()
        ap.cuda.wait_for_optimized_kernels()
        end = time.perf_counter() + args._loop_s
        while time.perf_counter() < end:
            fn()
        ap.cuda.synchronize()
        return
    for name, us in measure(names, args.samples, args.inner).items():
        print(f"{name:24} {us:9.2f} us per call (host)")


if __name__ == "__main__":
    main()
