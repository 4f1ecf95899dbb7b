"""Sorting, searching and counting (NumPy's reference: "Sorting, searching, and counting"):
lexsort and sort_complex; the core's sort, argsort, partition, argmax, nonzero, where,
searchsorted, count_nonzero, ... are re-exported here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from . import _core, _structured_functions
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
    searchsorted,
)

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._creation import asarray
from ._structured_functions import with_records
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

# Records (structured arrays) go to _structured_functions once the core refuses them.
sort = with_records(_structured_functions.sort, __name__)(_core.sort)
argsort = with_records(_structured_functions.argsort, __name__)(_core.argsort)
where = with_records(_structured_functions.where, __name__)(_core.where)



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
