"""Array manipulation, first half (NumPy's reference: "Array manipulation routines"): basic
operations (shape, size, ndim, copyto), changing the number of dimensions and kind (atleast_nd,
broadcast_shapes, require, asfortranarray, asarray_chkfinite), transpose-like operations
(rollaxis), joining (the stack family, block) and splitting (split, array_split, hsplit,
vsplit, dsplit); the core's reshape, transpose, concatenate, stack, ... are re-exported here.
Tiling, adding and removing elements and rearranging are in _rearranging."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core, _structured_functions

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    broadcast_arrays,
    expand_dims,
    matrix_transpose,
    moveaxis,
    ndarray,
    ravel,
    squeeze,
    swapaxes,
    transpose,
)
from ._creation import asarray
from ._interop import shares_memory
from ._rearranging import along_axis, normalize_axis
from ._structured_functions import with_records
from ._util import normalize_axes, prepend_axes

if TYPE_CHECKING:
    from ._core import ArrayLike, ShapeLike


def reshape(a: ArrayLike, /, shape: ShapeLike, order: str = "C", *,
            copy: bool | None = None) -> ndarray:
    """`a` with a new shape (numpy.reshape; the Array API's copy): a view when the layout allows,
    else a copy; order 'F' reads and writes the elements with the first index fastest;
    copy=True always copies, copy=False raises ValueError where a view cannot be made (a
    deferred `a` is computed first to tell)."""
    if copy:
        return _core.reshape(asarray(a).copy(), shape, order)
    out = _core.reshape(a, shape, order)
    if copy is False and out.size and not shares_memory(a, out):
        raise ValueError("reshape: copy=False, but this shape needs a copy of the data")
    return out


__all__ = [
    "array_split",
    "asarray_chkfinite",
    "asfortranarray",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "block",
    "broadcast_shapes",
    "column_stack",
    "copyto",
    "dsplit",
    "dstack",
    "hsplit",
    "hstack",
    "ndim",
    "require",
    "rollaxis",
    "shape",
    "size",
    "split",
    "vsplit",
    "vstack",
    "reshape",
    "ravel",
    "transpose",
    "swapaxes",
    "moveaxis",
    "squeeze",
    "expand_dims",
    "broadcast_to",
    "broadcast_arrays",
    "concat",
    "concatenate",
    "stack",
    "matrix_transpose",
]

# Records (structured arrays) go to _structured_functions once the core refuses them.
_core_concatenate = _core.concatenate


def concatenate(arrays: Sequence[ArrayLike], axis: int | None = 0) -> ndarray:
    """Joins arrays along an existing axis (numpy.concatenate; axis=None: flattened first);
    records (structured arrays) field by field, NumPy's promotion of their dtypes."""
    try:
        return _core_concatenate(arrays, axis)
    except TypeError:
        if not isinstance(arrays, (list, tuple)) or not any(
            _structured_functions._is_records(a) for a in arrays
        ):
            raise
    return _structured_functions.concatenate(arrays, axis)


concat = concatenate  # the Array API's name, one function as NumPy's

stack = with_records(_structured_functions.stack, __name__)(_core.stack)


def broadcast_to(array: Any, shape: Any, subok: bool = False) -> ndarray:
    """A read-only view of `array` broadcast to `shape` (numpy.broadcast_to). `subok` is
    NumPy's; accelpy's arrays have no subclasses to pass through."""
    return _core.broadcast_to(array, shape)


def _one_or_tuple(results):
    return results[0] if len(results) == 1 else tuple(results)


def atleast_1d(*arys: ArrayLike) -> Any:
    """The inputs as arrays of at least one dimension (numpy.atleast_1d): a 0-d array becomes
    shape (1,). One array for one input, a tuple for several."""
    out = []
    for a in arys:
        a = asarray(a)
        out.append(a.reshape(1) if a.ndim == 0 else a)
    return _one_or_tuple(out)


def atleast_2d(*arys: ArrayLike) -> Any:
    """The inputs as arrays of at least two dimensions (numpy.atleast_2d): shape (N,) becomes
    (1, N), a 0-d array (1, 1)."""
    out = []
    for a in arys:
        a = asarray(a)
        # As NumPy: a reshape of a 0-d array, a new axis (stride 0) in front of a 1-d one.
        out.append(a.reshape(1, 1) if a.ndim == 0 else a[None, :] if a.ndim == 1 else a)
    return _one_or_tuple(out)


def atleast_3d(*arys: ArrayLike) -> Any:
    """The inputs as arrays of at least three dimensions (numpy.atleast_3d): shape (N,) becomes
    (1, N, 1), (M, N) becomes (M, N, 1), a 0-d array (1, 1, 1)."""
    out = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:  # new axes by indexing (stride 0), as NumPy's
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        out.append(a)
    return _one_or_tuple(out)


def _sequence(tup):
    """NumPy's rule: anything indexable is a sequence of arrays (an array is its rows:
    ``dstack(mgrid[...])``); generators, iterators and sets are refused."""
    if isinstance(tup, (list, tuple)):
        return tup
    if not hasattr(tup, "__getitem__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or '
                        "tuple.")
    return list(tup)


def _concatenate(arrays, axis, dtype=None, casting="same_kind"):
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if dtype is not None:
        dtype = np.dtype(dtype)
        for a in arrays:
            if not np.can_cast(a.dtype, dtype, casting):
                raise TypeError(f"Cannot cast array data from {a.dtype!r} to {dtype!r} "
                                f"according to the rule {casting!r}")
        arrays = [a.astype(dtype) for a in arrays]
    elif casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         f"'unsafe' (got {casting!r})")
    return concatenate(list(arrays), axis=axis)


def hstack(tup: Sequence[ArrayLike], *, dtype: Any = None, casting: str = "same_kind") -> ndarray:
    """Joins arrays column-wise (numpy.hstack): along axis 1, or axis 0 when all are 1-D."""
    arrs = [atleast_1d(a) for a in _sequence(tup)]
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return _concatenate(arrs, axis, dtype, casting)


def vstack(tup: Sequence[ArrayLike], *, dtype: Any = None, casting: str = "same_kind") -> ndarray:
    """Joins arrays row-wise (numpy.vstack): 1-D arrays become rows."""
    return _concatenate([atleast_2d(a) for a in _sequence(tup)], 0, dtype, casting)


def dstack(tup: Sequence[ArrayLike]) -> ndarray:
    """Joins arrays along the third axis (numpy.dstack), after atleast_3d."""
    return _concatenate([atleast_3d(a) for a in _sequence(tup)], 2)


def column_stack(tup: Sequence[ArrayLike]) -> ndarray:
    """Joins 1-D arrays as columns (and 2-D arrays as they are) into a 2-D array
    (numpy.column_stack)."""
    arrs = []
    for a in _sequence(tup):
        a = asarray(a)
        arrs.append(a.reshape(-1, 1) if a.ndim < 2 else a)
    return _concatenate(arrs, 1)


def _block_depths(arrays, index):
    """(list depth, largest leaf ndim) of a nested list of blocks, checking it is regular."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{index} is a tuple. Only lists can be used to arrange blocks, and "
                        "np.block does not allow implicit conversion from tuple to ndarray.")
    if isinstance(arrays, list):
        if not arrays:
            raise ValueError(f"List at {index} cannot be empty")
        depths = [_block_depths(a, f"{index}[{i}]") for i, a in enumerate(arrays)]
        first = depths[0][0]
        for i, (d, _) in enumerate(depths):
            if d != first:
                raise ValueError(f"List depths are mismatched. First element was at depth "
                                 f"{first + 1}, but there is an element at depth {d + 1} "
                                 f"({index}[{i}])")
        return first + 1, max(nd for _, nd in depths)
    return 0, asarray(arrays).ndim


def _block(arrays, depth, ndim):
    if depth == 0:
        return prepend_axes(asarray(arrays), ndim)
    parts = [_block(a, depth - 1, ndim) for a in arrays]
    return _core.concatenate(parts, axis=-depth)


def block(arrays: Any) -> ndarray:
    """An array assembled from nested lists of blocks (numpy.block): the innermost lists join
    along the last axis, the next ones along the second-to-last, and so on."""
    depth, ndim = _block_depths(arrays, "arrays")
    if depth == 0:
        return asarray(arrays).copy()
    return _block(arrays, depth, max(depth, ndim))


def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> ndarray:
    """`a` with `axis` moved to before position `start` (numpy.rollaxis; moveaxis is the newer
    spelling); a view."""
    a = asarray(a)
    n = a.ndim
    axis = normalize_axis(axis, n)
    msg = "'%s' arg requires %d <= %s < %d, but %d was passed in"
    if not -n <= start <= n:
        raise np.exceptions.AxisError(msg % ("start", -n, "start", n + 1, start))
    if start < 0:
        start += n
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return _core.transpose(a, tuple(axes))


def shape(a: ArrayLike) -> tuple[int, ...]:
    """The shape of an array or array-like (numpy.shape)."""
    return a.shape if isinstance(a, ndarray) else np.shape(a)


def size(a: ArrayLike, axis: int | Sequence[int] | None = None) -> int:
    """The number of elements, in all or along one axis (numpy.size)."""
    if not isinstance(a, ndarray):
        return np.size(a, axis)
    if axis is None:
        return a.size
    return int(np.prod([a.shape[ax] for ax in normalize_axes(axis, a.ndim)], dtype=np.int64))


def ndim(a: ArrayLike) -> int:
    """The number of dimensions of an array or array-like (numpy.ndim)."""
    return a.ndim if isinstance(a, ndarray) else np.ndim(a)


def broadcast_shapes(*args: int | Sequence[int]) -> tuple[int, ...]:
    """The shape the given shapes broadcast to (numpy.broadcast_shapes)."""
    return np.broadcast_shapes(*args)


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "A": "A", "ALIGNED": "A",
                 "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a: ArrayLike, dtype: Any = None, requirements: str | Sequence[str] | None = None, *,
            like: Any = None) -> ndarray:
    """`a` as an accelpy array of `dtype` meeting `requirements` (numpy.require): 'C'
    (contiguous), 'A' (aligned), 'W' (writeable), 'O' (own data: a copy), 'E'; 'F' is not
    supported."""
    if like is not None:
        raise TypeError("require: the 'like' argument is not supported")
    reqs = set()
    if requirements:
        for r in [requirements] if isinstance(requirements, str) else requirements:
            key = r.upper()
            if key in ("F", "F_CONTIGUOUS", "FORTRAN"):
                raise ValueError("require: Fortran order ('F') is not supported; accelpy arrays "
                                 "are C-ordered")
            if key not in _REQUIREMENTS:
                raise KeyError(f"{r!r} is not a valid requirement")
            reqs.add(_REQUIREMENTS[key])
    arr = asarray(a, dtype=dtype)
    if "O" in reqs:
        return arr.copy()
    if "C" in reqs or "W" in reqs:
        flags = arr.flags
        if ("C" in reqs and not flags.c_contiguous) or ("W" in reqs and not flags.writeable):
            return arr.copy()
    return arr


def asfortranarray(a: ArrayLike, dtype: Any = None, *, like: Any = None) -> ndarray:
    """`a` laid out in Fortran (column-major) order (numpy.asfortranarray): a copy that owns its
    data, or `a` itself when it is so already."""
    if like is not None:
        raise TypeError("asfortranarray: the 'like' argument is not supported")
    arr = asarray(a, dtype=dtype)
    if arr.ndim < 2 or arr.flags.f_contiguous:
        return arr
    return arr.astype(arr.dtype, order="F")


def asarray_chkfinite(a: ArrayLike, dtype: Any = None, order: str | None = None) -> ndarray:
    """asarray(a), raising ValueError when `a` holds an inf or a NaN (numpy.asarray_chkfinite);
    this evaluates the check."""
    arr = asarray(a, dtype=dtype)
    if arr.dtype.kind in "fc" and not bool(_core.all(_core.isfinite(arr))):
        raise ValueError("asarray_chkfinite: array must not contain infs or NaNs")
    return arr


def copyto(dst: ndarray, src: ArrayLike, casting: str = "same_kind",
           where: ArrayLike | bool = True) -> None:
    """Copies `src` (broadcast) into `dst` in place where `where` is true (numpy.copyto);
    `casting` limits the dtype conversion."""
    if not isinstance(dst, ndarray):
        raise TypeError(f"copyto() argument 1 must be accelpy.ndarray, not "
                        f"{type(dst).__name__}")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         f"'unsafe' (got {casting!r})")
    scalar = isinstance(src, (bool, int, float, complex)) and not isinstance(src, np.generic)
    if not scalar:
        src = asarray(src, device=dst.device)
    _can_cast_value(src, dst.dtype, casting)
    value = asarray(src, device=dst.device).astype(dst.dtype)
    value = _core.broadcast_to(value, dst.shape)
    if where is True:
        dst[...] = value
        return
    mask = asarray(where, device=dst.device)
    if mask.dtype != np.bool_:
        raise TypeError(f"Cannot cast array data from {mask.dtype!r} to dtype('bool') "
                        "according to the rule 'safe'")
    dst[...] = _core.where(_core.broadcast_to(mask, dst.shape), value, dst)


def array_split(ary: ArrayLike, indices_or_sections: int | Sequence[int],
                axis: int = 0) -> list[ndarray]:
    """Views of `ary` split along `axis` into sections (sizes may differ by one) or at indices."""
    ary = asarray(ary)
    axis = normalize_axis(axis, ary.ndim)
    n = ary.shape[axis]
    try:
        bounds = [0] + [operator.index(i) for i in indices_or_sections] + [n]
    except TypeError:
        sections = operator.index(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extra = divmod(n, sections)
        sizes = [0] + extra * [each + 1] + (sections - extra) * [each]
        bounds = np.cumsum(sizes).tolist()
    return [ary[along_axis(ary.ndim, axis, slice(lo, hi))]
            for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def split(ary: ArrayLike, indices_or_sections: int | Sequence[int], axis: int = 0) -> list[ndarray]:
    """As array_split, but an integer number of sections must divide the axis exactly."""
    ary = asarray(ary)
    if isinstance(indices_or_sections, (int, np.integer)):
        n = ary.shape[normalize_axis(axis, ary.ndim)]
        if n % indices_or_sections:  # ZeroDivisionError for 0 sections, as NumPy
            raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int]) -> list[ndarray]:
    """split along axis 1 (axis 0 for 1-D arrays)."""
    ary = asarray(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int]) -> list[ndarray]:
    """split along axis 0, for arrays of at least two dimensions."""
    ary = asarray(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int]) -> list[ndarray]:
    """split along axis 2, for arrays of at least three dimensions."""
    ary = asarray(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def _can_cast_value(src, dtype, casting):
    if isinstance(src, (bool, int, float, complex)) and not isinstance(src, np.generic):
        value = np.asarray(src)
        if isinstance(src, int) and not isinstance(src, bool) and dtype.kind in "iu":
            info = np.iinfo(dtype)
            if not info.min <= src <= info.max:
                raise OverflowError(f"Python integer {src} out of bounds for {dtype}")
        if not np.can_cast(value.dtype, dtype, casting) and not (
                casting == "same_kind" and np.can_cast(np.min_scalar_type(src), dtype, casting)):
            raise TypeError(f"Cannot cast scalar from {value.dtype!r} to {dtype!r} according to "
                            f"the rule {casting!r}")
        return
    if not np.can_cast(src.dtype, dtype, casting):
        raise TypeError(f"Cannot cast array data from {src.dtype!r} to {dtype!r} according to "
                        f"the rule {casting!r}")
