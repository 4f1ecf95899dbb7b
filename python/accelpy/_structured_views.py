"""Views of bytes between records and numbers (decisions.md D88): ``a.view([('x', 'f4'),
('y', 'f4')])`` of a plain array, ``x.view('i8')`` or ``x.view(other records)`` of a structured
array, and ``a.view(np.dtype((np.void, n)))``: NumPy reinterprets the same bytes.

A plain array has bytes: its records are views of them (each field a view of the array's bytes
read as the field's dtype), so writes go both ways, as in NumPy. Records are kept field by field
(accelpy._structured), so no storage holds their packed bytes: ``x.view(dtype)`` packs them on
their device (NumPy's layout, each field's bytes at its offset) and reads the result from that
new buffer, exact NumPy values computed as a copy. The copy is read-only: a write through it,
which in NumPy would reach ``x``, raises "assignment destination is read-only" instead of being
lost. Bytes between the fields (padding) are NumPy's for a multi-field index's direct result
(read from the array it indexes) and zero otherwise, except after further indexing of such a
view, where they are unknown and the view raises. NumPy's rules (contiguous last axis, sizes
that divide) are checked on a one-row stand-in, so its errors are NumPy's."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core
from ._core import ndarray
from ._records import _is_void, _row_shape, _stored_dtype
from ._structured import BYTE_VIEWS, StructuredArray, from_numpy
from ._void import VoidArray

_core_view = ndarray.view  # the core's view between numbers; view() below adds records


class _OnTheHost(Exception):
    """Bytes the device cannot give (fields accelpy keeps on the host, another byte order): the
    view is NumPy's, on the host."""


def _readonly(value: Any) -> Any:
    """`value` (a fresh copy) as read-only: writes raise instead of missing the original."""
    if isinstance(value, ndarray):
        return _core.broadcast_to(value, value.shape)
    if isinstance(value, StructuredArray):
        fields = {n: _readonly(f) for n, f in value._fields.items()}
        return type(value)._make(value._dtype, value.shape, fields)
    value.flags.writeable = False
    return value


def records_of_bytes(data: ndarray, dtype: np.dtype) -> StructuredArray:
    """The records of `dtype` whose bytes are data's last axis (uint8, dtype.itemsize long):
    each field a view of its bytes as its dtype."""
    if dtype.names is None:
        return VoidArray.of_bytes(data)
    lead, fields = data.shape[:-1], {}
    for name in dtype.names:
        ftype, offset = dtype.fields[name][:2]
        base, sub = ftype.base, ftype.shape
        chunk = data[..., offset : offset + ftype.itemsize]
        count = int(np.prod(sub, dtype=np.int64))
        if _is_void(base):
            inner = records_of_bytes(chunk.reshape(lead + (count, base.itemsize)), base)
            fields[name] = inner.reshape(lead + sub)
        elif _stored_dtype(base) is None or not base.isnative:
            raise _OnTheHost
        else:
            fields[name] = _core_view(chunk, base).reshape(lead + sub)
    return StructuredArray._make(dtype, lead, fields)


def packed_bytes(x: StructuredArray) -> ndarray:
    """x's records in NumPy's packed layout, as uint8 of shape x.shape + (itemsize,), built on
    x's device field by field."""
    parent = x._parent
    if parent is False and _has_gaps(x._dtype):
        raise TypeError(
            "accelpy keeps a multi-field index's records field by field: after indexing it "
            "again, the bytes between its fields (those of the fields left out) are unknown; "
            "view the multi-field index itself, or use numpy.lib.recfunctions.repack_fields"
        )
    shape, size = x.shape, x._dtype.itemsize
    if parent is not None and parent is not False:
        out = packed_bytes(parent).copy()
    else:
        out = _core.zeros(shape + (size,), np.uint8, device=x.device)
    for name, field in x._fields.items():
        ftype, offset = x._dtype.fields[name][:2]
        if isinstance(field, StructuredArray):
            data = packed_bytes(field)
        elif isinstance(field, np.ndarray) or not ftype.base.isnative:
            raise _OnTheHost
        else:
            count = int(np.prod(ftype.shape, dtype=np.int64))
            data = _core_view(field.copy(order="C").reshape(shape + (count,)), np.uint8)
        out[..., offset : offset + ftype.itemsize] = data.reshape(shape + (ftype.itemsize,))
    return out


def _has_gaps(dtype: np.dtype) -> bool:
    return sum(dtype.fields[n][0].itemsize for n in dtype.names) != dtype.itemsize


def _from_rows(rows: ndarray, new: np.dtype, shape: tuple) -> Any:
    """What `rows` (uint8, the bytes of each row of the result on its last axis) hold read as
    `new`, of NumPy's result `shape`."""
    base = new.base if new.subdtype is not None else new
    if not _is_void(base):
        return _core_view(rows, base).reshape(shape)
    lead = rows.shape[:-1]
    per_row = rows.shape[-1] // base.itemsize if base.itemsize else 1
    data = rows.reshape(lead + (per_row, base.itemsize)) if base.itemsize else rows[..., None]
    return records_of_bytes(data, base).reshape(shape)


def view_records(x: StructuredArray, dtype: Any) -> Any:
    """x.view(dtype) for a dtype other than x's: NumPy's values, a read-only copy."""
    new = np.dtype(dtype)
    shape = _row_shape(x.shape, x.dtype, new)
    try:
        data = packed_bytes(x)
        rows = data.reshape(x.shape[:-1] + (x.shape[-1] * data.shape[-1],)) if x.ndim else data
        out = _from_rows(rows, new, shape)
    except _OnTheHost:  # the bytes between fields of a multi-field index are its parent's
        parent = x._parent
        whole = parent is not None and parent is not False
        host = parent.get()[list(x.dtype.names)] if whole else x.get()
        out = _numpy_view(host, new, x.device)
    return _readonly(out)


def _numpy_view(host: np.ndarray, new: np.dtype, device: Any) -> Any:
    out = np.ascontiguousarray(host).view(new)
    if out.dtype.names is not None:
        return from_numpy(out, device)
    void = _is_void(out.dtype)
    if void:  # opaque bytes: kept as uint8
        out = out[..., None].view(np.uint8)
    out = _core._from_numpy(np.ascontiguousarray(out), None, device, None, True)
    return VoidArray.of_bytes(out) if void else out


BYTE_VIEWS["records"] = view_records


def _records_dtype(dtype: Any) -> np.dtype | None:
    """NumPy's dtype for `dtype` when it is records or void bytes (or a subarray of them)."""
    try:
        new = np.dtype(dtype)
    except TypeError:
        return None
    target = new.base if new.subdtype is not None else new
    return new if _is_void(target) else None


def view(self: ndarray, dtype: Any = None, type: Any = None) -> Any:
    """ndarray.view: the core's view between numbers; as records (a structured or void
    dtype, which the core refuses), a view of the array's bytes whose writes reach the array,
    as in NumPy."""
    try:
        return _core_view(self, dtype, type)
    except TypeError:
        new = None if type is not None else _records_dtype(dtype)
        if new is None:
            raise
    # Empty arrays have no bytes to be strided (NumPy's zeros((0, n)) has strides 0).
    strided = self.ndim and self.size and self.shape[-1] > 1 and self.strides[-1] != self.itemsize
    shape = _row_shape(self.shape, self.dtype, new, not strided)
    source, readonly = self, False
    if strided:
        source, readonly = self.copy(), True  # NumPy allowed it: the same item size
    rows = _core_view(source.reshape(source.shape or (1,)), np.uint8)
    try:
        out = _from_rows(rows, new, shape)
    except _OnTheHost:
        return _readonly(_numpy_view(_core.asnumpy(self), new, self.device))
    return _readonly(out) if readonly else out
