"""numpy.lib.recfunctions' functions that join records: merge_arrays (side by side),
stack_arrays (one after another, the union of the fields), join_by and rec_join (a database
join on key fields) and find_duplicates (decisions.md D92).

Each is NumPy's algorithm, step for step, computed by accelpy on the records' device (one array
per field, accelpy._structured): sorts, comparisons, masks and assignments of whole fields. NumPy
decides the result's dtype, its fill values and its errors: its own function runs first on
stand-ins of the arguments with no rows (or one row per argument where the fill values show).

Masked results: ``usemask=True`` (stack_arrays' and join_by's default) is NumPy's masked array,
which accelpy has none of; NumPy computes it on the host from copies of the records, and it is
returned as NumPy returns it (numpy.ma.MaskedArray, or MaskedRecords with asrecarray). With
``usemask=False`` the result is a structured array on the device, the places NumPy masks holding
its fill values (``defaults``, else numpy.ma's defaults for each field's dtype: 999999, 1e20,
b'N/A', ...). The sorts here are stable; NumPy's are not, which matters only where NumPy's own
documentation calls the result unreliable (keys repeated within one array)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.lib.recfunctions as _numpy_rfn

from .. import _core
from .._core import ndarray
from .._creation import asarray, zeros
from .._records import RecordScalar
from .._structured import StructuredArray
from .._structured_functions import concatenate

__all__ = ["find_duplicates", "join_by", "merge_arrays", "rec_join", "stack_arrays"]


def _on_device(value: Any, device: Any) -> Any:
    """`value` as an accelpy array or records (a record as a 0-d array; NumPy's arrays and
    Python sequences copied to `device`)."""
    if isinstance(value, (ndarray, StructuredArray)):
        return value
    if isinstance(value, RecordScalar):
        return value._one()
    return asarray(value, device=device)


def _device_of(values: Any) -> Any:
    for v in values:
        if isinstance(v, (ndarray, StructuredArray)):
            return v.device
    return None


def _host(value: Any) -> Any:
    """NumPy's copy of an accelpy value (sequences item by item), for NumPy's masked path."""
    if isinstance(value, (StructuredArray, RecordScalar)):
        return value.get()
    if isinstance(value, ndarray):
        return _core.asnumpy(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_host(v) for v in value)
    return value


def _as_recarray(out: Any) -> Any:
    if not isinstance(out, StructuredArray):
        raise NotImplementedError(
            "asrecarray=True of arrays without fields is not supported: accelpy's record "
            "arrays are structured"
        )
    return out.view(np.recarray)


def _filled_row(dtype: np.dtype, defaults: Any) -> np.ndarray:
    """The record NumPy's masked result holds where it is masked, once filled (usemask=False):
    `defaults`' value for a field it names, numpy.ma's default fill value for the others."""
    masked = np.ma.masked_all((1,), dtype)
    fill = masked.fill_value  # a view: writes change the array's fill value, as NumPy's
    for name, value in (defaults or {}).items():
        if name in dtype.names:
            fill[name] = value
    return np.ma.filled(masked, fill)


def _filled(length: int, dtype: np.dtype, defaults: Any, device: Any) -> StructuredArray:
    out = zeros((length,), dtype, device=device)
    if length:
        out[...] = _filled_row(dtype, defaults)[0]
    return out


# -- side by side --------------------------------------------------------------------------


def merge_arrays(
    seqarrays: Any,
    fill_value: Any = -1,
    flatten: bool = False,
    usemask: bool = False,
    asrecarray: bool = False,
) -> Any:
    """Records whose fields are the arrays of `seqarrays` side by side, raveled, the shorter
    padded with `fill_value` (numpy.lib.recfunctions'): a field per array (an array of records
    as a nested field, one of a single field as that field), or every leaf field with
    `flatten`. One array alone is a view of it as records, as NumPy's."""
    if usemask:  # NumPy's masked array, from host copies
        return _numpy_rfn.merge_arrays(_host(seqarrays), fill_value, flatten, True, asrecarray)
    single = isinstance(seqarrays, (ndarray, StructuredArray, np.ndarray, RecordScalar))
    if not single and len(seqarrays) == 1:
        seqarrays, single = seqarrays[0], True
    if single:
        arr = _on_device(seqarrays, None)
        dtype = arr.dtype if arr.dtype.names is not None else np.dtype([("", arr.dtype)])
        if not flatten or np.dtype(list(_numpy_rfn.flatten_descr(arr.dtype))) == dtype:
            out = arr.ravel().view(dtype)
            return _as_recarray(out) if asrecarray else out
        arrays = [arr]
    else:
        device = _device_of(seqarrays)
        arrays = [_on_device(a, device) for a in seqarrays]
    arrays = [a.ravel() for a in arrays]
    sizes = [a.size for a in arrays]
    longest = max(sizes)
    # NumPy's dtype, and its fill values in the one row of the stand-ins shorter than the
    # longest (or its errors).
    stand = [
        np.zeros((int(n == longest > 0),), a.dtype) for a, n in zip(arrays, sizes, strict=True)
    ]
    like = _numpy_rfn.merge_arrays(stand if len(stand) > 1 else stand[0], fill_value, flatten)
    out = zeros((longest,), like.dtype, device=_device_of(arrays))
    parts = [p for a in arrays for p in _merged_parts(a, flatten)]
    for name, part in zip(like.dtype.names, parts, strict=True):
        field, n = out[name], part.shape[0]
        field[:n] = part
        if n < longest:
            field[n:] = like[name][0]
    return _as_recarray(out) if asrecarray else out


def _merged_parts(a: Any, flatten: bool) -> list:
    """What array `a` gives merge_arrays' result, field by field, in NumPy's order."""
    names = a.dtype.names
    if names is None:
        return [a]
    if not flatten:
        return [a[names[0]]] if len(names) == 1 else [a]
    return [p for n in names for p in (_merged_parts(a[n], True) if a[n].dtype.names else [a[n]])]


# -- one after another ---------------------------------------------------------------------


def stack_arrays(
    arrays: Any,
    defaults: Any = None,
    usemask: bool = True,
    asrecarray: bool = False,
    autoconvert: bool = False,
) -> Any:
    """The records of `arrays` one after another, raveled (numpy.lib.recfunctions'): the
    union of their fields in order of appearance (a field of two dtypes raises NumPy's
    TypeError, or takes the larger with `autoconvert`); a field an array lacks holds
    `defaults`' value or NumPy's fill value (usemask=False), or is masked (NumPy's masked
    array, the default)."""
    if isinstance(arrays, (ndarray, StructuredArray, np.ndarray)):
        return arrays
    if len(arrays) == 1:
        return arrays[0]
    if usemask:
        return _numpy_rfn.stack_arrays(_host(arrays), defaults, True, asrecarray, autoconvert)
    device = _device_of(arrays)
    parts = [_on_device(a, device).ravel() for a in arrays]
    stand = [np.zeros((0,), p.dtype) for p in parts]
    like = _numpy_rfn.stack_arrays(stand, defaults, False, False, autoconvert)  # or its error
    names = like.dtype.names
    if names is None or len(names) == 1:  # NumPy concatenates
        out = concatenate(parts) if names is not None else _core.concatenate(parts)
        out = out if out.dtype == like.dtype else out.astype(like.dtype)
        return _as_recarray(out) if asrecarray else out
    out = _filled(sum(p.shape[0] for p in parts), like.dtype, defaults, device)
    start, seen = 0, []
    for p in parts:
        stop = start + p.shape[0]
        if p.dtype.names is None:
            out[f"f{len(seen)}"][start:stop] = p
        else:
            for name in p.dtype.names:
                out[name][start:stop] = p[name]
                if name not in seen:
                    seen.append(name)
        start = stop
    return _as_recarray(out) if asrecarray else out


# -- joins ---------------------------------------------------------------------------------


def join_by(
    key: Any,
    r1: Any,
    r2: Any,
    jointype: str = "inner",
    r1postfix: str = "1",
    r2postfix: str = "2",
    defaults: Any = None,
    usemask: bool = True,
    asrecarray: bool = False,
) -> Any:
    """The records of r1 and r2 joined on the fields `key` (numpy.lib.recfunctions'): 'inner'
    (keys in both), 'outer' (all), 'leftouter' (all of r1's); the key fields first, then r1's
    and r2's others (a name in both suffixed with r1postfix and r2postfix), sorted by key.
    Missing values are masked (NumPy's masked array, the default) or hold `defaults`' value or
    NumPy's fill value (usemask=False). As NumPy says, keys must not repeat within r1 or r2."""
    if usemask:
        return _numpy_rfn.join_by(
            key, _host(r1), _host(r2), jointype, r1postfix, r2postfix, defaults, True, asrecarray
        )
    device = _device_of([r1, r2])
    r1, r2 = (_on_device(r, device).ravel() for r in (r1, r2))
    # NumPy's dtype, or its errors, on stand-ins of at most one row (it cannot join two empty
    # arrays: IndexError)
    s1, s2 = (np.zeros((min(r.shape[0], 1),), r.dtype) for r in (r1, r2))
    like = _numpy_rfn.join_by(key, s1, s2, jointype, r1postfix, r2postfix, defaults, False)
    key = (key,) if isinstance(key, str) else tuple(key)
    nb1 = r1.shape[0]
    r1names, r2names = r1.dtype.names, r2.dtype.names
    key1 = [n for n in r1names if n in key]
    aux = concatenate([_keep(r1, key1), _keep(r2, key1)])
    idx_sort = aux.argsort(order=key)
    flag_in = _runs(aux[idx_sort])
    idx_in = idx_sort[flag_in]
    idx_1 = idx_in[idx_in < nb1]
    idx_2 = idx_in[idx_in >= nb1] - nb1
    r1cmn, r2cmn = idx_1.shape[0], idx_2.shape[0]
    r1spc = r2spc = 0
    if jointype != "inner":
        idx_out = idx_sort[~flag_in]
        idx_1 = _core.concatenate([idx_1, idx_out[idx_out < nb1]], axis=0)
        r1spc = idx_1.shape[0] - r1cmn
        if jointype == "outer":
            idx_2 = _core.concatenate([idx_2, idx_out[idx_out >= nb1] - nb1], axis=0)
            r2spc = idx_2.shape[0] - r2cmn
    s1, s2 = r1[idx_1], r2[idx_2]
    cmn = max(r1cmn, r2cmn)
    out = _filled(cmn + r1spc + r2spc, like.dtype, defaults, device)
    names = like.dtype.names
    for f in r1names:
        selected = s1[f]
        suffixed = f not in names or (f in r2names and not r2postfix and f not in key)
        current = out[f + r1postfix if suffixed else f]
        current[:r1cmn] = selected[:r1cmn]
        if jointype in ("outer", "leftouter"):
            current[cmn : cmn + r1spc] = selected[r1cmn:]
    for f in r2names:
        selected = s2[f]
        suffixed = f not in names or (f in r1names and not r1postfix and f not in key)
        current = out[f + r2postfix if suffixed else f]
        current[:r2cmn] = selected[:r2cmn]
        if jointype == "outer" and r2spc:
            current[-r2spc:] = selected[r2cmn:]
    out.sort(order=key)
    return _as_recarray(out) if asrecarray else out


def rec_join(
    key: Any,
    r1: Any,
    r2: Any,
    jointype: str = "inner",
    r1postfix: str = "1",
    r2postfix: str = "2",
    defaults: Any = None,
) -> Any:
    """join_by as a record array, missing values filled (numpy.lib.recfunctions')."""
    return join_by(key, r1, r2, jointype, r1postfix, r2postfix, defaults, False, True)


def _keep(r: StructuredArray, names: list) -> StructuredArray:
    """The records of only the fields `names`, packed (NumPy's _keep_fields): the same field
    arrays, read only here."""
    dtype = np.dtype([(n, r.dtype.fields[n][0]) for n in names])
    return StructuredArray._make(dtype, r.shape, {n: r[n] for n in names})


def _runs(ordered: Any) -> ndarray:
    """Which sorted records equal a neighbour (NumPy's flag of duplicates: each equal to the
    next or to the previous)."""
    n = ordered.shape[0]
    if n == 0:
        return _core.zeros((0,), np.bool_, device=ordered.device)
    no = _core.zeros((1,), np.bool_, device=ordered.device)
    same = ordered[1:] == ordered[:-1]
    return _core.concatenate([same, no], axis=0) | _core.concatenate([no, same], axis=0)


# -- duplicates ----------------------------------------------------------------------------


def find_duplicates(a: Any, key: Any = None, ignoremask: bool = True, return_index: bool = False):
    """The records of `a` (raveled) that occur more than once, in sorted order, and with
    `return_index` their positions (numpy.lib.recfunctions'); by the field `key` only when
    given. A NumPy masked array is NumPy's (a masked result); accelpy's records have no mask,
    and their duplicates are records (NumPy's function refuses unmasked arrays)."""
    if isinstance(a, np.ma.MaskedArray):
        return _numpy_rfn.find_duplicates(a, key, ignoremask, return_index)
    a = _on_device(a, None).ravel()
    # NumPy's errors (no fields, an unknown key, no records) on a stand-in of at most one row.
    _numpy_rfn.find_duplicates(np.ma.zeros((min(a.size, 1),), a.dtype), key, ignoremask)
    base = a
    if key:
        for parent in _numpy_rfn.get_fieldstructure(a.dtype)[key]:
            base = base[parent]
        base = base[key]
    sortidx = base.argsort()
    flag = _runs(base[sortidx])
    duplicates = a[sortidx][flag]
    return (duplicates, sortidx[flag]) if return_index else duplicates
