"""Indexing routines (NumPy's reference: "Indexing routines"): index arrays and index arithmetic
(ix_, the tril/triu/diag index families, unravel_index, ravel_multi_index; indices is array
creation's), indexing-like operations (choose, select, diagonal, and the core's take,
take_along_axis, compress) and writing into arrays (fill_diagonal, putmask, place, and the
core's put, put_along_axis), composed from aranges, gathers, where and setitem on the arrays'
device."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core, _structured_functions

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    compress,
    ndarray,
    put,
    put_along_axis,
)
from ._creation import (
    _size,
    asarray,
    indices,  # noqa: F401 - NumPy lists it here; fromfunction needs it
)
from ._dtypes import promoted_dtype
from ._rearranging import resize
from ._util import c_long

if TYPE_CHECKING:
    from ._core import ArrayLike


def take_along_axis(arr: ArrayLike, indices: ArrayLike, axis: int | None = -1) -> ndarray:
    """Values of `arr` at `indices` along `axis` (numpy.take_along_axis; the last axis by
    default, as NumPy 2.3 and the Array API)."""
    return _core.take_along_axis(arr, indices, axis)


__all__ = [
    "choose",
    "diag_indices",
    "diag_indices_from",
    "diagonal",
    "fill_diagonal",
    "indices",
    "ix_",
    "mask_indices",
    "place",
    "putmask",
    "ravel_multi_index",
    "select",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
    "unravel_index",
    "take",
    "take_along_axis",
    "put",
    "put_along_axis",
    "compress",
]

# Records (structured arrays) go to _structured_functions once the core refuses them.
take = _structured_functions.with_records(_structured_functions.take, __name__)(_core.take)


def _device(device=None):
    return device if device is not None else _core.get_default_device()


def mask_indices(n: int, mask_func: Any, k: Any = 0) -> tuple[ndarray, ...]:
    """The indices of the nonzero entries of ``mask_func(ones((n, n)), k)`` (numpy.mask_indices;
    mask_func is triu, tril or any function of that form)."""
    m = _core.ones((n, n), dtype=np.int64, device=_device())
    return _core.nonzero(mask_func(m, k) != 0)


def ix_(*args: ArrayLike) -> tuple[ndarray, ...]:
    """Open-mesh index arrays from 1-D sequences (numpy.ix_): the k-th has its values along
    axis k and length 1 elsewhere; boolean ones become the positions of their true values."""
    out = []
    nd = len(args)
    for k, arg in enumerate(args):
        a = arg if isinstance(arg, ndarray) else asarray(arg)
        if isinstance(arg, (list, tuple)) and len(arg) == 0:
            a = a.astype(np.intp)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.dtype == np.bool_:
            a = _core.nonzero(a)[0]
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _tri_indices(n, k, m, lower, device=None):
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    mask = _core.tri(n, m, k if lower else k - 1, dtype=np.bool_, device=_device(device))
    return _core.nonzero(mask if lower else _core.logical_not(mask))


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[ndarray, ...]:
    """(rows, columns) of the lower triangle of an (n, m) array, on and below diagonal k
    (numpy.tril_indices)."""
    return _tri_indices(n, k, m, True)


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[ndarray, ...]:
    """(rows, columns) of the upper triangle of an (n, m) array, on and above diagonal k
    (numpy.triu_indices)."""
    return _tri_indices(n, k, m, False)


def _two_d(arr):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[ndarray, ...]:
    """tril_indices for the shape of 2-D `arr`, on its device (numpy.tril_indices_from)."""
    arr = _two_d(arr)
    return _tri_indices(arr.shape[0], k, arr.shape[1], True, arr.device)


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[ndarray, ...]:
    """triu_indices for the shape of 2-D `arr`, on its device (numpy.triu_indices_from)."""
    arr = _two_d(arr)
    return _tri_indices(arr.shape[0], k, arr.shape[1], False, arr.device)


def _diag_indices(n, ndim, device):
    idx = _core.arange(operator.index(n), device=_device(device))
    return (idx,) * ndim


def diag_indices(n: int, ndim: int = 2) -> tuple[ndarray, ...]:
    """The indices of the main diagonal of an n x ... x n array of `ndim` dimensions
    (numpy.diag_indices): `ndim` copies of arange(n)."""
    return _diag_indices(n, ndim, None)


def diag_indices_from(arr: ArrayLike) -> tuple[ndarray, ...]:
    """diag_indices for `arr`, whose dimensions must all be equal (numpy.diag_indices_from)."""
    arr = asarray(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return _diag_indices(arr.shape[0], arr.ndim, arr.device)


def _integer_indices(a, what):
    try:
        a = asarray(a)
    except OverflowError:  # ints past 64 bits: NumPy's object array is no integer array
        raise TypeError(f"only int {what} permitted") from None
    if a.dtype.kind not in "iu":
        raise TypeError(f"only int {what} permitted")
    return a


def unravel_index(indices: ArrayLike, shape: int | Sequence[int],
                  order: str = "C") -> tuple[ndarray, ...]:
    """The multi-indices into an array of `shape` of flat `indices` (numpy.unravel_index): a
    tuple of intp arrays of the indices' shape."""
    idx = _integer_indices(indices, "indices")
    dims = (_size(shape, "unravel_index", "shape"),) if np.ndim(shape) == 0 else tuple(
        _size(d, "unravel_index", "shape") for d in shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    size = int(np.prod(dims, dtype=np.int64))
    if idx.size and (bool(_core.any(idx < 0)) or bool(_core.any(idx >= size))):
        bad = int(_core.min(idx)) if bool(_core.any(idx < 0)) else int(_core.max(idx))
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    rest = idx.astype(np.intp)
    out = [None] * len(dims)
    order_dims = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    for i in order_dims:
        out[i] = rest % dims[i] if dims[i] else rest
        rest = rest // dims[i] if dims[i] else rest
    return tuple(out)


def _in_range(idx, n, mode, what):
    """Integer positions `idx` brought into [0, n) by NumPy's index mode: "raise" (ValueError
    naming `what`), "wrap" or "clip"."""
    if mode == "raise":
        if idx.size and (bool(_core.any(idx < 0)) or bool(_core.any(idx >= n))):
            raise ValueError(f"invalid entry in {what} array")
        return idx
    if mode == "wrap":
        return idx % n
    if mode == "clip":
        return _core.clip(idx, 0, n - 1)
    raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def ravel_multi_index(multi_index: Sequence[ArrayLike], dims: Sequence[int],
                      mode: str | Sequence[str] = "raise", order: str = "C") -> ndarray:
    """The flat indices into an array of shape `dims` of the multi-index arrays
    (numpy.ravel_multi_index); mode 'raise', 'wrap' or 'clip' (one or one per dimension)."""
    dims = tuple(_size(d, "ravel_multi_index", "dims") for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must be a string or a sequence of one mode per dimension")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    parts = [_integer_indices(m, "indices") for m in multi_index]
    parts = _core.broadcast_arrays(*[p.astype(np.intp) for p in parts])
    strides = [1] * len(dims)
    axes = range(len(dims) - 2, -1, -1) if order == "C" else range(1, len(dims))
    for i in axes:
        j = i + 1 if order == "C" else i - 1
        strides[i] = strides[j] * dims[j]
    total = None
    for p, d, m, s in zip(parts, dims, modes, strides, strict=True):
        term = _in_range(p, d, m, "coordinates") * s
        total = term if total is None else total + term
    return total


def fill_diagonal(a: ndarray, val: ArrayLike, wrap: bool = False) -> None:
    """Writes `val` (repeated as needed) on the main diagonal of `a` in place
    (numpy.fill_diagonal); with `wrap`, a tall 2-D matrix's diagonal restarts every n + 1 rows."""
    if not isinstance(a, ndarray):
        raise TypeError("fill_diagonal needs an accelpy ndarray to write into")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(a.shape[:-1]).sum())
        end = None
    stop = a.size if end is None else min(end, a.size)
    positions = _core.arange(0, stop, step, dtype=np.intp, device=a.device)
    if positions.size:
        _core.put(a, positions, asarray(val, device=a.device).astype(a.dtype))


def putmask(a: ndarray, /, mask: ArrayLike, values: ArrayLike) -> None:
    """Sets a.flat[i] = values.flat[i % len(values)] in place wherever mask.flat[i] is true
    (numpy.putmask)."""
    if not isinstance(a, ndarray):
        raise TypeError(f"putmask: first argument must be an accelpy.ndarray, not "
                        f"{type(a).__name__}")
    mask = asarray(mask, device=a.device)
    if mask.shape != a.shape:
        raise ValueError("putmask: mask and data must be the same size")
    scalar = isinstance(values, (bool, int, float, complex))
    values = asarray(values, device=a.device)
    if not scalar and not np.can_cast(values.dtype, a.dtype, "safe"):
        raise TypeError(f"Cannot cast array data from {values.dtype!r} to {a.dtype!r} according "
                        "to the rule 'safe'")
    if values.size == 0:
        return
    a[...] = _core.where(mask.astype(np.bool_), resize(values, a.shape).astype(a.dtype), a)


def place(arr: ndarray, mask: ArrayLike, vals: ArrayLike) -> None:
    """Writes `vals` in order (repeated as needed) into the positions of `arr` where `mask` is
    true, in place (numpy.place)."""
    if not isinstance(arr, ndarray):
        raise TypeError(f"argument 1 must be accelpy.ndarray, not {type(arr).__name__}")
    mask = asarray(mask, device=arr.device).astype(np.bool_)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    mask = mask.reshape(arr.shape)
    count = int(_core.count_nonzero(mask))
    scalar = isinstance(vals, (bool, int, float, complex))
    vals = asarray(vals, device=arr.device)
    if not scalar and not np.can_cast(vals.dtype, arr.dtype, "safe"):
        raise TypeError(f"Cannot cast array data from {vals.dtype!r} to {arr.dtype!r} according "
                        "to the rule 'safe'")
    if count == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    arr[mask] = resize(vals, (count,)).astype(arr.dtype)


def select(condlist: Sequence[ArrayLike], choicelist: Sequence[ArrayLike],
           default: ArrayLike = 0) -> ndarray:
    """For each element, the value of the first choice whose condition holds, else `default`
    (numpy.select); one fused where chain."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if isinstance(c, (bool, int, float, complex)) else asarray(c)
               for c in choicelist]
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    dtype = promoted_dtype(*choices, default)
    result = default
    for cond, choice in zip(reversed(conds), reversed(choices), strict=True):
        result = _core.where(cond, choice, result)
    # Every condition and choice went through a where: the result has their broadcast shape.
    return asarray(result).astype(dtype, copy=False)


def choose(a: ArrayLike, choices: Sequence[ArrayLike], out: ndarray | None = None,
           mode: str = "raise") -> ndarray:
    """For each element, the entry of choices[a] at that position (numpy.choose): the index
    array and the choices broadcast together; mode 'raise', 'wrap' or 'clip' for indices
    outside [0, len(choices))."""
    try:
        a = asarray(a)
    except OverflowError:  # ints past 64 bits: NumPy's object array does not cast safely
        a = np.empty(0, object)
    if a.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to dtype('int64') according "
                        "to the rule 'safe'")
    choices = [asarray(c, device=a.device) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    a = _in_range(a.astype(np.intp), n, mode, "choice")
    parts = _core.broadcast_arrays(a, *choices)
    stacked = _core.stack(parts[1:])
    result = _core.take_along_axis(stacked, parts[0].reshape((1,) + parts[0].shape), axis=0)
    result = result.reshape(parts[0].shape)
    if out is not None:
        out[...] = result
        return out
    return result


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
    """The diagonal `offset` of axes axis1 and axis2, as the last axis of a read-only view."""
    return _core._diagonal(asarray(a), c_long(offset), c_long(axis1), c_long(axis2))
