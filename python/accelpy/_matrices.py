"""Array creation, building matrices (NumPy's reference: "Array creation routines", its
"Building matrices" part): diag, diagflat, tri, tril, triu, vander."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import _size, asarray
from ._dtypes import promote_types
from ._util import c_long

if TYPE_CHECKING:
    from ._core import ArrayLike, DeviceLike, DTypeLike


def tri(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None, *,
        device: DeviceLike | None = None) -> ndarray:
    """Ones at and below the k-th diagonal of an N x M array, zeros above (numpy.tri); lazy.
    Sizes and k past 64 bits raise NumPy's ValueError and OverflowError."""
    M = None if M is None else _size(M, "tri", "M")
    return _core.tri(_size(N, "tri", "N"), M, c_long(k), dtype, device=device)


def _tri(m, k, lower):
    m = asarray(m)
    if m.ndim == 0:
        raise TypeError("tril/triu of a 0-d array: the input needs at least one dimension")
    k = c_long(k)
    rows = m.shape[-2] if m.ndim >= 2 else m.shape[-1]  # 1-D: an (n, n) mask, as NumPy
    # The mask is a lazy generator of the matrix's shape: for 2-D inputs it fuses into the
    # where (one kernel reading m once); batches broadcast it.
    mask = _core.tri(rows, m.shape[-1], k if lower else k - 1, dtype=np.bool_, device=m.device)
    if not lower:
        mask = _core.logical_not(mask)
    return _core.where(mask, m, False if m.dtype == np.bool_ else 0)


def tril(m: ArrayLike, k: int = 0) -> ndarray:
    """The lower triangle of the last two axes (elements above diagonal k set to zero)."""
    return _tri(m, k, True)


def triu(m: ArrayLike, k: int = 0) -> ndarray:
    """The upper triangle of the last two axes (elements below diagonal k set to zero)."""
    return _tri(m, k, False)


def diag(v: ArrayLike, k: int = 0) -> ndarray:
    """The k-th diagonal of a 2-D array (a view), or a 2-D array with a 1-D array on it."""
    v = asarray(v)
    k = operator.index(k)
    if v.ndim == 2:
        return _core._diagonal(v, c_long(k), 0, 1)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = v.shape[0] + abs(k)
    fill = _core.zeros((abs(k),), dtype=v.dtype, device=v.device)
    # out[i, j] = v[i] where j - i == k >= 0, v[j] where i - j == -k > 0: v padded to n along
    # the axis that indexes it, broadcast over the other, masked by the diagonal.
    if k >= 0:
        vals = _core.concatenate([v, fill]).reshape(n, 1)
    else:
        vals = _core.concatenate([v, fill]).reshape(1, n)
    rows = _core.arange(n, device=v.device).reshape(-1, 1)
    cols = _core.arange(n, device=v.device).reshape(1, -1)
    zero = _core.zeros((), dtype=v.dtype, device=v.device)
    return _core.where(cols - rows == k, _core.broadcast_to(vals, (n, n)), zero)


def diagflat(v: ArrayLike, k: int = 0) -> ndarray:
    """A 2-D array with the flattened input on diagonal k (numpy.diagflat)."""
    return diag(asarray(v).reshape(-1), k)


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> ndarray:
    """The Vandermonde matrix of 1-D x: columns x**(N-1), ..., x**0 (reversed with
    ``increasing``), as running products like NumPy (numpy.vander)."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    dt = promote_types(x.dtype, np.int_)
    if n == 0:
        return _core.zeros((x.shape[0], 0), dtype=dt, device=x.device)
    cols = _core.broadcast_to(_core.reshape(x.astype(dt), (-1, 1)), (x.shape[0], n - 1))
    ones = _core.ones((x.shape[0], 1), dtype=dt, device=x.device)
    v = _core.concatenate([ones, _core.cumprod(cols, axis=1)], axis=1)
    return v if increasing else v[:, ::-1]
