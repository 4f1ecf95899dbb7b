"""Set routines (NumPy's reference: "Set routines"): numpy.unique, the Array API's unique_*
functions over the core's unique, and setxor1d; the core's isin, intersect1d, union1d and
setdiff1d are re-exported here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from . import _core, _structured_functions

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    intersect1d,
    isin,
    ndarray,
    setdiff1d,
    union1d,
)
from ._creation import asarray

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "setxor1d",
    "unique",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "isin",
    "intersect1d",
    "union1d",
    "setdiff1d",
]


class UniqueAllResult(NamedTuple):
    values: _core.ndarray
    indices: _core.ndarray
    inverse_indices: _core.ndarray
    counts: _core.ndarray


class UniqueCountsResult(NamedTuple):
    values: _core.ndarray
    counts: _core.ndarray


class UniqueInverseResult(NamedTuple):
    values: _core.ndarray
    inverse_indices: _core.ndarray


def unique(ar: ArrayLike, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
           sorted: bool = True) -> Any:
    """The sorted unique elements of the flattened array (numpy.unique), optionally with the
    index of each one's first occurrence, the inverse (input's shape) and the counts. With
    `axis`, the unique slices along it in lexicographic order (a slice holding a NaN is
    distinct; the inverse has one entry per slice)."""
    try:
        return _core._unique(ar, return_index, return_inverse, return_counts, axis,
                             equal_nan=equal_nan, sorted=sorted)
    except TypeError:
        if not _structured_functions._is_records(ar):
            raise
    return _structured_functions.unique(ar, return_index, return_inverse, return_counts, axis,
                                        equal_nan=equal_nan, sorted=sorted)


def unique_all(x: ArrayLike) -> UniqueAllResult:
    """Unique values, first indices, inverse indices and counts (Array API; NaNs distinct)."""
    return UniqueAllResult(*_core._unique(x, True, True, True, equal_nan=False))


def unique_counts(x: ArrayLike) -> UniqueCountsResult:
    """Unique values and their counts (Array API; NaNs distinct)."""
    return UniqueCountsResult(*_core._unique(x, False, False, True, equal_nan=False))


def unique_inverse(x: ArrayLike) -> UniqueInverseResult:
    """Unique values and the inverse indices, of x's shape (Array API; NaNs distinct)."""
    return UniqueInverseResult(*_core._unique(x, False, True, False, equal_nan=False))


def unique_values(x: ArrayLike) -> ndarray:
    """The unique values (Array API; NaNs distinct)."""
    return _core._unique(x, equal_nan=False)


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> ndarray:
    """The sorted values in exactly one of the two arrays (numpy.setxor1d)."""
    a1 = asarray(ar1)
    a2 = asarray(ar2, device=a1.device)
    if not assume_unique:
        a1, a2 = unique(a1), unique(a2)
    aux = _core.sort(_core.concatenate([a1.reshape(-1), a2.reshape(-1)], axis=0))
    if aux.size == 0:
        return aux
    edge = _core.ones((1,), dtype=np.bool_, device=aux.device)
    flag = _core.concatenate([edge, aux[1:] != aux[:-1], edge], axis=0)
    return aux[_core.logical_and(flag[1:], flag[:-1])]
