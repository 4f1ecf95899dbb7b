"""The seed tutorial's CUDA kernel (section 一/二): `add` written in CUDA C, one thread per
element, threads grouped into blocks and blocks into a grid, launched from Python with
accelpy.RawKernel (compiled by NVRTC at run time, no nvcc; cached on disk). The arrays are on
the default device, as the seed's are: the GPU when there is one, else the CPU, where the same
kernel is compiled by the machine's C++ compiler and run on the CPU device.

    python examples/seed/cuda_kernel.py
"""

import numpy as np

import accelpy as ap

kernel_code = """
extern "C" __global__ void add(float *a, float *b, float *c, int N) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < N) {
        c[idx] = a[idx] + b[idx];
    }
}
"""
add = ap.RawKernel(kernel_code, "add")

N = 1024
a = np.random.randn(N).astype(np.float32)
b = np.random.randn(N).astype(np.float32)
a_gpu = ap.asarray(a)
b_gpu = ap.asarray(b)
c_gpu = ap.empty_like(a_gpu)

# Each thread adds one element: 256 threads per block, enough blocks to cover N.
threads_per_block = 256
blocks_per_grid = (N + threads_per_block - 1) // threads_per_block
add((blocks_per_grid,), (threads_per_block,), (a_gpu, b_gpu, c_gpu, np.int32(N)))

c = ap.asnumpy(c_gpu)
assert np.allclose(c, a + b)
print(f"grid of {blocks_per_grid} blocks x {threads_per_block} threads for N={N}")
print("CUDA加速计算成功！")
