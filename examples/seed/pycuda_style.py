"""The seed tutorial's PyCUDA program, with only its import lines changed (accelpy.driver,
accelpy.autoinit and accelpy.compiler are PyCUDA-compatible; NVRTC compiles, no nvcc). Without
a GPU the driver layer targets the CPU device: host memory, the machine's C++ compiler.

    python examples/seed/pycuda_style.py
"""

# ruff: noqa: I001 - the tutorial's import lines, in the tutorial's order

import accelpy.driver as cuda
import accelpy.autoinit  # noqa: F401
import numpy as np
from accelpy.compiler import SourceModule

# 编写CUDA内核代码
kernel_code = """
__global__ void add(float *a, float *b, float *c, int N) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < N) {
        c[idx] = a[idx] + b[idx];
    }
}
"""
# 编译CUDA内核代码
mod = SourceModule(kernel_code)
add = mod.get_function("add")
# 初始化数据
N = 1024
a = np.random.randn(N).astype(np.float32)
b = np.random.randn(N).astype(np.float32)
c = np.empty_like(a)
# 分配GPU内存
a_gpu = cuda.mem_alloc(a.nbytes)
b_gpu = cuda.mem_alloc(b.nbytes)
c_gpu = cuda.mem_alloc(c.nbytes)
# 将数据传输到GPU
cuda.memcpy_htod(a_gpu, a)
cuda.memcpy_htod(b_gpu, b)
# 执行CUDA内核
block_size = 256
grid_size = (N + block_size - 1) // block_size
add(a_gpu, b_gpu, c_gpu, np.int32(N), block=(block_size, 1, 1), grid=(grid_size, 1))
# 将结果从GPU传输回CPU
cuda.memcpy_dtoh(c, c_gpu)
# 验证结果
assert np.allclose(c, a + b)
print("CUDA加速计算成功！")
