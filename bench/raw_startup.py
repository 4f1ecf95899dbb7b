"""One new process: import accelpy, compile a small raw kernel, run it, wait for it. Prints the
seconds from before the import to the end (bench/raw_kernels.py runs it with an empty and then
a warm disk cache). `--cupy` measures the same with CuPy."""

import time

t0 = time.perf_counter()
import sys  # noqa: E402

import numpy as np  # noqa: E402

CODE = r"""
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

if "--cupy" in sys.argv:
    import cupy as xp

    a = xp.ones(1024, dtype=np.float32)
    c = xp.empty_like(a)
    xp.RawKernel(CODE, "add")((4,), (256,), (a, a, c, np.int32(1024)))
    xp.cuda.runtime.deviceSynchronize()
    ok = float(c[0]) == 2.0
else:
    import accelpy as xp

    a = xp.ones(1024, dtype=np.float32, device="cuda")
    c = xp.empty_like(a)
    xp.RawKernel(CODE, "add")((4,), (256,), (a, a, c, np.int32(1024)))
    xp.cuda.synchronize()
    ok = float(c[0]) == 2.0
t1 = time.perf_counter()
assert ok
print(t1 - t0)
