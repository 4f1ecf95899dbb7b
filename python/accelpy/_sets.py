"""numpy.unique and the Array API's unique_* functions, over the core's unique."""

from typing import NamedTuple

from . import _core


class UniqueAllResult(NamedTuple):
    values: "_core.ndarray"
    indices: "_core.ndarray"
    inverse_indices: "_core.ndarray"
    counts: "_core.ndarray"


class UniqueCountsResult(NamedTuple):
    values: "_core.ndarray"
    counts: "_core.ndarray"


class UniqueInverseResult(NamedTuple):
    values: "_core.ndarray"
    inverse_indices: "_core.ndarray"


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """The sorted unique elements of the flattened array (numpy.unique), optionally with the
    index of each one's first occurrence, the inverse (input's shape) and the counts. With
    `axis`, the unique slices along it in lexicographic order (a slice holding a NaN is
    distinct; the inverse has one entry per slice)."""
    return _core._unique(ar, return_index, return_inverse, return_counts, axis,
                         equal_nan=equal_nan, sorted=sorted)


def unique_all(x):
    """Unique values, first indices, inverse indices and counts (Array API; NaNs distinct)."""
    return UniqueAllResult(*_core._unique(x, True, True, True, equal_nan=False))


def unique_counts(x):
    """Unique values and their counts (Array API; NaNs distinct)."""
    return UniqueCountsResult(*_core._unique(x, False, False, True, equal_nan=False))


def unique_inverse(x):
    """Unique values and the inverse indices, of x's shape (Array API; NaNs distinct)."""
    return UniqueInverseResult(*_core._unique(x, False, True, False, equal_nan=False))


def unique_values(x):
    """The unique values (Array API; NaNs distinct)."""
    return _core._unique(x, equal_nan=False)
