"""Host cost of one small operation (dispatch), in microseconds per op.

Times, on one-element float32 arrays: building `a + b` (the lazy node), `ap.eval(a + b)` (node,
plan, kernel lookup, launch or CPU loop, result allocation and release) and `ap.eval` of a
three-op chain, beside NumPy's `a + b`; then `ap.add(a, b)` (the ufunc's call) and
`_core.add(a, b)` (the bound function ap.add was before it became a ufunc), sampled in turn.
On CUDA also a user's kernel launched three ways (issue 5): `ap.RawKernel`
(bench/raw_kernels.py's `raw_launch_us` case), and `accelpy.driver`'s PyCUDA-style
`Function.__call__` and `prepared_call`. Each figure is the median of `--samples` runs of
`--inner` calls.

    python bench/dispatch.py [--device cpu|cuda] [--fake-cuda]

`--fake-cuda` measures the CUDA backend's host path on a machine without a GPU: it builds
bench/fake_cuda_driver.c (a driver whose launches do nothing and whose "device memory" is host
memory) and reruns itself with ACCELPY_CUDA_DRIVER pointing at it. Real drivers add their own
time per op (cuLaunchKernel ~2 us; cuMemAllocFromPoolAsync/cuMemFreeAsync when the small-block
cache misses); bench/gpu.py's dispatch_us measures the whole on a GPU.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def median_us(fn, samples, inner):
    return paired_median_us([fn], samples, inner)[0]


def paired_median_us(fns, samples, inner):
    """The median per-call time of each of `fns`, their samples taken in turn so that a shared
    machine's changing load falls on all of them alike."""
    for fn in fns:
        for _ in range(inner // 10 + 10):
            fn()
    times = [[] for _ in fns]
    for _ in range(samples):
        for fn, t in zip(fns, times, strict=True):
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            t.append((time.perf_counter() - t0) / inner * 1e6)
    return [statistics.median(t) for t in times]


RAW_CODE = r"""
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


def raw_kernel_cases(rng):
    """Launches of a 4-argument user kernel (1 block of 256 threads), as bench/raw_kernels.py
    times them on a GPU."""
    import accelpy as ap
    from accelpy.compiler import SourceModule

    na = rng.standard_normal(256, dtype=np.float32)
    a = ap.asarray(na, device="cuda")
    c = ap.empty(256, dtype=np.float32, device="cuda")
    n = np.int32(256)
    k = ap.RawKernel(RAW_CODE, "add")
    f = SourceModule(RAW_CODE, no_extern_c=True).get_function("add")
    fp = SourceModule(RAW_CODE, no_extern_c=True).get_function("add").prepare("PPPi")
    if os.environ.get("ACCELPY_FAKE_CUDA") != "1":
        k((1,), (256,), (a, a, c, n))
        np.testing.assert_allclose(ap.asnumpy(c), na + na, rtol=1e-6)
    return [
        ("RawKernel k(grid, block, args)", lambda: k((1,), (256,), (a, a, c, n))),
        ("driver f(*args, block, grid)", lambda: f(a, a, c, n, block=(256, 1, 1), grid=(1, 1))),
        ("driver f.prepared_call", lambda: fp.prepared_call((1, 1), (256, 1, 1), a, a, c, 256)),
    ]


def run(device, samples, inner):
    import accelpy as ap

    rng = np.random.default_rng()
    na, nb = (rng.standard_normal(1, dtype=np.float32) for _ in range(2))
    # accelpy's own copies: an operand in memory NumPy still references (na, nb) is read at the
    # call, so every op on it would be evaluated at once and "lazy node only" would not be lazy.
    a, b = (ap.asarray(v, device=device, copy=True) for v in (na, nb))
    # The results are right before anything is timed (not with the fake driver: it runs nothing).
    if os.environ.get("ACCELPY_FAKE_CUDA") != "1":
        np.testing.assert_allclose(ap.asnumpy(a + b), na + nb, rtol=1e-6)
        np.testing.assert_allclose(ap.asnumpy((a + b) * a - b), (na + nb) * na - nb, rtol=1e-6)
    # ap.add is an accelpy.ufunc; _core.add is the bound function ap.add was before it became
    # one: the two side by side give the ufunc's own cost.
    add_ufunc, add_function = ap.add, ap._core.add
    cases = [
        ("a + b (lazy node only)", lambda: a + b),
        ("ap.eval(a + b)", lambda: ap.eval(a + b)),
        ("ap.eval((a + b) * a - b)", lambda: ap.eval((a + b) * a - b)),
        ("numpy a + b", lambda: na + nb),
    ]
    if device.startswith("cuda"):
        cases += raw_kernel_cases(rng)
    print(
        f"dispatch on {a.device} ({time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC), "
        f"median of {samples} x {inner} calls"
    )
    for name, fn in cases:
        us = median_us(fn, samples, inner)
        if device.startswith("cuda"):
            ap.cuda.synchronize()
        print(f"  {name:32} {us:7.3f} us")
    # The ufunc against the function it replaced, interleaved (a difference of a few percent).
    ufunc_us, function_us = paired_median_us([lambda: add_ufunc(a, b), lambda: add_function(a, b)],
                                             samples, inner)
    print(f"  {'ap.add / _core.add, interleaved':32} {ufunc_us:7.3f} / {function_us:.3f} us "
          f"({ufunc_us / function_us:.3f}x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None, help="cpu or cuda (default: the default device)")
    parser.add_argument(
        "--fake-cuda",
        action="store_true",
        help="the CUDA host path through bench/fake_cuda_driver.c (no GPU needed)",
    )
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--inner", type=int, default=20000)
    args = parser.parse_args()
    if args.fake_cuda and os.environ.get("ACCELPY_FAKE_CUDA") != "1":
        with tempfile.TemporaryDirectory() as tmp:
            lib = os.path.join(tmp, "libcuda.so.1")
            src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_cuda_driver.c")
            subprocess.run(
                [os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-o", lib, src], check=True
            )
            env = dict(
                os.environ,
                ACCELPY_CUDA_DRIVER=lib,
                ACCELPY_FAKE_CUDA="1",
                # The kernel's parameters as a CUDA 12.4+ driver reports them (sizes checked).
                FAKE_CUDA_PARAM_SIZES="8,8,8,4",
                ACCELPY_CACHE_DIR=os.path.join(tmp, "cache"),
            )
            cmd = [
                sys.executable,
                __file__,
                "--device",
                "cuda",
                "--samples",
                str(args.samples),
                "--inner",
                str(args.inner),
            ]
            sys.exit(subprocess.run(cmd, env=env).returncode)
    device = args.device
    if device is None:
        import accelpy as ap

        device = str(ap.get_default_device()) if hasattr(ap, "get_default_device") else "cpu"
    run(device, args.samples, args.inner)


if __name__ == "__main__":
    main()
