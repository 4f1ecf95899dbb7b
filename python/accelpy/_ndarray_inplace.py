"""The ndarray members that change an array object in place or walk it flat: assignable
``shape``, ``resize`` and ``flat``, with NumPy's rules.

NumPy changes an array object's metadata; here the object is made a view of the new layout
(``_become``), which other views of the same memory keep sharing. A shape that needs a copy
raises NumPy's AttributeError; ``resize`` refuses, as NumPy's refcheck does, an array whose
memory other arrays (views, pending work) or other Python names hold.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import arange, asarray, zeros
from ._indexing import unravel_index
from ._manipulation import concatenate
from ._rearranging import resize as _resize_repeating

# The core's getter itself, not a Python function calling it: reading a shape costs no frame.
_GET_SHAPE = ndarray.__dict__["shape"].fget


def _set_shape(self: ndarray, value: Any) -> None:
    if value is None:
        raise TypeError("expected a sequence of integers or a single integer, got 'None'")
    reshaped = self.reshape(value)
    # A view keeps the storage; a layout reshape cannot view is a copy in new storage.
    if reshaped._storage_id() != self._storage_id() and self.size > 0:
        raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` "
                             "to make a copy with the desired shape.")
    self._become(reshaped)


shape = property(_GET_SHAPE, _set_shape, doc="The dimensions; assigning reshapes in place "
                 "(a view: AttributeError where the layout needs a copy).")

# References to the array object from the caller of resize (its variable and the call), found
# by measuring a fresh array in _calibrate.
_OWN_REFERENCES: int | None = None


def _calibrate() -> int:
    def probe(a):  # called as resize is: from a frame holding the array in a variable
        return sys.getrefcount(a)

    held = zeros(1)
    return probe(held)


def resize(self: ndarray, *new_shape: Any, refcheck: bool = True) -> None:
    """Changes the array's shape and size in place, as ``numpy.ndarray.resize``: the elements
    in C order are kept, new ones are zero. The array must be C-contiguous; when the size
    changes, with `refcheck` no other array or Python name may hold it."""
    global _OWN_REFERENCES
    if len(new_shape) == 1 and (new_shape[0] is None or not isinstance(new_shape[0], int)):
        new_shape = () if new_shape[0] is None else tuple(new_shape[0])
    try:
        dims = tuple(int(d) for d in new_shape)
    except TypeError:
        raise TypeError("resize: new_shape must be integers or a sequence of integers") from None
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions not allowed")
    if not self.flags.c_contiguous:
        raise ValueError("resize only works on single-segment arrays")
    new_size = int(np.prod(dims, dtype=np.int64))
    if new_size != self.size:
        if _OWN_REFERENCES is None:
            _OWN_REFERENCES = _calibrate()
        if refcheck and (self._storage_refs() > 1 or sys.getrefcount(self) > _OWN_REFERENCES):
            raise ValueError("cannot resize an array that references or is referenced\nby "
                             "another object in this way.\nUse the np.resize function to get a "
                             "new resized copy or\n set refcheck=False to disable this check")
    flat = self.reshape(-1)
    if new_size <= self.size:
        kept = flat[:new_size]
    else:
        kept = concatenate([flat, zeros(new_size - self.size, dtype=self.dtype,
                                        device=self.device)])
    self._become(kept.copy().reshape(dims) if new_size != self.size else kept.reshape(dims))


class flatiter:  # noqa: N801 - NumPy's name
    """``ndarray.flat``: the elements in C order as a 1-D sequence. Slicing and array indices
    give arrays, one element is a[i]'s (NumPy's scalar on the CPU), iteration gives NumPy
    scalars from one host copy; assigning
    (``a.flat[i] = v``) writes the array, repeating `v` as NumPy does when it is shorter."""

    def __init__(self, a: ndarray) -> None:
        self.base = a

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self):
        return iter(_core.asnumpy(self.base).reshape(-1))

    def __getitem__(self, key: Any) -> Any:
        return self.base.reshape(-1)[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        a = self.base
        where = arange(a.size, device=a.device)[key]
        n = where.size
        v = asarray(value, device=a.device)
        if v.size != n and v.size > 0 and n > 0:
            v = _resize_repeating(v.reshape(-1), (n,))
        if v.ndim > where.ndim or (v.size == n and v.shape != where.shape):
            v = v.reshape(where.shape)
        if n == 0:
            return
        if a.flags.c_contiguous:
            a.reshape(-1)[where] = v
        else:
            a[unravel_index(where, a.shape)] = v

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        out = _core.asnumpy(self.base).reshape(-1)
        return out if dtype is None else out.astype(dtype)

    def copy(self) -> ndarray:
        return self.base.reshape(-1).copy()

    def __repr__(self) -> str:
        return f"<accelpy.flatiter of an array of shape {self.base.shape}>"


def _get_flat(self: ndarray) -> flatiter:
    return flatiter(self)


def _set_flat(self: ndarray, value: Any) -> None:
    flatiter(self)[...] = value


flat = property(_get_flat, _set_flat, doc="The elements as a flat sequence (numpy.ndarray.flat).")
