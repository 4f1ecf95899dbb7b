"""A user program that mypy must accept (tests/python/test_typing.py)."""

import numpy as np

import accelpy as ap


def normalize(x: ap.ndarray, axis: int = 0) -> ap.ndarray:
    mean = x.mean(axis=axis, keepdims=True)
    std = ap.std(x, axis=axis, keepdims=True)
    return (x - mean) / ap.where(std == 0, 1.0, std)


def main() -> float:
    data: np.ndarray = np.random.default_rng(0).standard_normal((100, 8))
    x = ap.asarray(data, dtype=ap.float32, device="cpu")
    y = ap.sqrt(x * x + 1.0).sum(axis=0)
    z = normalize(ap.concatenate([x, x[:10]], axis=0))
    shape: tuple[int, ...] = z.shape
    dev: ap.Device = z.device
    host: np.ndarray = ap.asnumpy(y)
    with ap.device("cpu"):
        ones = ap.ones((3, 2), dtype=ap.bfloat16)
    info = ap.__array_namespace_info__()
    eps: float = ap.finfo(ap.float32).eps
    ok: bool = ap.isdtype(x.dtype, "real floating") and ap.can_cast(ap.int8, ap.int16)
    back = ap.from_dlpack(np.arange(3.0))
    parts = ap.unstack(x[:2])
    total = float(y[0]) + float(ones.sum()) + eps + len(shape) + len(parts) + back.size
    print(dev, host.shape, info.default_device(), ok, ap.cuda.is_available())
    return total


if __name__ == "__main__":
    main()
