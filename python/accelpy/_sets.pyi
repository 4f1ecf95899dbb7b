"""Type stubs of accelpy._sets (hand-written)."""

from typing import Any, NamedTuple

from ._core import ArrayLike, ndarray

class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray

class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray

class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray

def unique(ar: ArrayLike, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
           sorted: bool = True) -> Any: ...
def unique_all(x: ArrayLike) -> UniqueAllResult: ...
def unique_counts(x: ArrayLike) -> UniqueCountsResult: ...
def unique_inverse(x: ArrayLike) -> UniqueInverseResult: ...
def unique_values(x: ArrayLike) -> ndarray: ...
