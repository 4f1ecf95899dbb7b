"""NumPy's products beyond matmul and outer: kron, cross, matvec and vecmat, composed from
broadcasting elementwise ops and matmul, so they run on every device."""

import warnings

import numpy as np

from . import _core
from ._rearranging import _axis
from ._math import _arrays

__all__ = ["cross", "kron", "matvec", "vecmat"]


def kron(a, b):
    """The Kronecker product: blocks a[i, j, ...] * b (numpy.kron)."""
    a, b = _arrays(a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    # Interleaved axes (a0, 1, a1, 1, ...) * (1, b0, 1, b1, ...), then merged pairwise.
    ai = _core.reshape(a, tuple(d for s in sa for d in (s, 1)))
    bi = _core.reshape(b, tuple(d for s in sb for d in (1, s)))
    return _core.reshape(ai * bi, tuple(x * y for x, y in zip(sa, sb, strict=True)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (or 2-vectors, giving the z component) along the given
    axes, broadcasting the rest (numpy.cross)."""
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a, b = _arrays(a, b)
    a = _core.moveaxis(a, _axis(axisa, a.ndim) if a.ndim else _axis(axisa, 1), -1)
    b = _core.moveaxis(b, _axis(axisb, b.ndim) if b.ndim else _axis(axisb, 1), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    zero = _core.zeros((), dtype=_core.result_type(a, b), device=a.device)
    a2 = zero if a2 is None else a2
    b2 = zero if b2 is None else b2
    c = _core.stack(_core.broadcast_arrays(a1 * b2 - a2 * b1, a2 * b0 - a0 * b2,
                                           a0 * b1 - a1 * b0), axis=-1)
    return _core.moveaxis(c, -1, _axis(axisc, c.ndim))


def _gufunc_operands(name, x1, x2, out, kwargs, nd1, nd2, signature):
    """The two operands as arrays with at least the core dimensions `signature` needs."""
    if out is not None:
        raise NotImplementedError(f"accelpy.{name}: out= is not supported; assign the result")
    for key in kwargs:
        raise NotImplementedError(f"accelpy.{name}: the gufunc keyword {key}= is not supported")
    x1, x2 = _arrays(x1, x2)
    if x1.ndim < nd1 or x2.ndim < nd2:
        raise ValueError(f"{name}: Input operand does not have enough dimensions (has "
                         f"{x1.ndim if x1.ndim < nd1 else x2.ndim}, gufunc core with signature "
                         f"{signature} requires {nd1} and {nd2})")
    return x1, x2


def matvec(x1, x2, /, out=None, **kwargs):
    """The matrix-vector product over the last two axes of x1 and the last of x2, broadcasting
    the rest (numpy.matvec)."""
    x1, x2 = _gufunc_operands("matvec", x1, x2, out, kwargs, 2, 1, "(m,n),(n)->(m)")
    return _core.matmul(x1, x2[..., None])[..., 0]


def vecmat(x1, x2, /, out=None, **kwargs):
    """The vector-matrix product conj(x1) @ x2 over the last axis of x1 and the last two of x2,
    broadcasting the rest (numpy.vecmat)."""
    x1, x2 = _gufunc_operands("vecmat", x1, x2, out, kwargs, 1, 2, "(n),(n,m)->(m)")
    if np.dtype(x1.dtype).kind == "c":
        x1 = _core.conj(x1)
    return _core.matmul(x1[..., None, :], x2)[..., 0, :]
