"""numpy.lib.recfunctions: fields to columns and back (structured_to_unstructured,
unstructured_to_structured, apply_along_fields), adding, dropping, renaming and assigning fields
(append_fields, drop_fields, rename_fields, repack_fields, assign_fields_by_name,
require_fields, recursive_fill_fields and the rec_ forms), and, from _recjoin.py, joining
records (merge_arrays, stack_arrays, join_by, rec_join, find_duplicates). Each works field by
field on the records' device (accelpy keeps one array per field, decisions.md D82, D88 and
D92); dtypes and errors come from NumPy's own functions run on zero-size stand-ins, and the
functions of dtypes alone (get_names, get_names_flat, flatten_descr, get_fieldstructure) are
NumPy's. Where NumPy would return a view that accelpy cannot alias (fields to one array of
columns), the copy is read-only, so a write meant for the records raises. A masked result
(``usemask=True``) is NumPy's masked array, computed by NumPy on the host: accelpy has no
masked arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.lib.recfunctions as _numpy_rfn
from numpy.lib.recfunctions import (
    flatten_descr,
    get_fieldstructure,
    get_names,
    get_names_flat,
)

from .._core import asnumpy, concatenate, ndarray
from .._creation import asarray, empty
from .._records import _count, _subshape
from .._structured import StructuredArray, from_numpy
from .._structured_functions import as_records
from .._structured_views import _readonly
from ._recjoin import find_duplicates, join_by, merge_arrays, rec_join, stack_arrays

__all__ = [
    "append_fields",
    "apply_along_fields",
    "assign_fields_by_name",
    "drop_fields",
    "find_duplicates",
    "flatten_descr",
    "get_fieldstructure",
    "get_names",
    "get_names_flat",
    "join_by",
    "merge_arrays",
    "rec_append_fields",
    "rec_drop_fields",
    "rec_join",
    "recursive_fill_fields",
    "rename_fields",
    "repack_fields",
    "require_fields",
    "stack_arrays",
    "structured_to_unstructured",
    "unstructured_to_structured",
]


def _leaves(x: StructuredArray) -> list:
    """x's numeric fields in NumPy's order (nested records flattened), each of x's shape plus
    one axis of its subarray's elements."""
    out = []
    for name, field in x._fields.items():
        if isinstance(field, StructuredArray):
            flat = (
                field.reshape(x.shape + (_count(field, x.ndim),))
                if field.ndim > x.ndim
                else field[..., None]
            )
            for j in range(flat.shape[-1]):
                out += _leaves(flat[..., j])
        elif isinstance(field, np.ndarray):
            raise TypeError(
                f"field {name!r} ({field.dtype}) is no number: accelpy keeps it "
                "on the host; use numpy's recfunctions on numpy.asarray(arr)"
            )
        else:
            out.append(field.reshape(x.shape + (_count(field, x.ndim),)))
    return out


def structured_to_unstructured(
    arr: Any, dtype: Any = None, copy: bool = False, casting: str = "unsafe"
) -> ndarray:
    """The fields as the last axis of one array (numpy.lib.recfunctions'), cast to `dtype` or
    their promoted dtype. Read-only unless copy=True: NumPy may return a view of the records,
    which accelpy cannot (its fields are separate arrays)."""
    arr = as_records(arr)
    if not isinstance(arr, StructuredArray):
        raise ValueError("arr must be a structured array")
    like = _numpy_rfn.structured_to_unstructured(np.zeros(0, arr.dtype), dtype, True, casting)
    leaves = [f.astype(like.dtype) for f in _leaves(arr)]
    if not leaves:
        raise NotImplementedError("arr with no fields is not supported")
    out = concatenate(leaves, axis=-1)
    return out if copy else _readonly(out)


def unstructured_to_structured(
    arr: Any,
    dtype: Any = None,
    names: Any = None,
    align: bool = False,
    copy: bool = False,
    casting: str = "unsafe",
) -> StructuredArray:
    """Records whose fields are the last axis of `arr` in order (numpy.lib.recfunctions'):
    each field a view of its columns when no cast is needed, so writes reach `arr` as NumPy's
    view's do."""
    arr = arr if isinstance(arr, ndarray) else asarray(arr)
    if arr.ndim == 0:
        raise ValueError("arr must have at least one dimension")
    like = _numpy_rfn.unstructured_to_structured(
        np.zeros((1, arr.shape[-1]), arr.dtype), dtype, names, align, True, casting
    )
    dtype, lead, fields, start = like.dtype, arr.shape[:-1], {}, 0
    for name in dtype.names:
        base, sub = dtype.fields[name][0].base, _subshape(dtype, name)
        count = int(np.prod(sub, dtype=np.int64))
        if base.names is not None:
            raise NotImplementedError("nested record fields are not supported")
        columns = arr[..., start : start + count].reshape(lead + sub)
        fields[name] = columns.astype(base, copy=bool(copy))
        start += count
    return StructuredArray._make(dtype, lead, fields)


def _rebuilt(base: StructuredArray, dtype: np.dtype, fields: dict, asrecarray: bool) -> Any:
    out = StructuredArray._make(dtype, base.shape, fields)
    if asrecarray:
        from ..rec import recarray

        return out.view(recarray)
    return out


def drop_fields(base: Any, drop_names: Any, usemask: bool = True, asrecarray: bool = False) -> Any:
    """The records without the fields `drop_names` (numpy.lib.recfunctions'; top-level fields,
    packed as NumPy's): a copy, as NumPy's."""
    base = as_records(base)
    dtype = _numpy_rfn.drop_fields(np.zeros(0, base.dtype), drop_names, False).dtype
    if dtype.names is None:
        return None
    for name in dtype.names:
        if dtype.fields[name][0] != base.dtype.fields[name][0]:
            raise NotImplementedError("dropping fields of nested records is not supported")
    return _rebuilt(base, dtype, {n: base._fields[n].copy() for n in dtype.names}, asrecarray)


def rename_fields(base: Any, namemapper: dict) -> Any:
    """The records with fields renamed by `namemapper` (numpy.lib.recfunctions'; top level):
    a view, its fields those of `base`, as NumPy's."""
    base = as_records(base)
    dtype = _numpy_rfn.rename_fields(np.zeros(0, base.dtype), namemapper).dtype
    fields = dict(zip(dtype.names, base._fields.values(), strict=True))
    return type(base)._make(dtype, base.shape, fields)


def repack_fields(a: Any, align: bool = False, recurse: bool = False) -> Any:
    """The records (or a dtype) with their fields packed (numpy.lib.recfunctions')."""
    if isinstance(a, np.dtype):
        return _numpy_rfn.repack_fields(a, align, recurse)
    a = as_records(a)
    return a.astype(_numpy_rfn.repack_fields(a.dtype, align, recurse), copy=False)


def append_fields(
    base: Any,
    names: Any,
    data: Any,
    dtypes: Any = None,
    fill_value: Any = -1,
    usemask: bool = True,
    asrecarray: bool = False,
) -> Any:
    """The records with new fields `names` holding `data` (numpy.lib.recfunctions').
    With usemask (NumPy's default) the result is NumPy's masked array, computed by NumPy on
    the host (accelpy has no masked arrays); else a structured array on base's device, whose
    new fields are the data arrays (each of base's length, else NumPy's result on the host)."""
    base = as_records(base)
    single = isinstance(names, str)
    columns = [data] if single else list(data)
    host = [np.asarray(c) if not isinstance(c, ndarray) else asnumpy(c) for c in columns]
    if usemask or any(h.shape != base.shape for h in host) or base.ndim != 1:
        result = _numpy_rfn.append_fields(
            base.get(), names, host[0] if single else host, dtypes, fill_value, usemask, asrecarray
        )
        if usemask:
            return result
        out = from_numpy(np.asarray(result), base.device)
        return out.view(np.recarray) if asrecarray else out
    stand = [np.zeros(base.shape, h.dtype) for h in host]
    like = _numpy_rfn.append_fields(
        np.zeros(base.shape, base.dtype),
        names,
        stand[0] if single else stand,
        dtypes,
        fill_value,
        False,
    )
    fields = dict(base._fields)
    for name, column in zip(like.dtype.names[len(fields) :], columns, strict=True):
        target = like.dtype.fields[name][0]
        fields[name] = asarray(column, device=base.device).astype(target)
    return _rebuilt(base, like.dtype, fields, asrecarray)


def rec_append_fields(base: Any, names: Any, data: Any, dtypes: Any = None) -> Any:
    """append_fields as a record array, no mask (numpy.lib.recfunctions')."""
    return append_fields(base, names, data, dtypes, usemask=False, asrecarray=True)


def rec_drop_fields(base: Any, drop_names: Any) -> Any:
    """drop_fields as a record array (numpy.lib.recfunctions')."""
    return drop_fields(base, drop_names, usemask=False, asrecarray=True)


def apply_along_fields(func: Any, arr: Any) -> Any:
    """func(fields as columns, axis=-1): a reduction across each record's fields, as
    numpy.lib.recfunctions' (``apply_along_fields(np.mean, b)``)."""
    arr = as_records(arr)
    if arr.dtype.names is None:
        raise ValueError("arr must be a structured array")
    return func(structured_to_unstructured(arr), axis=-1)


def assign_fields_by_name(dst: Any, src: Any, zero_unassigned: bool = True) -> None:
    """dst's fields set from src's fields of the same names, nested records recursively, the
    others zeroed with `zero_unassigned` (numpy.lib.recfunctions'): written into dst's fields."""
    if dst.dtype.names is None:
        dst[...] = src
        return
    for name in dst.dtype.names:
        if name not in src.dtype.names:
            if zero_unassigned:
                dst[name] = 0
        else:
            assign_fields_by_name(dst[name], src[name], zero_unassigned)


def require_fields(array: Any, required_dtype: Any) -> Any:
    """New records of `required_dtype` whose fields are array's of the same names, the others
    zero (numpy.lib.recfunctions'), on array's device."""
    array = as_records(array)
    out = empty(array.shape, required_dtype, device=array.device)
    assign_fields_by_name(out, array)
    return out


def recursive_fill_fields(input: Any, output: Any) -> Any:
    """output's fields filled from input's fields of the same names, from the start, nested
    records recursively (numpy.lib.recfunctions'); returns output."""
    for field in output.dtype.names:
        try:
            current = input[field]
        except ValueError:
            continue
        if current.dtype.names is not None:
            recursive_fill_fields(current, output[field])
        else:
            output[field][: len(current)] = current
    return output
