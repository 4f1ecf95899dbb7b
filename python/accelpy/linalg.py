"""Linear algebra: ``numpy.linalg``'s functions on accelpy arrays.

The factorizations (solve, inv, cholesky, det, slogdet, eigh, eigvalsh) run through LAPACK on
the CPU (the library accelpy's BLAS loader found: NumPy's bundled OpenBLAS, or the system's) and
cuSOLVER on CUDA devices, batched over leading dimensions. The libraries' info codes are
checked on every device: a singular or not positive definite matrix raises
:class:`LinAlgError` (NumPy's own class, a ValueError), as ``numpy.linalg`` does.

Products (matmul, tensordot, outer, vecdot, ...) are accelpy's own functions, re-exported here
as the Array API's linalg extension lists them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as _np

from . import _core, _indexing, _linear_algebra, _manipulation
from ._calculus import cross as _cross
from ._creation import asarray as _asarray

LinAlgError = _np.linalg.LinAlgError
_CPU = _core.Device("cpu")

__all__ = [
    "LinAlgError",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "trace",
    "vector_norm",
]


class SlogdetResult(NamedTuple):
    sign: object
    logabsdet: object


class EighResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class SVDResult(NamedTuple):
    U: object
    S: object
    Vh: object


class QRResult(NamedTuple):
    Q: object
    R: object


def _uplo(uplo):
    if uplo not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return uplo == "L"


def solve(a, b):
    """The solution x of ``a @ x = b`` (b is a vector only when 1-D, as in NumPy 2)."""
    a = _asarray(a)
    return _core._linalg_solve(a, b)


def inv(a):
    """The inverse of each square matrix of `a`."""
    return _core._linalg_inv(_asarray(a))


def tensorsolve(a, b, axes=None):
    """The tensor x with ``tensordot(a, x, x.ndim) == b`` (numpy.linalg.tensorsolve): `a`
    reshaped to a square matrix over b's axes and the rest, `axes` first moved to the end."""
    a = _asarray(a)
    b = _asarray(b, device=a.device)
    if axes is not None:
        order = [k for k in range(a.ndim) if k not in {ax % a.ndim for ax in axes}]
        a = a.transpose(order + [ax % a.ndim for ax in axes])
    x_shape = a.shape[b.ndim:]
    n = int(_np.prod(x_shape))
    if int(_np.prod(a.shape[:b.ndim])) != n:
        raise LinAlgError("tensorsolve: a's shape must satisfy prod(a.shape[b.ndim:]) == "
                          "prod(a.shape[:b.ndim])")
    x = solve(a.reshape(n, n), b.reshape(n))
    return x.reshape(x_shape)


def tensorinv(a, ind=2):
    """The inverse of `a` under tensordot over its first `ind` axes: the result's shape is
    ``a.shape[ind:] + a.shape[:ind]`` (numpy.linalg.tensorinv)."""
    a = _asarray(a)
    if ind <= 0:
        raise ValueError(f"tensorinv: ind must be a positive integer, got {ind}")
    n = int(_np.prod(a.shape[ind:]))
    return inv(a.reshape(n, -1)).reshape(a.shape[ind:] + a.shape[:ind])


def cholesky(a, /, *, upper=False):
    """The Cholesky factor of Hermitian positive definite matrices: lower ``L`` with
    ``a = L @ L.conj().T`` (or, with `upper`, its conjugate transpose)."""
    return _core._linalg_cholesky(_asarray(a), bool(upper))


def det(a):
    """The determinant of each square matrix of `a` (from its LU factorization)."""
    return _core._linalg_det(_asarray(a))


def slogdet(a):
    """``(sign, logabsdet)`` of the determinants; sign 0 and logabsdet -inf when singular."""
    return SlogdetResult(*_core._linalg_slogdet(_asarray(a)))


def eigh(a, UPLO="L"):  # noqa: N803 - NumPy's name
    """Eigenvalues (ascending) and eigenvectors (columns) of Hermitian matrices, read from the
    lower (``"L"``) or upper (``"U"``) triangle."""
    return EighResult(*_core._linalg_eigh(_asarray(a), _uplo(UPLO)))


def eigvalsh(a, UPLO="L"):  # noqa: N803
    """The eigenvalues (ascending) of Hermitian matrices."""
    return _core._linalg_eigvalsh(_asarray(a), _uplo(UPLO))


class EigResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


def eig(a):
    """Eigenvalues and right eigenvectors (unit columns) of general square matrices; complex
    whatever the values, as NumPy 2.5 and the Array API (no value-dependent dtype)."""
    return EigResult(*_core._linalg_eig(_asarray(a), True))


def eigvals(a):
    """The eigenvalues of general square matrices (complex, as :func:`eig`)."""
    return _core._linalg_eig(_asarray(a), False)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """The singular value decomposition ``a = U @ diag(S) @ Vh`` of each matrix (S descending).
    `hermitian` is accepted for NumPy's signature; the general algorithm serves both cases."""
    a = _asarray(a)
    if not compute_uv:
        return _core._linalg_svdvals(a)
    return SVDResult(*_core._linalg_svd(a, bool(full_matrices)))


def svdvals(x, /):
    """The singular values of each matrix, descending."""
    return _core._linalg_svdvals(_asarray(x))


def qr(a, mode="reduced"):
    """The QR factorization of each matrix: mode ``"reduced"`` (Q: m x k, R: k x n),
    ``"complete"`` (Q: m x m, R: m x n), ``"r"`` (R only) or ``"raw"`` ((h, tau), LAPACK's form)."""
    q, r = _core._linalg_qr(_asarray(a), mode)
    if mode == "r":
        return r
    if mode == "raw":
        return q, r
    return QRResult(q, r)


# ---- composed from the above and elementwise ops (lazy: they fuse) --------------------------


def _inexact(x):
    # Norms compute in the input's floating type; integers and bool in float64, as NumPy.
    x = _asarray(x)
    if x.dtype.kind in "biu":
        return x.astype(_np.float64)
    return x


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002 - the standard's name
    """The vector `ord`-norm over `axis` (all axes by default): 2, 1, inf, -inf, 0 or any p."""
    x = _inexact(x)
    if axis is None:
        flat = _core.reshape(x, (-1,))
        if ord == 2 and x.dtype.kind == "f" and x.device == _CPU:
            # The 2-norm of all of a real CPU array is NumPy's sqrt(dot(x, x)): one BLAS call,
            # where x * x and its sum are two operations (a loop's residual norm pays each per
            # call). On a GPU the sum of squares stays: one reduction fused with its producer.
            r = _core.sqrt(_core.dot(flat, flat))
        else:
            r = vector_norm(flat, axis=0, ord=ord)
        return _core.reshape(r, (1,) * x.ndim) if keepdims else r
    kw = {"axis": axis, "keepdims": keepdims}
    if ord == 2 and x.dtype.kind != "c":
        # abs(x) * abs(x) is x * x to the bit for real x: one node less in a loop's norm.
        return _core.sqrt(_core.sum(x * x, **kw))
    a = _core.abs(x)
    if ord == 2:
        return _core.sqrt(_core.sum(a * a, **kw))
    if ord == 1:
        return _core.sum(a, **kw)
    if ord == _np.inf:
        return _core.max(a, **kw)
    if ord == -_np.inf:
        return _core.min(a, **kw)
    if ord == 0:
        return _core.sum(a != 0, **kw).astype(a.dtype)
    return _core.sum(a**ord, **kw) ** (1.0 / ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002
    """The matrix norm of each matrix: ``"fro"``, ``"nuc"``, 1, -1, 2, -2, inf or -inf."""
    x = _inexact(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_norm needs at least two dimensions, not {x.ndim}")
    axes = (-2, -1)
    if ord == "fro":
        a = _core.abs(x)
        r = _core.sqrt(_core.sum(a * a, axis=axes))
    elif ord == "nuc":
        r = _core.sum(svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = svdvals(x)
        r = _core.max(s, axis=-1) if ord == 2 else _core.min(s, axis=-1)
    elif ord in (1, -1):
        col = _core.sum(_core.abs(x), axis=-2)
        r = _core.max(col, axis=-1) if ord == 1 else _core.min(col, axis=-1)
    elif ord in (_np.inf, -_np.inf):
        row = _core.sum(_core.abs(x), axis=-1)
        r = _core.max(row, axis=-1) if ord == _np.inf else _core.min(row, axis=-1)
    else:
        raise ValueError(f"Invalid norm order {ord!r} for matrices.")
    if keepdims:
        r = _core.expand_dims(_core.expand_dims(r, -1), -1)
    return r


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    """numpy.linalg.norm: vector norms over one axis, matrix norms over two."""
    if type(x) is _core.ndarray and x.ndim == 1 and x.dtype.kind == "f" and ord is None \
            and axis is None and not keepdims:
        # A loop's residual norm (conjugate gradients): vector_norm's graph, built without its
        # conversions and recursion (which cost more than evaluating 256 elements).
        if x.device == _CPU:
            return _core.sqrt(_core.dot(x, x))
        return _core.sqrt(_core.sum(x * x, axis=0))
    x = _inexact(x)
    if axis is None:
        if ord is None or (ord in ("fro", "f") and x.ndim == 2) or (ord == 2 and x.ndim == 1):
            r = vector_norm(x, ord=2)
            return _core.reshape(r, (1,) * x.ndim) if keepdims else r
        axis = tuple(range(x.ndim))
    if isinstance(axis, (int, _np.integer)):
        axis = (int(axis),)
    axis = tuple(axis)
    if len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order {ord!r} for vectors")
        return vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) == 2:
        a0, a1 = (ax % x.ndim for ax in axis)
        if a0 == a1:
            raise ValueError("Duplicate axes given.")
        moved = _core.moveaxis(x, (a0, a1), (-2, -1))
        r = matrix_norm(moved, ord="fro" if ord in (None, "f") else ord)
        if keepdims:
            for ax in sorted((a0, a1)):
                r = _core.expand_dims(r, ax)
        return r
    raise ValueError("Improper number of dimensions to norm.")


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):  # noqa: N803 - NumPy's name
    """The number of singular values above `tol` (default: the largest times
    ``max(m, n) * eps``, or `rtol` times the largest)."""
    a = _asarray(A)
    if a.ndim < 2:
        return _core.any(a != 0).astype(_np.int64)
    s = svdvals(a)
    if tol is None:
        if rtol is None:
            rtol = max(a.shape[-2:]) * _np.finfo(_np.dtype(s.dtype)).eps
        elif not _np.isscalar(rtol):  # one per matrix, as NumPy: against each row of s
            rtol = _core.expand_dims(_asarray(rtol, device=s.device), -1)
        tol = _core.max(s, axis=-1, keepdims=True) * rtol
    else:
        tol = _core.expand_dims(_asarray(tol), -1) if not _np.isscalar(tol) else tol
    return _core.sum(s > tol, axis=-1)


def cond(x, p=None):
    """The condition number: the ratio of the extreme singular values (p None, 2, -2), else
    ``norm(x, p) * norm(inv(x), p)``."""
    x = _asarray(x)
    if p is None or p in (2, -2):
        s = svdvals(x)
        big, small = s[..., 0], s[..., -1]
        return big / small if p != -2 else small / big
    return matrix_norm(x, ord=p) * matrix_norm(inv(x), ord=p)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along `axis` (broadcast)."""
    a, b = _asarray(x1), _asarray(x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(
            f"cross needs vectors of 3 elements along axis {axis}, not "
            f"{a.shape[axis]} and {b.shape[axis]}"
        )
    return _cross(a, b, axis=axis)


def _h(x):
    # Conjugate transpose of the matrices.
    return _core.conj(_core.swapaxes(x, -1, -2))


_NO_VALUE = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """The Moore-Penrose pseudo-inverse, from the SVD: singular values at or below
    ``rcond * max(s)`` (NumPy's defaults) count as zero."""
    a = _asarray(a)
    if rcond is not None and rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    u, s, vh = svd(a, full_matrices=False)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _np.finfo(_np.dtype(s.dtype)).eps
        else:
            rcond = rtol
    if not isinstance(rcond, (int, float)):  # one per matrix, as NumPy: against each row of s
        rcond = _core.expand_dims(_asarray(rcond, device=s.device), -1)
    cutoff = _core.max(s, axis=-1, keepdims=True) * rcond if s.shape[-1] else s
    large = s > cutoff
    s_inv = _core.where(large, 1.0 / _core.where(large, s, 1.0), 0.0)
    return _core.matmul(_h(vh) * _core.expand_dims(s_inv, -2).astype(vh.dtype), _h(u))


def lstsq(a, b, rcond=None):
    """The least-squares solution of ``a @ x = b`` (a 2-D), from the SVD, as numpy.linalg.lstsq:
    ``(x, residuals, rank, s)``; residuals are empty unless a has full column rank and m > n."""
    a = _asarray(a)
    b = _asarray(b, device=a.device) if not isinstance(b, _core.ndarray) else b
    if a.ndim != 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    is_1d = b.ndim == 1
    bm = _core.expand_dims(b, -1) if is_1d else b
    m, n = a.shape
    if bm.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    u, s, vh = svd(a, full_matrices=False)
    real_dtype = s.dtype
    if rcond is None:
        rcond = _np.finfo(_np.dtype(real_dtype)).eps * max(n, m)
    cutoff = _core.max(s) * rcond if s.shape[0] else 0.0
    large = s > cutoff
    s_inv = _core.where(large, 1.0 / _core.where(large, s, 1.0), 0.0)
    x = _core.matmul(_h(vh), _core.expand_dims(s_inv, -1).astype(u.dtype) * _core.matmul(_h(u), bm))
    rank = int(_core.sum(large))
    if rank == n and m > n:
        r = bm - _core.matmul(a, x)
        resids = _core.sum(_core.abs(r) ** 2, axis=0)
    else:
        resids = _core.zeros((0,), dtype=real_dtype, device=a.device)
    if is_1d:
        x = _core.squeeze(x, -1)
    return x, resids, rank, s


def matrix_power(a, n):
    """`a` (square matrices) raised to the integer power `n` (negative: of the inverse), by
    repeated squaring."""
    a = _asarray(a)
    if not isinstance(n, (int, _np.integer)):
        raise TypeError("exponent must be an integer")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    n = int(n)
    if n == 0:
        eye = _core.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return _core.broadcast_to(eye, a.shape) * 1
    if n < 0:
        a, n = inv(a), -n
    result = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else _core.matmul(result, base)
        n >>= 1
        if n:
            base = _core.matmul(base, base)
    return result


def multi_dot(arrays, *, out=None):
    """The product of a chain of matrices (the first may be a row vector, the last a column
    vector), evaluated in the cheapest order."""
    arrays = [_asarray(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = _core.expand_dims(arrays[0], 0)
    if last_1d:
        arrays[-1] = _core.expand_dims(arrays[-1], -1)
    for x in arrays:
        if x.ndim != 2:
            raise ValueError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    # The classic chain order dynamic program (as NumPy): cost[i][j] over dims p.
    p = [arrays[0].shape[0]] + [x.shape[1] for x in arrays]
    k = len(arrays)
    cost = [[0] * k for _ in range(k)]
    split = [[0] * k for _ in range(k)]
    for length in range(1, k):
        for i in range(k - length):
            j = i + length
            cost[i][j] = None
            for s in range(i, j):
                c = cost[i][s] + cost[s + 1][j] + p[i] * p[s + 1] * p[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, s

    def chain(i, j):
        if i == j:
            return arrays[i]
        return _core.matmul(chain(i, split[i][j]), chain(split[i][j] + 1, j))

    r = chain(0, k - 1)
    if first_1d:
        r = _core.squeeze(r, 0)
    if last_1d:
        r = _core.squeeze(r, -1)
    if out is not None:
        out[...] = r
        return out
    return r


def diagonal(x, /, *, offset=0):
    """The diagonal `offset` of each matrix (the last two axes), numpy.linalg.diagonal."""
    return _indexing.diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The sum of the diagonal `offset` of each matrix (the last two axes), numpy.linalg.trace."""
    return _linear_algebra.trace(x, offset, -2, -1, dtype=dtype)


# The products the Array API lists in linalg too: accelpy's own functions, from their chapters.
_PRODUCTS = {"matmul": _linear_algebra, "tensordot": _linear_algebra, "outer": _linear_algebra,
             "vecdot": _linear_algebra, "matrix_transpose": _manipulation}


def __getattr__(name):
    if name in _PRODUCTS:
        return getattr(_PRODUCTS[name], name)
    raise AttributeError(f"module 'accelpy.linalg' has no attribute {name!r}")
