"""Records of structured arrays (NumPy's np.void scalar, ``x[i]``) and the dtype and shape
rules structured arrays share (see _structured.py, which holds the arrays themselves)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _core

__all__ = ["RecordScalar"]


_STORABLE: dict[np.dtype, bool] = {}


def _stored_dtype(base: np.dtype) -> np.dtype | None:
    """The dtype accelpy stores a field of NumPy dtype `base` in (native byte order), or None
    when it stores none (strings, objects, dates: the field stays a NumPy array)."""
    native = base.newbyteorder("=")
    known = _STORABLE.get(native)
    if known is None:
        try:
            _core.empty((0,), native, device="cpu")
            known = True
        except TypeError:
            known = False
        _STORABLE[native] = known
    return native if known else None


def _is_void(dtype: np.dtype) -> bool:
    """Whether `dtype` is records or void bytes (np.void's, or np.record's): not ml_dtypes'
    bfloat16 and float8 types, whose kind is "V" too."""
    return issubclass(dtype.type, np.void)


def _shape_only(shape: tuple) -> np.ndarray:
    """A NumPy array of `shape` holding no memory: NumPy's shape arithmetic and its errors
    (reshape's -1, transpose's axes) without an allocation."""
    return np.broadcast_to(np.empty((), np.int8), shape)


def _reshaped(shape: tuple, new: Any, order: str) -> tuple[int, ...]:
    """The shape reshape(new) gives an array of `shape` (NumPy's -1 and its ValueError)."""
    new = _shape(new)
    size = int(np.prod(shape, dtype=np.int64))
    if new.count(-1) == 1:
        rest = int(np.prod([n for n in new if n != -1], dtype=np.int64))
        if rest and size % rest == 0:
            new = tuple(size // rest if n == -1 else n for n in new)
    if any(n < 0 for n in new) or int(np.prod(new, dtype=np.int64)) != size:
        np.empty(shape, np.int8).reshape(new, order=order)  # NumPy's error
        raise ValueError(f"cannot reshape array of size {size} into shape {new}")
    return new


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        return (operator.index(shape),)
    return tuple(operator.index(s) for s in shape)


def _subshape(dtype: np.dtype, name: str) -> tuple[int, ...]:
    return dtype.fields[name][0].shape


def _count(field: Any, ndim: int) -> int:
    """The elements of a subarray field's record (its axes after the array's `ndim`)."""
    return int(np.prod(field.shape[ndim:], dtype=np.int64))


def _row_shape(shape: tuple, old: np.dtype, new: np.dtype, contiguous: bool = True) -> tuple:
    """The shape NumPy gives a view as `new` of an array of `shape` and dtype `old`, or NumPy's
    error, found on a stand-in of one row (only the last axis's length and contiguity
    matter)."""
    lead = shape[:-1]
    row = np.zeros((1,) * len(lead) + shape[-1:], old)
    if not contiguous:
        row = np.zeros(row.shape[:-1] + (2 * row.shape[-1],), old)[..., ::2]
    return lead + row.view(new).shape[len(lead) :]


class RecordScalar:
    """One record of a structured array (NumPy's np.void scalar): ``x[i]``. It reads and writes
    through to its array, as NumPy's does; ``r['a']`` or ``r[0]`` is a field's value."""

    __slots__ = ("_array", "_index")

    def __init__(self, array: Any, index: tuple) -> None:
        self._array, self._index = array, index

    dtype = property(lambda self: self._array.dtype)

    def _name(self, key: Any) -> str:
        if isinstance(key, str):
            if key not in self._array._fields:
                raise ValueError(f"no field of name {key}")
            return key
        names = self._array.dtype.names
        try:
            i = operator.index(key)
        except TypeError:
            raise IndexError(f"invalid index ({key!r})") from None
        if not -len(names) <= i < len(names):
            raise IndexError(f"invalid index ({i})")
        return names[i]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, list) and key and all(isinstance(k, str) for k in key):
            return RecordScalar(self._array._multi(key), self._index)
        return self._array._field(self._name(key))[self._index]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._array._set_field(self._name(key), self._index, value)

    def _one(self) -> Any:
        """The record as a 0-d structured array (a view of its array)."""
        return self._array._index(self._index + (Ellipsis,))

    def _numpy(self) -> np.void:
        return self._one()._pack()[()]

    def get(self) -> np.void:
        """The record as NumPy's np.void (read back from the device)."""
        return self._numpy()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return np.asarray(self._one().__array__(), dtype)

    def __repr__(self) -> str:
        return repr(self._numpy())

    def __str__(self) -> str:
        return str(self._numpy())

    def __len__(self) -> int:
        return len(self.dtype.names)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def item(self) -> tuple:
        return self._numpy().item()

    def tolist(self) -> tuple:
        return self._numpy().tolist()

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        theirs = other._numpy() if isinstance(other, RecordScalar) else other
        return self._numpy() == theirs

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return not self == other

    __hash__ = None  # type: ignore[assignment]
