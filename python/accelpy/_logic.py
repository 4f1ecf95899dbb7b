"""isclose and allclose (NumPy's semantics), composed from fused elementwise ops: the core's own
win when it has them."""

from . import _core


def _operand(x, like):
    if isinstance(x, _core.ndarray):
        return x
    from ._creation import asarray

    return asarray(x, device=like.device if isinstance(like, _core.ndarray) else None)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|a - b| <= atol + rtol * |b|`` elementwise (infinities equal to themselves; NaNs
    equal to each other when `equal_nan`), as numpy.isclose."""
    a = _operand(a, b)
    b = _operand(b, a)
    dt = _core.result_type(a, b, 1.0)
    x, y = a.astype(dt), b.astype(dt)
    finite = _core.isfinite(x) & _core.isfinite(y)
    close = _core.abs(x - y) <= atol + rtol * _core.abs(y)
    result = _core.where(finite, close, x == y)
    if equal_nan:
        result = result | (_core.isnan(x) & _core.isnan(y))
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `a` is close to `b` (numpy.allclose): a Python bool."""
    return bool(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).all())
