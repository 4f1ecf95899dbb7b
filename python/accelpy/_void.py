"""Unstructured void arrays (NumPy's np.void dtype, ``'V8'``): opaque records of n bytes, made
directly (``zeros(n, 'V8')``, ``empty``, ``ones``, ``full``, ``asarray`` of NumPy's void arrays)
or as views of rows of numbers (``a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1])))``,
the unique-rows idiom: _structured_views.py).

A void array is a structured array (accelpy._structured) of one field of n uint8 per record, on
its device: it indexes, reshapes, sorts, compares and is made unique by its bytes, as NumPy's
void is (decisions.md D88, D92). ``x[i]`` is NumPy's np.void scalar, a copy of the record's
bytes (void has no fields to write through). A view as numbers (``x.view(np.uint8)``,
``unique_rows.view(a.dtype)``) is a view of the same bytes, so writes go both ways, as in
NumPy. What NumPy converts to void bytes (bytes objects, NumPy's void scalars and arrays,
``np.full(n, 7, 'V4')``'s integer) NumPy converts, on a host array of the value's shape: its
bytes and its errors."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from . import _core
from ._core import ndarray
from ._records import _is_void, _row_shape, _shape, _stored_dtype
from ._structured import StructuredArray, _indexed_dims, from_numpy

__all__ = ["VoidArray"]

_core_view = ndarray.view


def void_dtype(dtype: Any) -> np.dtype | None:
    """NumPy's dtype for `dtype` when it is unstructured void bytes ('V8', np.void), else
    None."""
    if dtype is None:
        return None
    dt = np.dtype(dtype)
    return dt if _is_void(dt) and dt.names is None and dt.subdtype is None else None


def _scalar(array: VoidArray, index: tuple) -> np.void:
    """x[i]: NumPy's np.void of the record's bytes."""
    return array._index(index + (Ellipsis,))._pack()[()]


class VoidArray(StructuredArray):
    """Opaque records of n bytes (NumPy's np.void dtype, ``'V24'``): one field of n uint8, so
    they sort, compare and index as bytes, as NumPy's do."""

    __slots__ = ()
    dtype = property(lambda self: np.dtype((np.void, self._dtype.itemsize)))
    _record_type = staticmethod(_scalar)

    @classmethod
    def of_bytes(cls, data: ndarray) -> VoidArray:
        """The void records whose bytes are data's last axis (uint8): a view of them."""
        size = data.shape[-1]
        return cls._make(np.dtype([("f0", np.uint8, (size,))]), data.shape[:-1], {"f0": data})

    def _records(self) -> StructuredArray:
        return StructuredArray._make(self._dtype, self._shape, self._fields)

    def _pack(self) -> np.ndarray:
        return self._records()._pack().view(self.dtype)

    def _compare(self, other: Any, op: Any) -> Any:
        if isinstance(other, (np.ndarray, np.void)) and other.dtype == self.dtype:
            other = asarray(np.asarray(other), self.device)
        if isinstance(other, VoidArray) and other.dtype == self.dtype:
            return self._records()._compare(other._records(), op)
        return op(self._pack(), np.asarray(other))  # NumPy's answer or error, on the host

    def view(self, dtype: Any = None, type: Any = None) -> Any:
        """The same bytes as `dtype`: numbers are a view of them (writes go both ways, as in
        NumPy); records as StructuredArray.view gives them."""
        if (
            type is None
            and isinstance(dtype, builtins.type)
            and issubclass(dtype, (np.ndarray, ndarray, StructuredArray))
        ):  # x.view(np.ndarray)
            dtype, type = None, dtype
        if type is not None:
            if type not in (np.ndarray, ndarray, StructuredArray, VoidArray):  # recarray
                raise NotImplementedError(f"a void array viewed as type={type.__name__}")
            type = None  # a void array is the one array type of void records
        if dtype is None or np.dtype(dtype) == self.dtype:
            return self._like(self._dtype, self._shape, self._fields)  # the same bytes
        new = np.dtype(dtype)
        if _is_void(new) or new.subdtype:
            return super().view(dtype)
        data, size = self._fields["f0"], self._dtype.itemsize
        nd = self.ndim
        whole = nd == 0 or self._shape[-1] <= 1 or not data.size or data.strides[-2] == size
        shape = _row_shape(self._shape, self.dtype, new, whole)  # NumPy's shape or its error
        rows = data.reshape(self._shape[:-1] + (self._shape[-1] * size,)) if nd and whole else data
        return _core_view(rows, new).reshape(shape)

    def astype(
        self,
        dtype: Any,
        order: str = "K",
        casting: str = "unsafe",
        subok: bool = True,
        copy: bool = True,
    ) -> Any:
        """The same bytes for the same void dtype; any other cast is NumPy's, on a host copy
        (the result, or NumPy's error)."""
        target = np.dtype(dtype)
        if target == self.dtype:
            return self.copy() if copy else self
        cast = self._pack().astype(target, order=order, casting=casting)
        if cast.dtype.names is not None:
            return from_numpy(cast, self.device)
        if void_dtype(cast.dtype) is not None:
            return asarray(cast, self.device)
        if _stored_dtype(cast.dtype) is None:  # strings: kept on the host, as accelpy keeps them
            return cast
        return _core._from_numpy(np.ascontiguousarray(cast), None, self.device, None, True)

    def __getitem__(self, key: Any) -> Any:
        if _names(key):
            return np.zeros(1, self.dtype)[key]  # NumPy's error: void has no fields
        return super().__getitem__(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        if _names(key):
            np.zeros(1, self.dtype)[key] = value  # NumPy's error
        key = key if isinstance(key, tuple) else (key,)
        if _indexed_dims(key) > self.ndim:
            raise IndexError(
                f"too many indices for array: array is {self.ndim}-dimensional, "
                f"but {_indexed_dims(key)} were indexed"
            )
        data, target = self._bytes_of(value), self._fields["f0"]
        try:
            target[key + (slice(None),)] = data
        except ValueError as e:  # NumPy's message: the records' shapes, without the bytes
            if not str(e).startswith("could not broadcast"):
                raise
            into = target[key + (slice(None),)].shape[:-1]
            raise ValueError(
                f"could not broadcast input array from shape {_shape_text(data.shape[:-1])} "
                f"into shape {_shape_text(into)}"
            ) from None

    def _bytes_of(self, value: Any) -> Any:
        """The bytes `value` gives records of this dtype, uint8 of value's shape plus one axis
        (NumPy's conversion on the host for anything but void records of this size)."""
        if isinstance(value, VoidArray) and value.dtype == self.dtype:
            return value._fields["f0"].copy()  # read before anything is written (overlaps)
        if isinstance(value, StructuredArray):
            value = value.get()
        elif isinstance(value, ndarray):
            value = _core.asnumpy(value)
        host = np.zeros(np.shape(value), self.dtype)
        host[...] = value  # NumPy's conversion, or its error (a number: TypeError)
        return _host_bytes(host, self.device)


def _shape_text(shape: tuple) -> str:
    """A shape as NumPy's messages write it: (3,), (2,4)."""
    return f"({','.join(map(str, shape))}{',' if len(shape) == 1 else ''})"


def _names(key: Any) -> bool:
    """Whether `key` names fields (which void has none of)."""
    if isinstance(key, str):
        return True
    return isinstance(key, list) and bool(key) and all(isinstance(k, str) for k in key)


def _host_bytes(host: np.ndarray, device: Any) -> ndarray:
    """The bytes of NumPy's void array `host` on `device`: uint8 of its shape plus one axis."""
    size = host.dtype.itemsize
    if size:
        octets = np.array(host, order="C").reshape(-1).view(np.uint8)
    else:  # no bytes to view
        octets = np.zeros(0, np.uint8)
    octets = octets.reshape(host.shape + (size,))
    return _core._from_numpy(octets, None, device, None, True)


def zeros(shape: Any, dtype: np.dtype, *, device: Any = None) -> VoidArray:
    """Void records of zero bytes (numpy.zeros and numpy.empty of a void dtype)."""
    data = _core.zeros(_shape(shape) + (dtype.itemsize,), np.uint8, device=device)
    return VoidArray.of_bytes(data)


def full(shape: Any, fill_value: Any, dtype: np.dtype, *, device: Any = None) -> VoidArray:
    """Void records all holding `fill_value`'s bytes, as NumPy converts it (numpy.full; ones
    is full(..., 1): the bytes of the integer 1)."""
    out = zeros(shape, dtype, device=device)
    out[...] = np.full(np.shape(fill_value), fill_value, dtype)
    return out


def asarray(arr: np.ndarray, device: Any = None, copy: bool | None = None) -> VoidArray:
    """NumPy's void array copied to accelpy, its bytes on `device`."""
    if copy is False:
        raise ValueError(
            "Unable to avoid copy while creating an array as requested: accelpy "
            "stores void records as an array of bytes."
        )
    return VoidArray.of_bytes(_host_bytes(arr, device))
