"""accelpy's dtypes: NumPy's own dtype objects, plus bfloat16 from ml_dtypes.

Using NumPy's dtypes means ``x.dtype == np.float32`` works and every dtype spelling NumPy
accepts (``"f4"``, ``np.float32``, ``float``) works here too.

ml_dtypes is imported on first use of bfloat16 (``ap.bfloat16``, a bfloat16 array or dtype
reaching accelpy), not at ``import accelpy``: importing it took 2/3 of accelpy's import time.
A NumPy bfloat16 dtype exists only once ml_dtypes is imported, so nothing is missed by waiting.
"""

from __future__ import annotations

import sys
from builtins import bool as _builtin_bool
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    ndarray,
    promote_types,
)

if TYPE_CHECKING:
    from ._core import DTypeLike

    _Kind = str | DTypeLike | tuple[str | DTypeLike, ...]

__all__ = [
    "bool",
    "complex128",
    "complex64",
    "finfo",
    "float16",
    "float32",
    "float64",
    "iinfo",
    "int16",
    "int32",
    "int64",
    "int8",
    "isdtype",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "result_type",
    "astype",
    "can_cast",
    "promote_types",
    *("double", "single", "half", "int_", "intp", "uintp", "bool_", "cdouble", "csingle",
      "longlong", "ulonglong", "short", "ushort", "intc", "uintc", "byte", "ubyte", "longdouble",
      "clongdouble", "dtype", "issubdtype", "generic", "number", "integer", "signedinteger",
      "unsignedinteger", "inexact", "floating", "complexfloating"),
    *("long", "ulong", "uint", "True_", "False_", "ScalarType", "typecodes", "little_endian",
      "common_type", "min_scalar_type", "mintypecode", "typename"),
    *("str_", "bytes_", "void", "record"),
]

bool = np.bool_  # noqa: A001 - NumPy's name
int8 = np.int8
int16 = np.int16
int32 = np.int32
int64 = np.int64
uint8 = np.uint8
uint16 = np.uint16
uint32 = np.uint32
uint64 = np.uint64
float16 = np.float16
float32 = np.float32
float64 = np.float64
complex64 = np.complex64
complex128 = np.complex128

# NumPy's C-named aliases and abstract types: NumPy's own objects, so ``x.dtype == ap.double``
# and ``ap.issubdtype(x.dtype, ap.floating)`` work. longdouble and clongdouble are not dtypes
# accelpy stores (an array of them raises TypeError naming the dtype); they are here so that
# comparisons with them work.
double, single, half = np.double, np.single, np.half
int_, intp, uintp, bool_ = np.int_, np.intp, np.uintp, np.bool_
cdouble, csingle = np.cdouble, np.csingle
longlong, ulonglong, short, ushort = np.longlong, np.ulonglong, np.short, np.ushort
intc, uintc, byte, ubyte = np.intc, np.uintc, np.byte, np.ubyte
longdouble, clongdouble = np.longdouble, np.clongdouble
long, ulong, uint = np.long, np.ulong, np.uint
True_, False_ = np.True_, np.False_
ScalarType, typecodes, little_endian = np.ScalarType, np.typecodes, np.little_endian
dtype = np.dtype
# The scalar types of fields of records (structured arrays keep string fields on the host,
# accelpy._structured), so that dtype specs such as (np.str_, 10) are written as in NumPy.
str_, bytes_, void, record = np.str_, np.bytes_, np.void, np.record
issubdtype = np.issubdtype
# Data type routines of Python values and type codes: NumPy's own.
mintypecode, typename = np.mintypecode, np.typename


def astype(x: Any, dtype: Any, /, *, copy: _builtin_bool = True, device: Any = None) -> Any:
    """x converted to dtype (numpy.astype, the Array API's): with copy=False, x itself where
    it has that dtype already; `device` puts the result there."""
    if not copy and isinstance(x, _core.ndarray) and x.dtype == np.dtype(dtype) and (
            device is None or x.device == _core.Device(device)):
        return x
    out = _core.astype(x, dtype, copy=copy)
    return out if device is None else out.to_device(device)


def can_cast(from_: Any, to: Any, casting: str = "safe") -> _builtin_bool:
    """Whether a cast is allowed under a casting rule (numpy.can_cast). For dtypes accelpy does
    not store (strings, objects, datetimes) the question is still one about dtypes, and NumPy's
    answer is given (programs tabulate ``can_cast`` over ``typecodes['All']``)."""
    try:
        return _core.can_cast(from_, to, casting)
    except TypeError:
        return np.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def common_type(*arrays: Any) -> type:
    """The inexact scalar type common to the arrays' dtypes, integers counting as float64
    (numpy.common_type); NumPy decides it from empty stand-ins of the dtypes."""
    return np.common_type(*(np.empty(0, dtype=np.asarray(a).dtype if not hasattr(a, "dtype")
                                     else a.dtype) for a in arrays))


def min_scalar_type(a: Any, /) -> np.dtype[Any]:
    """The smallest dtype that holds the scalar `a` (numpy.min_scalar_type); an array's own
    dtype unless it is 0-d, whose value NumPy reads as a scalar's."""
    if hasattr(a, "__array_namespace__") and hasattr(a, "ndim"):  # an accelpy array
        if a.ndim:
            return a.dtype
        return np.min_scalar_type(np.asarray(a.item(), dtype=a.dtype))
    return np.min_scalar_type(a)
generic, number, integer, inexact = np.generic, np.number, np.integer, np.inexact
signedinteger, unsignedinteger = np.signedinteger, np.unsignedinteger
floating, complexfloating = np.floating, np.complexfloating

# In the core's DType order (NumPy's loop order); None where bfloat16 goes until it is loaded.
_EAGER = (bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
          float16, None, float32, float64, complex64, complex128)
_SUPPORTED = {np.dtype(t) for t in _EAGER if t is not None}


def load_bfloat16():
    """Imports ml_dtypes and returns the bfloat16 dtype (the core calls this on first need)."""
    import ml_dtypes

    dt = np.dtype(ml_dtypes.bfloat16)
    _SUPPORTED.add(dt)
    return dt


def eager_dtypes():
    """The dtype objects the core starts with, bfloat16's place None (see load_bfloat16)."""
    return [None if t is None else np.dtype(t) for t in _EAGER]


def supported(dt: np.dtype[Any]) -> _builtin_bool:
    """Whether a NumPy dtype is one accelpy stores."""
    if dt in _SUPPORTED:
        return True
    return "ml_dtypes" in sys.modules and load_bfloat16() == dt


def __getattr__(name):
    # bfloat16 and the tables holding it load ml_dtypes on first access.
    if name == "bfloat16":
        return load_bfloat16().type
    if name == "ALL":
        return tuple(load_bfloat16().type if t is None else t for t in _EAGER)
    if name == "DTYPES":
        return tuple(np.dtype(t) for t in __getattr__("ALL"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _is_bf16(d):
    # A bfloat16 dtype exists only once ml_dtypes is imported; compare without importing it.
    return d.name == "bfloat16" and supported(d)


_KINDS = {
    "bool": lambda d: d.kind == "b",
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f" or _is_bf16(d),
    "complex floating": lambda d: d.kind == "c",
    "numeric": lambda d: d.kind in "iufc" or _is_bf16(d),
}


def _dtype(x):
    """The dtype of a dtype-like or of an array (accelpy, NumPy or another)."""
    if isinstance(x, _core.ndarray) or (hasattr(x, "dtype") and not isinstance(x, type)
                                        and not isinstance(x, np.dtype)):
        return np.dtype(x.dtype)
    return np.dtype(x)


def isdtype(dtype: DTypeLike, kind: _Kind) -> _builtin_bool:
    """Whether `dtype` is of `kind`: a dtype, a kind name ('bool', 'signed integer',
    'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric') or a tuple
    of them (Array API isdtype). bfloat16 is a real floating dtype."""
    if isinstance(dtype, _core.ndarray):
        raise TypeError("isdtype: the first argument must be a dtype, not an array (use x.dtype)")
    dt = np.dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        try:
            return _KINDS[kind](dt)
        except KeyError:
            raise ValueError(f"isdtype: unknown kind {kind!r}; expected one of "
                             f"{', '.join(map(repr, _KINDS))}, a dtype or a tuple") from None
    return dt == np.dtype(kind)


class _Limits:
    """A frozen record of named values, compared and hashed by them. (Not a dataclass: importing
    dataclasses took a sixth of accelpy's own import time.)"""

    __slots__ = ()

    def __init__(self, **values):
        for name in self.__slots__:
            object.__setattr__(self, name, values.pop(name))
        if values:
            raise TypeError(f"{type(self).__name__}: unexpected fields {sorted(values)}")

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r}: {type(self).__name__} is frozen")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field {name!r}: {type(self).__name__} is frozen")

    def _values(self):
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other):
        return type(other) is type(self) and other._values() == self._values()

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


class finfo_object(_Limits):
    """Machine limits of a floating dtype, as Python floats (Array API finfo): bits, eps, max,
    min, smallest_normal, dtype."""

    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "dtype")
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: np.dtype[Any]


class iinfo_object(_Limits):
    """Machine limits of an integer dtype, as Python ints (Array API iinfo): bits, max, min,
    dtype."""

    __slots__ = ("bits", "max", "min", "dtype")
    bits: int
    max: int
    min: int
    dtype: np.dtype[Any]


def finfo(type: DTypeLike | ndarray) -> finfo_object:
    """Limits of a floating dtype (or of an array's): bits, eps, max, min, smallest_normal,
    dtype. For complex dtypes, those of their real parts; bfloat16 via ml_dtypes."""
    dt = _dtype(type)
    if dt.kind == "c":
        dt = np.dtype(np.float32 if dt == np.complex64 else np.float64)
    if _is_bf16(dt):
        import ml_dtypes  # loaded already (a bfloat16 dtype exists); lazy as load_bfloat16

        info = ml_dtypes.finfo(dt.type)
    elif dt.kind == "f":
        info = np.finfo(dt)
    else:
        raise ValueError(f"finfo: {dt} is not a floating dtype (use iinfo for integers)")
    return finfo_object(bits=int(info.bits), eps=float(info.eps), max=float(info.max),
                        min=float(info.min), smallest_normal=float(info.smallest_normal),
                        dtype=dt)


def iinfo(type: DTypeLike | ndarray) -> iinfo_object:
    """Limits of an integer dtype (or of an array's): bits, max, min, dtype."""
    dt = _dtype(type)
    if dt.kind not in "iu":
        raise ValueError(f"iinfo: {dt} is not an integer dtype (use finfo for floats)")
    info = np.iinfo(dt)
    return iinfo_object(bits=int(info.bits), max=int(info.max), min=int(info.min), dtype=dt)



def result_type(*arrays_and_dtypes: Any) -> np.dtype[Any]:
    """The dtype NumPy's promotion rules give these arrays, dtypes and scalars
    (numpy.result_type), the core's rules (which know bfloat16); records (structured dtypes and
    arrays, which the core does not promote) by NumPy's own rule."""
    try:
        return _core.result_type(*arrays_and_dtypes)
    except TypeError:
        if not any(_records(v) for v in arrays_and_dtypes):
            raise
        return np.result_type(*(v if isinstance(v, (np.ndarray, np.generic)) else
                                getattr(v, "dtype", v) for v in arrays_and_dtypes))


def _records(value: Any) -> bool:
    """Whether `value` is a structured dtype or an array of records."""
    dt = getattr(value, "dtype", value)
    try:
        return np.dtype(dt).names is not None
    except (TypeError, ValueError):
        return False


def promoted_dtype(*values: Any) -> np.dtype[Any]:
    """NumPy's promotion of these arrays, dtypes and scalars, asked of the core (which knows
    bfloat16); a NumPy array counts as its dtype, as it does for NumPy (never a weak scalar)."""
    return _core.result_type(*(v.dtype if isinstance(v, np.ndarray) else v for v in values))

# The core needs the dtype objects before any array exists (bfloat16's is loaded on first use).
_core._set_dtypes(eager_dtypes(), load_bfloat16)
