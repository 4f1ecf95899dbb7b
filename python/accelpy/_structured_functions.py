"""NumPy's functions on structured arrays (records): concatenate and the stack family, where,
take, unique, sort and argsort with ``order=`` (decisions.md D88).

The core's functions take arrays of numbers only and refuse records with a TypeError
(src/python/convert.cpp). accelpy's functions call the core first and come here only after such
a refusal (`with_records`): a plain array pays one Python frame, never a look at its arguments.
Here every field is computed by the core on its own device, as a structured array's fields are
(accelpy._structured). NumPy decides what it allows (dtype promotion, shapes, axes) on
zero-size stand-ins of the arguments, so the exception types and messages are NumPy's."""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray
from ._records import RecordScalar, _is_void, _subshape
from ._structured import StructuredArray, from_numpy
from ._void import VoidArray
from ._void import asarray as void_asarray


def _is_records(value: Any) -> bool:
    if isinstance(value, (StructuredArray, RecordScalar)):
        return True
    return isinstance(value, (np.ndarray, np.void)) and _is_void(value.dtype)


def with_records(records_fn, module: str):
    """The function decorated, which calls the core's, or `records_fn` with the same arguments
    when the core refused one of them (or an item of a sequence argument) as records; a Python
    function of `module` (the chapter that exports it)."""

    def decorate(core_fn):
        @functools.wraps(core_fn)
        def fn(*args: Any, **kwargs: Any) -> Any:
            try:
                return core_fn(*args, **kwargs)
            except (TypeError, ValueError):  # sort's order= of records: ValueError
                values = [*args, *kwargs.values()]
                values += [v for a in args if isinstance(a, (list, tuple)) for v in a]
                if not any(_is_records(v) for v in values):
                    raise
            return records_fn(*args, **kwargs)

        fn.__module__ = module
        return fn

    return decorate


def _device(values: Any) -> Any:
    for v in values:
        if isinstance(v, (ndarray, StructuredArray)):
            return v.device
    return None


def as_records(value: Any, device: Any = None) -> Any:
    """A structured array of `value` (records as they are, a record as a 0-d array, NumPy's
    records copied to `device`); anything else is returned as it is, for NumPy to refuse."""
    if isinstance(value, StructuredArray):
        return value
    if isinstance(value, RecordScalar):
        return value._one()
    if isinstance(value, (np.ndarray, np.void)) and _is_void(value.dtype):
        if value.dtype.names is None:  # void bytes
            return void_asarray(np.asarray(value), device)
        return from_numpy(np.asarray(value), device)
    return value


def _stand_in(value: Any, shape: tuple | None = None) -> Any:
    """A NumPy array of value's dtype holding no memory (`shape`, or one of its own with no
    elements), on which NumPy's functions check and promote."""
    if not hasattr(value, "dtype"):
        value = np.asarray(value)
    shape = (0,) if shape is None else shape
    return np.broadcast_to(np.zeros((), value.dtype), shape)


def _combine(parts: list, dtype: np.dtype, fn) -> dict:
    """Per field of `dtype` (by position in each part): fn(arrays of that field, its dtype
    in `dtype`, its number of subarray axes) for numbers; nested records and fields kept on the
    host (NumPy arrays) come to fn too, fn telling them apart."""
    out = {}
    for i, name in enumerate(dtype.names):
        arrays = [list(p._fields.values())[i] for p in parts]
        out[name] = fn(arrays, dtype.fields[name][0].base, len(_subshape(dtype, name)))
    return out


def _cast(field: Any, base: np.dtype) -> Any:
    if isinstance(field, StructuredArray):
        return field if field.dtype == base else field.astype(base)
    if isinstance(field, np.ndarray):
        return field.astype(base, copy=False)
    return field.astype(base, copy=False) if base.names is None else field


# -- joining ---------------------------------------------------------------------------------


def concatenate(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Any:
    """numpy.concatenate of records: every field joined by the core along `axis`, cast to the
    fields of NumPy's promoted dtype (the same field names in the same order, else NumPy's
    TypeError)."""
    seq = list(arrays)
    if not seq:
        raise ValueError("need at least one array to concatenate")
    device = _device(seq)
    parts = [as_records(a, device) for a in seq]
    parts = [p if hasattr(p, "dtype") else np.asarray(p) for p in parts]
    if axis is None:
        parts = [p.reshape(-1) for p in parts]
        axis = 0
    # NumPy's checks and promotion on stand-ins whose joined axis is empty: its shape rules,
    # AxisError and dtype errors, without memory.
    stand = []
    for p in parts:
        shape = list(p.shape)
        if shape and isinstance(axis, (int, np.integer)) and -len(shape) <= axis < len(shape):
            shape[axis] = 0
        stand.append(_stand_in(p, tuple(shape)))
    like = np.concatenate(stand, axis=axis, dtype=dtype, casting=casting)
    if not all(isinstance(p, StructuredArray) for p in parts):  # NumPy joined records with
        raise TypeError("invalid type promotion with structured datatype(s).")  # numbers
    ax = operator.index(axis) % like.ndim
    shape = like.shape[:ax] + (sum(p.shape[ax] for p in parts),) + like.shape[ax + 1 :]
    if like.dtype.names is None:  # void records of one size (NumPy refuses others): bytes
        result = VoidArray.of_bytes(_core.concatenate([p._fields["f0"] for p in parts], axis=ax))
    else:
        result = StructuredArray._make(like.dtype, shape, _join(parts, like.dtype, ax))
    if out is not None:
        out[...] = result
        return out
    return result


def _join(parts: list, dtype: np.dtype, axis: int) -> dict:
    def join(arrays, base, k):
        arrays = [_cast(a, base) for a in arrays]
        if isinstance(arrays[0], StructuredArray) or base.names is not None:
            return concatenate(arrays, axis)
        if any(isinstance(a, np.ndarray) for a in arrays):
            return np.concatenate([_host(a) for a in arrays], axis=axis)
        return _core.concatenate(arrays, axis=axis)

    return _combine(parts, dtype, join)


def _host(value: Any) -> Any:
    return _core.asnumpy(value) if isinstance(value, ndarray) else np.asarray(value)


def stack(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Any:
    """numpy.stack of records: a new axis on each, then concatenate."""
    seq = list(arrays)
    if not seq:
        raise ValueError("need at least one array to stack")
    device = _device(seq)
    parts = [as_records(a, device) for a in seq]
    shapes = {tuple(getattr(p, "shape", np.shape(p))) for p in parts}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    ndim = len(shapes.pop())
    ax = np.lib.array_utils.normalize_axis_index(operator.index(axis), ndim + 1)
    key = (slice(None),) * ax + (None, Ellipsis)
    return concatenate([p[key] for p in parts], ax, out, dtype=dtype, casting=casting)


# -- choosing --------------------------------------------------------------------------------


def where(condition: Any, x: Any, y: Any) -> Any:
    """numpy.where(condition, x, y) with records: each field chosen by the core, broadcast as
    NumPy broadcasts the records (the condition spans a subarray field's axes)."""
    device = _device([x, y])
    x, y = as_records(x, device), as_records(y, device)
    like = np.where(True, _stand_in(x, (1,)), _stand_in(y, (1,)))  # NumPy's promotion
    cond = condition if isinstance(condition, ndarray) else asarray(condition, device=device)
    if not isinstance(x, StructuredArray) or not isinstance(y, StructuredArray):
        raise TypeError("invalid type promotion with structured datatype(s).")
    if like.dtype.names is None:  # void records of one size (NumPy refuses others): bytes
        chosen = _core.where(cond[..., None], x._fields["f0"], y._fields["f0"])
        return VoidArray.of_bytes(chosen)
    shape = np.broadcast_shapes(cond.shape, x.shape, y.shape)
    return StructuredArray._make(like.dtype, shape, _choose(cond, x, y, like.dtype))


def _choose(cond: ndarray, x: StructuredArray, y: StructuredArray, dtype: np.dtype) -> dict:
    def choose(arrays, base, k):
        fx, fy = (_cast(a, base) for a in arrays)
        if isinstance(fx, StructuredArray):
            return where(cond, fx, fy)
        c = cond.reshape(cond.shape + (1,) * k)
        if isinstance(fx, np.ndarray) or isinstance(fy, np.ndarray):  # kept on the host
            return np.where(_host(c), _host(fx), _host(fy))
        return _core.where(c, fx, fy)

    return _combine([x, y], dtype, choose)


def take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Any:
    """numpy.take of records: the records at `indices` along `axis` (the flattened array when
    None), every field indexed alike."""
    a = as_records(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    ax = np.lib.array_utils.normalize_axis_index(operator.index(axis), a.ndim)
    idx = indices if isinstance(indices, ndarray) else asarray(indices, device=a.device)
    n = a.shape[ax]
    if mode == "wrap" and n:
        idx = idx % n
    elif mode == "clip":
        idx = _core.minimum(_core.maximum(idx, 0), max(n - 1, 0))
    elif mode not in ("raise", "wrap"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    result = a[(slice(None),) * ax + (idx, Ellipsis)]
    if out is not None:
        out[...] = result
        return out
    return result


# -- sorting and sets ------------------------------------------------------------------------


def sort(
    a: Any,
    axis: Any = -1,
    kind: Any = None,
    order: Any = None,
    *,
    stable: Any = None,
    descending: bool = False,
) -> Any:
    """numpy.sort of records: a sorted copy (by the fields of `order`, then the rest)."""
    _ascending_only(descending)
    a = as_records(a)
    out = a.reshape(-1).copy() if axis is None else a.copy()
    out.sort(-1 if axis is None else axis, kind, order)
    return out


def argsort(
    a: Any,
    axis: Any = -1,
    kind: Any = None,
    order: Any = None,
    *,
    stable: Any = None,
    descending: bool = False,
) -> Any:
    """numpy.argsort of records (by the fields of `order`, then the rest; stable)."""
    _ascending_only(descending)
    return as_records(a).argsort(axis, kind, order)


def _ascending_only(descending: bool) -> None:
    if descending:  # the Array API's, which has no records
        raise ValueError("descending=True is not supported for structured arrays")


def unique(
    ar: Any,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: Any = None,
    *,
    equal_nan: bool = True,
    sorted: bool = True,
) -> Any:
    """numpy.unique of records: sorted in NumPy's order of records (field by field in the
    dtype's order; a subarray or void field by its bytes), equal records (every field ==, so
    NaN never equals and -0.0 equals 0.0, as NumPy) collapsed; index, inverse and counts as
    NumPy returns them. Along an axis, NumPy computes it on the host."""
    a = as_records(ar)
    if axis is not None:
        found = np.unique(
            a.get(), return_index, return_inverse, return_counts, axis, equal_nan=equal_nan
        )
        found = found if isinstance(found, tuple) else (found,)
        return _results(
            [as_records(found[0], a.device)] + [asarray(f, device=a.device) for f in found[1:]]
        )
    flat = a.reshape(-1)
    n = flat.size
    perm = flat.argsort(-1)  # stable: the first of equal records first, as NumPy's mergesort
    ordered = flat[perm]
    first = _core.ones((min(n, 1),), np.bool_, device=a.device)
    if n > 1:
        first = _core.concatenate([first, ordered[1:] != ordered[:-1]], axis=0)
    out = [ordered[first]]
    if return_index:
        out.append(perm[first])
    if return_inverse:
        group = _core.cumsum(first.astype(np.int64), axis=0) - 1
        inverse = _core.empty((n,), np.int64, device=a.device)
        inverse[perm] = group
        out.append(inverse.reshape(a.shape))
    if return_counts:
        starts = _core.flatnonzero(first)
        ends = _core.concatenate([starts[1:], asarray([n], device=a.device)], axis=0)
        out.append(ends - starts)
    return _results(out)


def _results(out: list) -> Any:
    return out[0] if len(out) == 1 else tuple(out)
