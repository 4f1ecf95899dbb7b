"""Structured arrays (NumPy's reference: "Structured arrays"): arrays of records with named
fields, as ``numpy.zeros(n, [('U', 'f8'), ('V', 'f8')])`` makes them.

accelpy keeps a structured array as a struct of arrays: one accelpy array per field, of the
array's shape followed by the field's subarray shape, on the array's device (decisions.md D82).
The core's arrays count strides in elements, so NumPy's packed record (a float64 at byte 4 of a
12-byte record) cannot be a view of one storage; a field of its own is, and ``Z['U']`` returns
that array itself, so its writes are the record array's. Indexing, slicing, reshaping and
copying apply to every field alike; ``x[i]`` is a `RecordScalar` (_records.py). A nested
structured field is a structured array of its own; a field of a dtype accelpy does not store
(strings, objects, dates) stays a NumPy array on the host. NumPy's packed layout is made for
NumPy's bytes only (``np.asarray(x)``, ``get()``, ``tobytes()``, printing; views of the bytes as
another dtype: _structured_views.py). NumPy's order of records (sort and argsort by fields)
is _structured_order.py. What NumPy refuses on records (arithmetic, ordering) is tried on empty
NumPy stand-ins: NumPy's own error."""

from __future__ import annotations

import builtins
import operator
from typing import Any

import numpy as np

from . import _core, _structured_order
from ._core import ndarray
from ._records import (
    RecordScalar,
    _reshaped,
    _shape,
    _shape_only,
    _stored_dtype,
    _subshape,
)

__all__ = ["RecordScalar", "StructuredArray"]


def structured_dtype(dtype: Any) -> np.dtype | None:
    """NumPy's dtype for `dtype` when it describes records (a list of tuples, a dict of names
    and formats, 'i4,f8', a structured np.dtype), else None. A spec NumPy refuses raises
    NumPy's error (a field named twice: ValueError)."""
    if dtype is None:
        return None
    dt = np.dtype(dtype)
    return dt if dt.names is not None else None


def _field_zeros(base: np.dtype, shape: tuple, device: Any) -> Any:
    if base.names is not None:
        return zeros(shape, base, device=device)
    stored = _stored_dtype(base)
    if stored is None:
        return np.zeros(shape, base)
    return _core.zeros(shape, stored, device=device)


def zeros(shape: Any, dtype: Any, *, device: Any = None) -> StructuredArray:
    """Records of zeros (numpy.zeros with a structured dtype)."""
    dtype, shape = np.dtype(dtype), _shape(shape)
    fields = {
        name: _field_zeros(dtype.fields[name][0].base, shape + _subshape(dtype, name), device)
        for name in dtype.names
    }
    return StructuredArray._make(dtype, shape, fields)


def full(shape: Any, fill_value: Any, dtype: Any, *, device: Any = None) -> StructuredArray:
    """Records all equal to `fill_value` (a tuple, a record or one value for every field), as
    numpy.full; numpy.ones is full(..., 1)."""
    out = zeros(shape, dtype, device=device)
    out[...] = fill_value
    return out


def from_numpy(arr: np.ndarray, device: Any = None) -> StructuredArray:
    """A NumPy structured array copied field by field to accelpy (the fields of packed records
    are strided in bytes: each is copied into an array of its own)."""
    fields = {}
    for name in arr.dtype.names:
        values = arr[name]
        base = values.dtype
        if base.names is not None:
            fields[name] = from_numpy(values, device)
        elif (stored := _stored_dtype(base)) is None:
            fields[name] = np.array(values, copy=True, order="C")
        else:
            host = np.array(values, dtype=stored, order="C", copy=True)  # 0-d stays 0-d
            fields[name] = _core._from_numpy(host, None, device, None, True)
    return StructuredArray._make(arr.dtype, arr.shape, fields)


def asarray(obj: Any, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Any:
    """numpy.asarray for records: a structured array as it is (moved, cast or copied as asked),
    anything else converted by NumPy (tuples, lists of tuples, NumPy structured arrays)."""
    if isinstance(obj, StructuredArray):
        out = obj
        if dtype is not None and np.dtype(dtype) != obj.dtype:
            out = out.astype(dtype)
        if device is not None and out.device != device:
            out = out.to(device)
        if copy and out is obj:
            out = obj.copy()
        elif copy is False and out is not obj:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return out
    if copy is False:
        raise ValueError(
            "Unable to avoid copy while creating an array as requested: accelpy "
            "stores a structured array field by field."
        )
    return from_numpy(np.asarray(obj, dtype=dtype), device)


def _numpy_stand_in(value: Any) -> Any:
    """An empty-valued NumPy object of `value`'s dtype, on which NumPy decides whether an
    operation is allowed and raises its own exception when it is not."""
    if isinstance(value, (StructuredArray, ndarray, np.ndarray)):
        return np.zeros(1, value.dtype)
    if isinstance(value, RecordScalar):
        return np.zeros((), value.dtype)[()]
    return value


def _refuse(ufunc: np.ufunc, *operands: Any) -> None:
    """Raises what NumPy raises for ufunc(*operands) with records (UFuncTypeError...)."""
    ufunc(*map(_numpy_stand_in, operands))
    raise TypeError(f"ufunc '{ufunc.__name__}' is not supported for structured arrays")


def _is_scalar_key(key: tuple, ndim: int) -> bool:
    return len(key) == ndim and all(
        isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) for k in key
    )


def _indexed_dims(key: tuple) -> int:
    """How many of the array's dimensions `key` consumes (None and ... consume none)."""
    count = 0
    for k in key:
        if k is None or k is Ellipsis:
            continue
        if isinstance(k, (ndarray, np.ndarray)) and k.dtype == np.bool_:
            count += max(k.ndim, 1)
        else:
            count += 1
    return count


class StructuredArray:
    """An array of records: one accelpy array per field (see the module's docstring). Made by
    accelpy's zeros, empty, ones, full, array and asarray given a structured dtype."""

    # _parent: the array a multi-field index selected from (its other fields are the bytes
    # between these, for views of bytes: _structured_views.py); False once indexed further.
    __slots__ = ("_dtype", "_shape", "_fields", "_parent", "__weakref__")
    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def _make(cls, dtype: np.dtype, shape: tuple, fields: dict) -> StructuredArray:
        self = object.__new__(cls)
        self._dtype, self._shape, self._fields = dtype, tuple(shape), fields
        self._parent = None
        return self

    def _like(self, dtype: np.dtype, shape: tuple, fields: dict) -> StructuredArray:
        out = type(self)._make(dtype, shape, fields)
        out._parent = None if self._parent is None else False
        return out

    _record_type = RecordScalar  # x[i]'s type (accelpy.rec's recarray makes its own)

    def _set_field(self, name: str, key: tuple, value: Any) -> None:  # a record's r[name] = v
        _assign(self._field(name), key, value)

    # -- attributes ----------------------------------------------------------------------------
    dtype = property(lambda self: self._dtype, doc="The records' NumPy dtype.")
    shape = property(lambda self: self._shape)
    ndim = property(lambda self: len(self._shape))
    size = property(lambda self: int(np.prod(self._shape, dtype=np.int64)))
    itemsize = property(lambda self: self._dtype.itemsize)
    nbytes = property(lambda self: self.size * self._dtype.itemsize)

    @property
    def device(self) -> Any:
        """The device of the fields accelpy stores (the CPU when every field is on the host)."""
        for f in self._fields.values():
            if isinstance(f, (ndarray, StructuredArray)):
                return f.device
        return _core.Device("cpu")

    @property
    def T(self) -> StructuredArray:
        return self.transpose()

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._shape[0]))

    # -- fields --------------------------------------------------------------------------------
    def _field(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise ValueError(f"no field of name {name}") from None

    def _multi(self, names: list) -> StructuredArray:
        for name in names:
            if name not in self._fields:
                raise KeyError(name)
        dtype = np.zeros(0, self._dtype)[list(names)].dtype
        out = self._like(dtype, self._shape, {n: self._fields[n] for n in names})
        out._parent = self
        return out

    def _per_field(self, fn) -> dict:
        """fn(field array, number of subarray axes) for every field."""
        return {n: fn(f, len(_subshape(self._dtype, n))) for n, f in self._fields.items()}

    def _index(self, key: tuple) -> Any:
        if _indexed_dims(key) > self.ndim:
            raise IndexError(
                f"too many indices for array: array is {self.ndim}-dimensional, "
                f"but {_indexed_dims(key)} were indexed"
            )
        host = None

        def index(f: Any, k: int) -> Any:
            nonlocal host
            if isinstance(f, np.ndarray):  # a field on the host: the key read back once
                host = _host_key(key) if host is None else host
                return f[host + (slice(None),) * k]
            return f[key + (slice(None),) * k]

        fields = self._per_field(index)
        if not fields:  # records of no fields (np.dtype([])): the shape alone
            return self._like(self._dtype, _shape_only(self._shape)[_host_key(key)].shape, {})
        name = self._dtype.names[0]
        first, k = fields[name], len(_subshape(self._dtype, name))
        return self._like(self._dtype, first.shape[: first.ndim - k], fields)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return self._field(key)
        if isinstance(key, list) and key and all(isinstance(k, str) for k in key):
            return self._multi(key)
        key = key if isinstance(key, tuple) else (key,)
        if _is_scalar_key(key, self.ndim):
            for axis, (i, n) in enumerate(zip(key, self._shape, strict=True)):
                if not -n <= i < n:
                    raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
            return self._record_type(
                self, tuple(int(i) % n for i, n in zip(key, self._shape, strict=True))
            )
        return self._index(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        if isinstance(key, str):
            _assign(self._field(key), (Ellipsis,), value)
            return
        if isinstance(key, list) and key and all(isinstance(k, str) for k in key):
            self._multi(key)[...] = value
            return
        key = key if isinstance(key, tuple) else (key,)
        if _indexed_dims(key) > self.ndim:
            raise IndexError(
                f"too many indices for array: array is {self.ndim}-dimensional, "
                f"but {_indexed_dims(key)} were indexed"
            )
        parts = _parts(value, self._dtype)
        if isinstance(value, (StructuredArray, RecordScalar)):
            # Records assigned from records may read fields written earlier in the loop
            # (x[['a', 'c']] = x[['c', 'a']] swaps them in NumPy): each part is read first.
            parts = [
                p.copy() if isinstance(p, (ndarray, np.ndarray, StructuredArray)) else p
                for p in parts
            ]
        for (name, f), part in zip(self._fields.items(), parts, strict=True):
            k = len(_subshape(self._dtype, name))
            _assign(f, key + (slice(None),) * k, part)

    # -- NumPy's bytes -------------------------------------------------------------------------
    def _pack(self) -> np.ndarray:
        """NumPy's packed records of these fields, read back from the device."""
        out = np.zeros(self._shape, self._dtype)  # bytes between fields zero, not garbage
        for name, f in self._fields.items():
            if isinstance(f, StructuredArray):
                f = f._pack()
            elif isinstance(f, ndarray):
                f = _core.asnumpy(f)
            out[name] = f
        return out

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if copy is False:  # the packed layout is always a new array
            raise ValueError("Unable to avoid copy: accelpy keeps records field by field")
        out = self._pack()
        return out if dtype is None else out.astype(dtype)

    def get(self) -> np.ndarray:
        """The records as a NumPy structured array, NumPy's packed layout (CuPy's get)."""
        return self._pack()

    def tolist(self) -> Any:
        return self._pack().tolist()

    def item(self, *args: Any) -> Any:
        return self._pack().item(*args)

    def tobytes(self, order: str = "C") -> bytes:
        return self._pack().tobytes(order)

    def __repr__(self) -> str:
        return repr(self._pack())

    def __str__(self) -> str:
        return str(self._pack())

    # -- shape and copies, every field alike ---------------------------------------------------
    def copy(self, order: str = "C") -> StructuredArray:
        return self._like(self._dtype, self._shape, {n: f.copy() for n, f in self._fields.items()})

    def reshape(self, *shape: Any, order: str = "C") -> StructuredArray:
        shape = (
            shape[0] if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)) else shape
        )
        new = _reshaped(self._shape, shape, order)
        fields = self._per_field(lambda f, k: f.reshape(new + f.shape[f.ndim - k :], order=order))
        return self._like(self._dtype, new, fields)

    def ravel(self, order: str = "C") -> StructuredArray:
        return self.reshape(-1, order=order)

    def flatten(self, order: str = "C") -> StructuredArray:
        return self.reshape(-1, order=order).copy()

    def transpose(self, *axes: Any) -> StructuredArray:
        if len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
            axes = axes[0]
        nd = self.ndim
        axes = (
            tuple(range(nd))[::-1]
            if axes in ((), None)
            else tuple(operator.index(a) % nd if -nd <= a < nd else a for a in axes)
        )
        new = _shape_only(self._shape).transpose(axes).shape
        fields = self._per_field(lambda f, k: f.transpose(axes + tuple(range(nd, nd + k))))
        return self._like(self._dtype, new, fields)

    def squeeze(self, axis: Any = None) -> StructuredArray:
        shape = _shape_only(self._shape).squeeze(axis).shape
        return self.reshape(shape)

    def fill(self, value: Any) -> None:
        self[...] = value

    def to(self, device: Any) -> StructuredArray:
        """The records on `device` (each field the accelpy stores moved; host fields copied)."""
        fields = {
            n: f.to(device) if isinstance(f, (ndarray, StructuredArray)) else f.copy()
            for n, f in self._fields.items()
        }
        return self._like(self._dtype, self._shape, fields)

    def astype(
        self,
        dtype: Any,
        order: str = "K",
        casting: str = "unsafe",
        subok: bool = True,
        copy: bool = True,
    ) -> Any:
        """Records cast to another structured dtype field by field, by position, as NumPy
        assigns them; to a plain dtype NumPy raises (tried on a stand-in)."""
        target = np.dtype(dtype)
        np.zeros(1, self._dtype).astype(target, casting=casting)  # NumPy's refusal, if any
        if target.names is None or len(target.names) != len(self._dtype.names):
            raise TypeError(f"accelpy casts records to records of as many fields, not {target}")
        if target == self._dtype:
            return self.copy() if copy else self
        out = zeros(self._shape, target, device=self.device)
        out[...] = self
        return out

    def view(self, dtype: Any = None, type: Any = None) -> Any:
        """A view as `type` (numpy.recarray or accelpy's recarray: attribute access to the
        fields, NumPy's record dtype; ndarray: a plain structured array) with this dtype or an
        equal one (``np.dtype((np.record, x.dtype))``, ``x.dtype.fields``). As another dtype, the
        records' bytes are packed on the device into a new buffer read as that dtype: NumPy's
        values, read-only (_structured_views.py); NumPy's own error where it refuses."""
        if (
            type is None
            and isinstance(dtype, builtins.type)
            and (issubclass(dtype, (np.ndarray, ndarray, StructuredArray)))
        ):
            dtype, type = None, dtype
        new = self.dtype if dtype is None else np.dtype(dtype)
        if new != self.dtype:
            return BYTE_VIEWS["records"](self, new)
        cls = VIEW_TYPES.get(type, type)
        if isinstance(cls, builtins.type) and issubclass(cls, StructuredArray):
            if cls is not StructuredArray and new.type is not np.record:
                new = np.dtype((np.record, new))  # as numpy.recarray's views
        elif type is not None:  # ndarray: a plain structured array
            cls = StructuredArray
        else:
            cls = builtins.type(self)
        out = cls._make(new, self._shape, self._fields)
        out._parent = self._parent  # the same bytes
        return out

    # -- comparisons and refused operations ----------------------------------------------------
    def _compare(self, other: Any, op: Any) -> Any:
        result = op(np.zeros(1, self._dtype), _numpy_stand_in(other))  # NumPy's checks
        if result is NotImplemented or not isinstance(result, np.ndarray):
            return result
        if isinstance(other, RecordScalar):
            other = other._one()
        if not isinstance(other, StructuredArray):
            other = asarray(other, device=self.device)
        equal = None
        for (name, f), g in zip(self._fields.items(), other._fields.values(), strict=True):
            k = len(_subshape(self._dtype, name))
            same = f == g
            if isinstance(same, np.ndarray):
                same = _core._from_numpy(np.ascontiguousarray(same), None, self.device, None, True)
            if k:
                same = same.all(axis=tuple(range(same.ndim - k, same.ndim)))
            equal = same if equal is None else equal & same
        return equal if op is operator.eq else ~equal

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return self._compare(other, operator.eq)

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return self._compare(other, operator.ne)

    def __lt__(self, other):
        _refuse(np.less, self, other)

    def __le__(self, other):
        _refuse(np.less_equal, self, other)

    def __gt__(self, other):
        _refuse(np.greater, self, other)

    def __ge__(self, other):
        _refuse(np.greater_equal, self, other)

    def __add__(self, other):
        _refuse(np.add, self, other)

    def __radd__(self, other):
        _refuse(np.add, other, self)

    def __sub__(self, other):
        _refuse(np.subtract, self, other)

    def __rsub__(self, other):
        _refuse(np.subtract, other, self)

    def __mul__(self, other):
        _refuse(np.multiply, self, other)

    def __rmul__(self, other):
        _refuse(np.multiply, other, self)

    def __truediv__(self, other):
        _refuse(np.true_divide, self, other)

    def __neg__(self):
        _refuse(np.negative, self)

    def __abs__(self):
        _refuse(np.absolute, self)

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is "
                "ambiguous. Use a.any() or a.all()"
            )
        return bool(self._pack())

    def sum(self, *args: Any, **kwargs: Any):
        _refuse(np.add, self, self)

    def argsort(self, axis: Any = -1, kind: Any = None, order: Any = None) -> ndarray:
        """The indices that sort the records along `axis` (numpy.argsort with `order`): by
        the fields of `order` first, then the rest; stable (_structured_order.py)."""
        return _structured_order.argsort(self, axis, kind, order)

    def sort(self, axis: Any = -1, kind: Any = None, order: Any = None) -> None:
        """Sorts the records in place (ndarray.sort with `order`), every field alike."""
        _structured_order.sort(self, axis, kind, order)


# NumPy's ndarray subclasses -> accelpy's, for x.view(np.recarray): accelpy.rec registers its
# recarray (it imports this module, so this module cannot import it).
VIEW_TYPES: dict[type, type] = {}
# x.view(another dtype): _structured_views registers its function (it imports this module).
BYTE_VIEWS: dict[str, Any] = {}


def _host(value: Any) -> Any:
    """An accelpy value as NumPy's, read back from its device (for fields on the host)."""
    if isinstance(value, ndarray):
        return _core.asnumpy(value)
    if isinstance(value, StructuredArray):
        return value.get()
    return value


def _host_key(key: tuple) -> tuple:
    """An index whose accelpy arrays (masks, positions) are read back: a field on the host is
    a NumPy array, indexed by NumPy values."""
    return tuple(_host(k) for k in key)


def _assign(target: Any, key: tuple, value: Any) -> None:
    """target[key] = value for one field: an accelpy array, a NumPy array (fields accelpy does
    not store) or a nested structured array."""
    if isinstance(target, np.ndarray):
        target[_host_key(key)] = _host(value)
    elif isinstance(target, StructuredArray) or not isinstance(value, StructuredArray):
        if isinstance(value, (str, bytes)) and isinstance(target, ndarray):
            value = np.asarray(value).astype(target.dtype)  # NumPy parses it, or ValueError
        target[key] = value
    else:
        np.zeros(1, target.dtype)[...] = np.zeros(1, value.dtype)  # NumPy's refusal
        raise TypeError(f"cannot assign records of {value.dtype} to a field of {target.dtype}")


def _parts(value: Any, dtype: np.dtype) -> list:
    """The value each field of `dtype` gets from an assigned `value`: records by position
    (tuples, records, structured arrays of as many fields), one value for every field."""
    n = len(dtype.names)
    if isinstance(value, RecordScalar):
        if len(value) != n:
            np.zeros(1, dtype)[...] = value._numpy()  # NumPy's ValueError
        return [f[value._index] for f in value._array._fields.values()]
    if isinstance(value, StructuredArray):
        if len(value._fields) != n:
            np.zeros(1, dtype)[...] = np.zeros(1, value.dtype)  # NumPy's ValueError
        return list(value._fields.values())
    if isinstance(value, np.void) or (isinstance(value, np.ndarray) and value.dtype.names):
        if len(value.dtype.names) != n:
            np.zeros(1, dtype)[...] = value
        return [value[name] for name in value.dtype.names]
    if isinstance(value, tuple):
        if len(value) != n:
            raise ValueError(
                f"could not assign tuple of length {len(value)} to structure with {n} fields."
            )
        return list(value)
    if isinstance(value, list):
        return _parts(np.asarray(value, dtype=dtype), dtype)
    return [value] * n
