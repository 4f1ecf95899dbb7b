"""NumPy's order of records (``x.sort(order=...)``, ``x.argsort(order=...)``): the keys a
structured array's records compare by, and the stable sort by them (decisions.md D82).

Records compare field by field: the fields `order` names first, then the others in the dtype's
order, as NumPy breaks ties. A subarray field compares by its bytes, as NumPy's memcmp does, a
nested record field by field, and a field kept on the host (strings) by its rank among its
values. The sort is a series of stable argsorts by the core, least significant key first.

This module is imported by accelpy._structured, so it cannot name StructuredArray: a field that
is neither an accelpy nor a NumPy array is a nested structured array."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _core
from ._core import ndarray
from ._records import _count, _subshape


def _nested(field: Any) -> bool:
    """Whether a field is a nested structured array (not an accelpy or NumPy array)."""
    return not isinstance(field, (ndarray, np.ndarray))


def sort_keys(x: Any, order: Any) -> list:
    """The arrays the records of `x` compare by, most significant first: the fields named by
    `order`, then the others in the dtype's order (NumPy's rule); a subarray field by its bytes
    (NumPy's order), a nested record field by field, a field kept on the host (strings) by its
    rank among its values."""
    names = list(x._dtype.names)
    if order is not None:
        first = [order] if isinstance(order, str) else list(order)
        for name in first:
            if name not in x._fields:
                raise ValueError(f"unknown field name: {name}")
        names = first + [n for n in names if n not in first]
    nd, keys = x.ndim, []
    for name in names:
        f = x._fields[name]
        if _nested(f):
            flat = f.reshape(x.shape + (_count(f, nd),)) if f.ndim > nd else f[..., None]
            for j in range(flat.shape[-1]):
                keys += sort_keys(flat[..., j], None)
            continue
        if isinstance(f, np.ndarray):
            ranks = np.unique(f, return_inverse=True)[1].reshape(f.shape)
            f = _core._from_numpy(np.ascontiguousarray(ranks), None, x.device, None, True)
        if f.ndim > nd:
            # NumPy orders a subarray field by its bytes, as memcmp does (unsigned, in
            # memory order): 256 before 1 before -1 in int32, 0.5 before 1.0 before -1.0.
            f = f.reshape(x.shape + (_count(f, nd),))  # (0, -1) would be ambiguous
            keys += _byte_keys(f.copy(order="C").view(np.uint8))
        else:
            keys.append(f)
    return keys


def _byte_keys(octets: ndarray) -> list:
    """Keys that order rows of bytes (the last axis) as memcmp does: each run of up to 8 bytes
    as one big-endian unsigned integer, so one sort pass orders 8 bytes (a void row of 16 bytes
    is 2 keys, not 16)."""
    keys = []
    for start in range(0, octets.shape[-1], 8):
        run = octets[..., start : start + 8].astype(np.uint64)
        key = run[..., 0]
        for j in range(1, run.shape[-1]):
            key = (key << np.uint64(8)) | run[..., j]
        keys.append(key)
    return keys


def argsort(x: Any, axis: Any = -1, kind: Any = None, order: Any = None) -> ndarray:
    """The indices that sort the records of `x` along `axis` (numpy.argsort with `order`): by
    the fields of `order` first, then the rest; stable, least significant key first."""
    keys = sort_keys(x, order)
    if axis is None:
        return argsort(x.ravel(), -1, kind, order)
    index = _core.argsort(keys[-1], axis, stable=True)
    for key in keys[-2::-1]:
        index = _core.take_along_axis(
            index,
            _core.argsort(_core.take_along_axis(key, index, axis), axis, stable=True),
            axis,
        )
    return index


def sort(x: Any, axis: Any = -1, kind: Any = None, order: Any = None) -> None:
    """Sorts the records of `x` in place (ndarray.sort with `order`), every field alike."""
    index = argsort(x, axis, kind, order)
    axis = operator.index(axis) % max(x.ndim, 1)
    for name, f in x._fields.items():
        k = len(_subshape(x._dtype, name))
        at = index.reshape(index.shape + (1,) * k) if k else index
        f[...] = _take_along(f, at, axis)


def _take_along(field: Any, index: ndarray, axis: int) -> Any:
    """field's values at `index` along `axis` (a field kept on the host: NumPy's)."""
    if isinstance(field, np.ndarray):
        return np.take_along_axis(field, _core.asnumpy(index), axis)
    if _nested(field):
        fields = {
            n: _take_along(g, index.reshape(index.shape + (1,) * (g.ndim - index.ndim)), axis)
            for n, g in field._fields.items()
        }
        return field._like(field.dtype, field.shape, fields)
    return _core.take_along_axis(field, index, axis)
