"""Sorting, searching and counting (NumPy's reference: "Sorting, searching, and counting"):
lexsort and sort_complex; the core's sort, argsort, partition, argmax, nonzero, where,
searchsorted, count_nonzero, ... are re-exported here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from . import _core, _huge_ints, _structured_functions
from ._core import (  # noqa: F401
    argmax,
    argmin,
    argpartition,
    argwhere,
    count_nonzero,
    extract,
    flatnonzero,
    ndarray,
    nonzero,
    partition,
)

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._creation import asarray
from ._signatures import NO_VALUE
from ._util import is_complex_dtype

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "lexsort",
    "sort_complex",
    "sort",
    "argsort",
    "partition",
    "argpartition",
    "argmax",
    "argmin",
    "argwhere",
    "nonzero",
    "flatnonzero",
    "where",
    "searchsorted",
    "extract",
    "count_nonzero",
]

# Records (structured arrays) go to _structured_functions once the core refuses them (its
# sort/argsort refuse order= with ValueError). Explicit signatures: *args forwarding costs
# 0.06 us a call more (decisions.md D88).
_core_sort, _core_argsort, _core_where = _core.sort, _core.argsort, _core.where
_NO = NO_VALUE  # x and y not given: numpy.where's <no value>
_core_searchsorted = _core.searchsorted


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left", sorter: Any = None) -> ndarray:
    """Indices where `v` would be inserted into the sorted 1-D `a` to keep it sorted
    (numpy.searchsorted; NaN sorts last). Python ints past the array's integer type go first or
    last, as in NumPy."""
    try:
        return _core_searchsorted(a, v, side, sorter)
    except OverflowError:
        out = _huge_ints.searchsorted(_core_searchsorted, asarray, a, v, side, sorter)
        if out is None:
            raise
        return out


def sort(a: ArrayLike, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
         stable: bool | None = None, descending: bool = False) -> ndarray:
    """A sorted copy of `a` (numpy.sort); records by the fields of `order`, then the rest."""
    try:
        if stable is None and not descending:  # passing keywords costs 0.05 us
            return _core_sort(a, axis, kind, order)
        return _core_sort(a, axis, kind, order, stable=stable, descending=descending)
    except (TypeError, ValueError):
        if not _structured_functions._is_records(a):
            raise
    return _structured_functions.sort(a, axis, kind, order, stable=stable, descending=descending)


def argsort(a: ArrayLike, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
            stable: bool | None = None, descending: bool = False) -> ndarray:
    """The indices that sort `a` (numpy.argsort); records by the fields of `order`, then the
    rest (stable)."""
    try:
        if stable is None and not descending:  # passing keywords costs 0.05 us
            return _core_argsort(a, axis, kind, order)
        return _core_argsort(a, axis, kind, order, stable=stable, descending=descending)
    except (TypeError, ValueError):
        if not _structured_functions._is_records(a):
            raise
    return _structured_functions.argsort(a, axis, kind, order, stable=stable, descending=descending)


@overload
def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike) -> ndarray: ...
@overload
def where(condition: ArrayLike) -> tuple[ndarray, ...]: ...
def where(condition: ArrayLike, x: Any = _NO, y: Any = _NO) -> Any:
    """x where `condition` holds, else y (numpy.where), broadcast; records field by field.
    With the condition alone, the indices where it holds (nonzero)."""
    if y is _NO:  # the core's own error for x alone
        return _core_where(condition) if x is _NO else _core_where(condition, x)
    if x is _NO:
        raise ValueError("either both or neither of x and y should be given")
    try:
        return _core_where(condition, x, y)
    except TypeError:
        if not (_structured_functions._is_records(x) or _structured_functions._is_records(y)):
            raise
    return _structured_functions.where(condition, x, y)



def lexsort(keys: Sequence[ArrayLike] | ArrayLike, axis: int = -1) -> ndarray:
    """Indices that sort by several keys, the last key primary (numpy.lexsort): one stable
    argsort per key, from the first (least significant) key to the last."""
    if isinstance(keys, _core.ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim > 1 else [keys]
    keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if not shape:
        raise np.exceptions.AxisError(axis, 0)
    perm = _core.argsort(keys[0], axis=axis)
    for k in keys[1:]:
        in_order = _core.take_along_axis(k, perm, axis=axis)
        perm = _core.take_along_axis(perm, _core.argsort(in_order, axis=axis), axis=axis)
    return perm


def sort_complex(a: ArrayLike) -> ndarray:
    """a sorted by real part, then imaginary part, as complex (numpy.sort_complex)."""
    a = asarray(a)
    b = _core.sort(a)
    if is_complex_dtype(b.dtype):
        return b
    return b.astype(np.complex64 if np.dtype(b.dtype).char in "bhBH" else np.complex128)
