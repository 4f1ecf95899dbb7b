"""The top-level linear algebra functions (NumPy's reference: "Linear algebra", matrix and vector
products): kron, matvec, vecmat and trace, composed from broadcasting elementwise ops and
matmul; the core's matmul, dot, vdot, inner, outer, tensordot, vecdot and einsum are re-exported
here, and einsum_path. numpy.linalg's own functions are accelpy.linalg."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    dot,
    einsum,
    inner,
    matmul,
    ndarray,
    outer,
    tensordot,
    vdot,
    vecdot,
)
from ._creation import on_one_device
from ._indexing import diagonal

if TYPE_CHECKING:
    from ._core import ArrayLike, DTypeLike

__all__ = [
    "kron",
    "matvec",
    "trace",
    "vecmat",
    "matmul",
    "dot",
    "vdot",
    "inner",
    "outer",
    "tensordot",
    "vecdot",
    "einsum",
    "einsum_path",
]



def einsum_path(subscripts: Any, *operands: Any, optimize: Any = "greedy",
                einsum_call: bool = False) -> Any:
    """NumPy's contraction order for an einsum (numpy.einsum_path): the path and its report.
    The order depends only on shapes, so NumPy plans it over stand-ins of the operands' shapes
    and dtypes that hold no data (the arrays stay where they are)."""
    def stand_in(x):
        if isinstance(x, ndarray):
            return np.broadcast_to(np.zeros((), dtype=x.dtype), x.shape)
        return x

    return np.einsum_path(stand_in(subscripts), *(stand_in(o) for o in operands),
                          optimize=optimize, einsum_call=einsum_call)


def kron(a: ArrayLike, b: ArrayLike) -> ndarray:
    """The Kronecker product: blocks a[i, j, ...] * b (numpy.kron)."""
    a, b = on_one_device(a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    # Interleaved axes (a0, 1, a1, 1, ...) * (1, b0, 1, b1, ...), then merged pairwise.
    ai = _core.reshape(a, tuple(d for s in sa for d in (s, 1)))
    bi = _core.reshape(b, tuple(d for s in sb for d in (1, s)))
    return _core.reshape(ai * bi, tuple(x * y for x, y in zip(sa, sb, strict=True)))


def _gufunc_operands(name, x1, x2, out, kwargs, nd1, nd2, signature):
    """The two operands as arrays with at least the core dimensions `signature` needs."""
    if out is not None:
        raise NotImplementedError(f"accelpy.{name}: out= is not supported; assign the result")
    for key in kwargs:
        raise NotImplementedError(f"accelpy.{name}: the gufunc keyword {key}= is not supported")
    x1, x2 = on_one_device(x1, x2)
    if x1.ndim < nd1 or x2.ndim < nd2:
        raise ValueError(f"{name}: Input operand does not have enough dimensions (has "
                         f"{x1.ndim if x1.ndim < nd1 else x2.ndim}, gufunc core with signature "
                         f"{signature} requires {nd1} and {nd2})")
    return x1, x2


def matvec(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, **kwargs: Any) -> ndarray:
    """The matrix-vector product over the last two axes of x1 and the last of x2, broadcasting
    the rest (numpy.matvec)."""
    x1, x2 = _gufunc_operands("matvec", x1, x2, out, kwargs, 2, 1, "(m,n),(n)->(m)")
    return _core.matmul(x1, x2[..., None])[..., 0]


def vecmat(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, **kwargs: Any) -> ndarray:
    """The vector-matrix product conj(x1) @ x2 over the last axis of x1 and the last two of x2,
    broadcasting the rest (numpy.vecmat)."""
    x1, x2 = _gufunc_operands("vecmat", x1, x2, out, kwargs, 1, 2, "(n),(n,m)->(m)")
    if np.dtype(x1.dtype).kind == "c":
        x1 = _core.conj(x1)
    return _core.matmul(x1[..., None, :], x2)[..., 0, :]


def trace(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1,
          dtype: DTypeLike | None = None, out: ndarray | None = None) -> ndarray:
    """The sum along a diagonal (numpy.trace)."""
    return _core.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)
