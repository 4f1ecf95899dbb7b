"""Record arrays (numpy.rec): structured arrays whose fields are also attributes
(``data.view(np.recarray).age``), and the functions that build them from columns or rows.

A recarray is accelpy's structured array (one accelpy array per field, accelpy._structured)
with attribute access; NumPy's own functions check the arguments and work out the dtype, on
zero-size stand-ins for accelpy's columns, so their errors and results are NumPy's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import ndarray
from ._structured import VIEW_TYPES, RecordScalar, StructuredArray, _subshape, from_numpy

__all__ = ["array", "fromarrays", "fromrecords", "recarray", "record"]

# NumPy's record scalar type, for dtype specs: np.dtype((np.record, x.dtype)).
record = np.record


class RecarrayScalar(RecordScalar):
    """One record of a recarray (what numpy.record is to NumPy): np.void's indexing, and the
    fields as attributes."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._array._fields:
            raise AttributeError(f"'record' object has no attribute '{name}'")
        return self[name]

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("_array", "_index"):
            object.__setattr__(self, name, value)
        elif name in self._array._fields:
            self[name] = value
        else:
            raise AttributeError(f"'record' object has no attribute '{name}'")


class recarray(StructuredArray):
    """A structured array whose fields are attributes too (numpy.recarray): made by
    ``x.view(np.recarray)``, ``accelpy.rec.array``, ``fromarrays`` and ``fromrecords``."""

    __slots__ = ()
    _record_type = RecarrayScalar

    def __getattr__(self, name: str) -> Any:
        fields = object.__getattribute__(self, "_fields")
        if name.startswith("_") or name not in fields:
            raise AttributeError(f"recarray has no attribute {name}")
        field = fields[name]
        return field.view(recarray) if isinstance(field, StructuredArray) else field

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("_dtype", "_shape", "_fields", "_parent"):
            object.__setattr__(self, name, value)
        elif name in self._fields:
            self[name] = value
        else:
            raise AttributeError(f"'recarray' object has no attribute '{name}'")

    def __repr__(self) -> str:
        return repr(self._pack().view(np.recarray))

    def __str__(self) -> str:
        return str(self._pack().view(np.recarray))


VIEW_TYPES[np.recarray] = recarray


def _stand_in(a: Any) -> Any:
    """A NumPy array of a's dtype and shape that holds no memory (NumPy's functions look at
    dtypes and shapes only)."""
    if isinstance(a, (ndarray, StructuredArray)):
        return np.broadcast_to(np.zeros((), a.dtype), a.shape)
    return np.asarray(a)


def fromarrays(
    arrayList: Any,
    dtype: Any = None,
    shape: Any = None,
    formats: Any = None,
    names: Any = None,
    titles: Any = None,
    aligned: bool = False,
    byteorder: Any = None,
) -> recarray:
    """A record array from a list of columns (numpy.rec.fromarrays): each column becomes a
    field, cast to the field's dtype, on the columns' device."""
    arrays = list(arrayList)
    template = np.rec.fromarrays(
        [_stand_in(a) for a in arrays], dtype, shape, formats, names, titles, aligned, byteorder
    )
    dtype, shape = template.dtype, template.shape
    out = recarray._make(dtype, shape, {})
    device = next((a.device for a in arrays if isinstance(a, ndarray)), None)
    fields = {}
    for name, column in zip(dtype.names, arrays, strict=True):
        sub = _subshape(dtype, name)
        if isinstance(column, ndarray) and dtype.fields[name][0].base.names is None:
            fields[name] = column.astype(dtype.fields[name][0].base).reshape(shape + sub)
        else:  # a nested record or a field accelpy keeps on the host (strings)
            host = np.empty(shape, np.dtype([(name, dtype.fields[name][0])]))
            host[name] = np.asarray(column).reshape(shape + sub)
            fields[name] = from_numpy(host, device)._fields[name]
    object.__setattr__(out, "_fields", fields)
    return out


def fromrecords(
    recList: Any,
    dtype: Any = None,
    shape: Any = None,
    formats: Any = None,
    names: Any = None,
    titles: Any = None,
    aligned: bool = False,
    byteorder: Any = None,
) -> recarray:
    """A record array from a list of rows (numpy.rec.fromrecords), built by NumPy on the host
    and copied to the current device field by field."""
    host = np.rec.fromrecords(recList, dtype, shape, formats, names, titles, aligned, byteorder)
    return from_numpy(np.asarray(host)).view(recarray)


def array(
    obj: Any,
    dtype: Any = None,
    shape: Any = None,
    offset: int = 0,
    strides: Any = None,
    formats: Any = None,
    names: Any = None,
    titles: Any = None,
    aligned: bool = False,
    byteorder: Any = None,
    copy: bool = True,
) -> recarray:
    """A record array from records, rows or another structured array (numpy.rec.array)."""
    if isinstance(obj, StructuredArray) and dtype is None and formats is None:
        out = obj.copy() if copy else obj
        return out.view(recarray)
    host = np.rec.array(
        np.asarray(obj) if isinstance(obj, StructuredArray) else obj,
        dtype,
        shape,
        offset,
        strides,
        formats,
        names,
        titles,
        aligned,
        byteorder,
        copy,
    )
    return from_numpy(np.asarray(host)).view(recarray)
