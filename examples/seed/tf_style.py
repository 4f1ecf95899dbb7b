"""The seed tutorial's TensorFlow program in accelpy's names: random normal arrays, placement
by a device scope (`with ap.device(...)`), and a host copy of the result. Runs on the GPU when
there is one, else the CPU.

    python examples/seed/tf_style.py
"""

import numpy as np

import accelpy as ap

# 初始化数据
N = 1024
device = "cuda:0" if ap.cuda.is_available() else "cpu"
with ap.device(device):
    a = ap.random.normal(size=[N]).astype(ap.float32)
    b = ap.random.normal(size=[N]).astype(ap.float32)
    # 执行加法操作
    c = a + b
assert c.device == ap.device(device)
# 将结果从GPU传输回CPU
c = ap.asnumpy(c)
# 验证结果
assert np.allclose(c, ap.asnumpy(a) + ap.asnumpy(b))
print(f"on {device}")
print("TensorFlow加速计算成功！")
