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

from . import _core
from ._creation import asarray as _asarray

LinAlgError = _np.linalg.LinAlgError

__all__ = [
    "LinAlgError",
    "cholesky",
    "det",
    "eigh",
    "eigvalsh",
    "inv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
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


def __getattr__(name):
    # The products live in accelpy's namespace (other modules add them); the Array API lists
    # them in linalg too. Looked up on use, so those added later are found.
    if name in ("matmul", "tensordot", "outer", "vecdot", "trace", "diagonal", "cross",
                "matrix_transpose", "multi_dot", "matrix_power", "matrix_norm", "vector_norm",
                "norm"):
        import accelpy

        if name in accelpy.__dict__:
            return accelpy.__dict__[name]
    raise AttributeError(f"module 'accelpy.linalg' has no attribute {name!r}")
