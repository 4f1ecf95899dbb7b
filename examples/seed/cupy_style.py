"""The seed tutorial's CuPy program with only `import cupy as cp` changed: NumPy-style arrays
on the default device (the GPU when there is one, else the CPU).

    python examples/seed/cupy_style.py
"""

# ruff: noqa: I001 - the tutorial's import lines, in the tutorial's order

import accelpy as cp
import numpy as np

# 初始化数据
N = 1024
a = np.random.randn(N).astype(np.float32)
b = np.random.randn(N).astype(np.float32)
# 将数据传输到GPU
a_gpu = cp.asarray(a)
b_gpu = cp.asarray(b)
# 执行加法操作
c_gpu = a_gpu + b_gpu
# 将结果从GPU传输回CPU
c = cp.asnumpy(c_gpu)
# 验证结果
assert np.allclose(c, a + b)
print("CuPy加速计算成功！")
