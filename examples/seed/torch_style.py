"""The seed tutorial's PyTorch program in accelpy's names: random arrays, a device chosen by
availability, .to(device), .cpu() and allclose. Runs on the GPU when there is one, else the CPU.

    python examples/seed/torch_style.py
"""

import accelpy as ap

# 初始化数据
N = 1024
rng = ap.random.default_rng()
a = rng.standard_normal(N, dtype=ap.float32)
b = rng.standard_normal(N, dtype=ap.float32)
# 将数据传输到GPU
device = ap.device("cuda" if ap.cuda.is_available() else "cpu")
a = a.to(device)
b = b.to(device)
# 执行加法操作
c = a + b
# 将结果从GPU传输回CPU
c = c.cpu()
# 验证结果
assert ap.allclose(c, a.cpu() + b.cpu())
print(f"on {device}")
print("PyTorch加速计算成功！")
