"""Array creation (NumPy's reference: "Array creation routines"): from shape or value (empty,
zeros, ones, full, eye, identity and their *_like), from Python objects and other arrays (asarray,
array, asanyarray, ascontiguousarray, from_dlpack, fromfunction, fromiter), indices, and arange
(the core's). Numerical ranges are in _ranges.py, building matrices in _matrices.py.

Ranges and matrices are lazy expressions that fuse with their consumers: ``tril(a) * 2`` is
one kernel over a (the mask comes from two aranges)."""

from __future__ import annotations

import inspect
import operator
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core, _huge_ints, _structured, _void

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    ndarray,
)
from ._dtypes import supported
from ._interop import (
    asarray_foreign,
    dlpack_consumer_stream,
    dlpack_export,
    dlpack_source_device,
    finish_import,
    is_foreign_array,
)
from ._records import _is_void
from ._unreferenced import unreferenced
from ._util import prepend_axes

if TYPE_CHECKING:
    from ._core import ArrayLike, DeviceLike, DTypeLike, ShapeLike


def copy(a: ArrayLike, order: str = "K", subok: bool = False) -> ndarray:
    """A copy of the array, in new memory (numpy.copy): by default in a's memory order;
    records (a structured array, accelpy._structured) field by field."""
    try:
        return _core.copy(a, order)
    except TypeError:
        if not isinstance(a, (_structured.StructuredArray, _structured.RecordScalar)):
            raise
    return _structured.asarray(a, copy=True)


def empty(shape: ShapeLike, dtype: DTypeLike | None = None, order: str = "C", *,
          device: DeviceLike | None = None) -> ndarray:
    """An array of unspecified values (numpy.empty). A structured dtype (records with named
    fields) gives a structured array (accelpy._structured), its fields zeroed; a void dtype
    ('V8') a void array (accelpy._void) of zero bytes."""
    try:
        return _core.empty(shape, dtype, order, device=device)
    except TypeError:
        if (out := _records(shape, dtype, None, device)) is None:
            raise  # not records: the core's error
        return out


def ndarray_new(shape: ShapeLike, dtype: DTypeLike | None = float, buffer: Any = None,
                offset: int = 0, strides: Any = None, order: str | None = None) -> ndarray:
    """`ndarray(shape, dtype)`: NumPy's low-level constructor, an array of unspecified values
    (as empty). Its views of a foreign buffer (buffer=, offset=, strides=) are not made: an
    accelpy array owns its device memory; asarray copies a buffer's data."""
    if buffer is not None or strides is not None or offset:
        raise NotImplementedError(
            "accelpy.ndarray(shape, dtype, buffer=..., strides=..., offset=...): arrays over a "
            "foreign buffer are not supported (accelpy arrays own their memory); use "
            "accelpy.asarray(numpy.ndarray(...)) to copy it")
    return empty(shape, dtype, order or "C")


def zeros(shape: ShapeLike, dtype: DTypeLike | None = None, order: str = "C", *,
          device: DeviceLike | None = None) -> ndarray:
    """An array of zeros (numpy.zeros); a structured dtype gives records of zeros."""
    try:
        return _core.zeros(shape, dtype, order, device=device)
    except TypeError:
        if (out := _records(shape, dtype, None, device)) is None:
            raise  # not records: the core's error
        return out


def ones(shape: ShapeLike, dtype: DTypeLike | None = None, order: str = "C", *,
         device: DeviceLike | None = None) -> ndarray:
    """An array of ones (numpy.ones); a structured dtype gives records whose every field is 1."""
    try:
        return _core.ones(shape, dtype, order, device=device)
    except TypeError:
        if (out := _records(shape, dtype, 1, device)) is None:
            raise  # not records: the core's error
        return out


def full(shape: ShapeLike, fill_value: ArrayLike, dtype: DTypeLike | None = None,
         order: str = "C", *, device: DeviceLike | None = None) -> ndarray:
    """An array of `fill_value` (numpy.full); with a structured dtype, records equal to
    `fill_value` (a tuple of the fields' values, or one value for every field)."""
    try:
        return _core.full(shape, fill_value, dtype, order, device=device)
    except OverflowError:
        if dtype is None and _huge_ints.holds_huge(fill_value):
            raise _huge_ints.object_ints_error("full's fill_value") from None
        raise
    except TypeError:
        if (out := _records(shape, dtype, fill_value, device)) is None:
            raise  # not records: the core's error
        return out


def arange(*args: Any, **kwargs: Any) -> ndarray:
    """Evenly spaced values within [start, stop) (numpy.arange: ``arange(stop)``,
    ``arange(start, stop[, step])``, keywords ``dtype`` and ``device``)."""
    try:
        return _core.arange(*args, **kwargs)
    except OverflowError:
        if (error := _huge_ints.arange_error(args, kwargs)) is None:
            raise
        raise error from None


arange.__signature__ = inspect.signature(  # type: ignore[attr-defined]
    lambda start, stop=None, step=None, dtype=None, *, device=None: None)


def _records(shape: Any, dtype: Any, fill: Any, device: Any) -> Any:
    """numpy.full(shape, fill, dtype) (zeros for None) when `dtype` is records (a structured
    array, accelpy._structured) or void bytes (accelpy._void); else None."""
    if (records := _structured.structured_dtype(dtype)) is not None:
        if fill is None:
            return _structured.zeros(shape, records, device=device)
        return _structured.full(shape, fill, records, device=device)
    if (void := _void.void_dtype(dtype)) is not None:
        if fill is None:
            return _void.zeros(shape, void, device=device)
        return _void.full(shape, fill, void, device=device)
    return None


def eye(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None, *,
        device: DeviceLike | None = None) -> ndarray:
    """Ones on diagonal `k` of an N x M matrix, zeros elsewhere (numpy.eye). A `k` beyond the
    matrix (any Python int) gives zeros, as in NumPy."""
    N = _size(N, "eye", "N")
    M = None if M is None else _size(M, "eye", "M")
    k = _integer(k, "eye", "k")
    bound = max(N, N if M is None else M) + 1
    return _core.eye(N, M, max(-bound, min(k, bound)), dtype, device=device)


def _integer(value: Any, fn: str, name: str) -> int:
    """operator.index(value), with NumPy's TypeError naming the argument."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{fn}: {name} must be an integer, got "
                        f"'{type(value).__name__}'") from None


def _size(value: Any, fn: str, name: str) -> int:
    """_integer(value) as a dimension: past 64 bits NumPy's ValueError."""
    value = _integer(value, fn, name)
    if not -(2**63) <= value < 2**63:
        raise ValueError("Maximum allowed dimension exceeded")
    return value


__all__ = [
    "array",
    "asanyarray",
    "asarray",
    "ascontiguousarray",
    "empty_like",
    "from_dlpack",
    "fromfunction",
    "fromiter",
    "full_like",
    "identity",
    "ones_like",
    "zeros_like",
    "empty",
    "zeros",
    "ones",
    "full",
    "arange",
    "eye",
    "copy",
]


def asarray(obj: ArrayLike, dtype: DTypeLike | None = None, device: DeviceLike | None = None,
            copy: bool | None = None) -> ndarray:
    """Converts obj (an array, NumPy array, buffer, nested sequence or scalar) to an ndarray.

    As ``numpy.asarray``: no copy unless one is needed (another device or dtype) or
    ``copy=True``; ``copy=False`` raises ValueError when a copy cannot be avoided.
    NumPy arrays on the CPU are wrapped without copying.
    """
    refs = sys.getrefcount(obj)  # first: what `unreferenced` compares with a temporary's count
    if isinstance(obj, ndarray):
        out = obj
        if device is not None and out.device != device:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            out = out.to(device)
        if dtype is not None and out.dtype != np.dtype(dtype):
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            out = out.astype(dtype)
        if copy and out is obj:
            out = obj.copy()
        return out
    if (type(obj) is tuple or type(obj) is list) and dtype is None and copy is not False:
        # A flat sequence of Python numbers and NumPy scalars (a mask or coefficients given as a
        # tuple, a loop's np.array([fmag * c, fmag * s]) of elements, converted at every call):
        # made in the core as NumPy would make it (None for anything else, and on a GPU).
        out = _core._from_sequence(obj, device)
        if out is not None:
            return out
        if all(type(x) in _PY_SCALARS for x in obj):
            # The same on a GPU, or past int64 (NumPy's rules): the checks of arbitrary NumPy
            # memory below have nothing to find in the fresh array NumPy makes.
            arr = np.asarray(obj)
            if arr.dtype in _FROM_PY_SCALARS:
                return _core._from_numpy(arr, None, device, copy, True)
    if (type(obj) is list or type(obj) is tuple) and obj and dtype is None and device is None \
            and copy is not False and all(type(x) is ndarray for x in obj):
        # A flat sequence of accelpy arrays (np.array([x * c, x * s]) in a loop): stacked as it
        # is, without converting each part.
        return _core.stack(obj)
    if isinstance(obj, (list, tuple)) and _holds_arrays(obj):
        # Sequences of accelpy arrays stack where the arrays are (NumPy would need host copies).
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        parts = [asarray(x, device=device) for x in obj]
        out = _core.stack(parts) if parts else _core.empty((0,), device=device)
        return out if dtype is None else out.astype(dtype, copy=False)
    is_numpy = isinstance(obj, np.ndarray)
    if not is_numpy and isinstance(obj, _structured.StructuredArray):
        return _structured.asarray(obj, dtype, device, copy)
    if not is_numpy and not isinstance(obj, (np.generic, list, tuple)) and is_foreign_array(obj):
        # CuPy, PyTorch, JAX, Numba... arrays: shared through DLPack or the CUDA array interface.
        out = asarray_foreign(obj, dtype, device, copy)
        if out is not None:
            return out
    if copy is False and not is_numpy and not _exports_memory(obj):
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    arr = obj if is_numpy else np.asarray(obj, dtype=dtype)
    if arr.dtype.kind == "V" and _is_void(arr.dtype):  # records (a field an accelpy array)
        if arr.dtype.names is not None:
            return _structured.asarray(arr, dtype, device, copy)
        return _void.asarray(arr, device, copy)
    stored = _storable(arr, obj)
    if copy is False and stored is not arr:
        raise ValueError(f"Unable to avoid copy while creating an array as requested: "
                         f"{arr.dtype} with strides {arr.strides}"
                         f"{'' if arr.flags.aligned else ' at an unaligned address'} must be "
                         f"copied to {stored.dtype}, aligned, with strides in whole elements.")
    # A NumPy array only this call references (or a copy made here) is accelpy's alone: its
    # readers stay lazy. Anything else may be written by its owner later: they compute at once.
    made_here = isinstance(obj, (list, tuple, int, float, complex, np.generic))
    alone = stored is not obj and (stored is not arr or made_here)
    alone = alone or (stored is obj and unreferenced(obj, refs))
    return _core._from_numpy(stored, dtype, device, copy, alone)


_PY_SCALARS = (bool, int, float, complex)
# The dtypes NumPy gives a flat sequence of Python numbers (object for ints past 64 bits).
_FROM_PY_SCALARS = frozenset(map(np.dtype, ("bool", "int64", "float64", "complex128")))


def host_values(obj, dtype=None):
    """A small argument (weights, quantiles, coordinates) as a NumPy array, read back from the
    device when it is an accelpy array."""
    return np.asarray(obj.tolist() if isinstance(obj, ndarray) else obj, dtype=dtype)


def on_one_device(*objs):
    """The operands as accelpy arrays; those that are not yet arrays (lists, NumPy arrays,
    scalars) go to the device of the first that is, so mixed operands meet on one device."""
    device = next((o.device for o in objs if isinstance(o, ndarray)), None)
    return tuple(o if isinstance(o, ndarray) else asarray(o, device=device) for o in objs)


def array(obj: ArrayLike, dtype: DTypeLike | None = None, *, copy: bool | None = True,
          order: str | None = "K", subok: bool = False, ndmin: int = 0,
          device: DeviceLike | None = None) -> ndarray:
    """Like ``numpy.array``: a copy by default; `order` "C" or "F" lays the result out in that
    order ("K", "A" and None keep the layout the copy has), `ndmin` prepends axes of length 1.
    `subok` is accepted for NumPy's signature: accelpy has no ndarray subclasses."""
    if (type(obj) is list or type(obj) is tuple) and order == "K" and ndmin.__class__ is int \
            and ndmin == 0:
        # A literal list (np.array([x * c, x * s]) in a loop): a fresh C-ordered array, with no
        # axes to prepend; asarray's checks are the rest.
        return asarray(obj, dtype=dtype, device=device, copy=copy)
    if order is not None and not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order is not None and (order.upper() not in "CFAK" or len(order) != 1):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    try:
        ndmin = operator.index(ndmin)
    except TypeError:
        raise TypeError(f"array: ndmin must be an integer, got {type(ndmin).__name__}") from None
    order = (order or "K").upper()
    if copy and device is None and isinstance(obj, ndarray) and (
            dtype is None or np.dtype(dtype) == obj.dtype):
        # NumPy copies in a's memory order ('K') or, for 'A', Fortran order when a is
        # Fortran-contiguous and not C-contiguous.
        return prepend_axes(_core.copy(obj, order), ndmin)
    x = asarray(obj, dtype=dtype, device=device, copy=copy)
    if isinstance(x, _structured.StructuredArray):
        return x
    relayout = ((order == "C" and not x.flags.c_contiguous)
                or (order == "F" and not x.flags.f_contiguous))
    if relayout and copy is False:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    if order == "C" and relayout:
        x = x.copy()
    elif order == "F" and relayout:
        x = x.astype(x.dtype, order="F")  # a copy that owns its data, as NumPy's
    return prepend_axes(x, ndmin)


def ascontiguousarray(a: ArrayLike, dtype: DTypeLike | None = None, *,
                      device: DeviceLike | None = None) -> ndarray:
    """A C-contiguous array of at least one dimension (``numpy.ascontiguousarray``): `a` itself
    when it already is one of `dtype` on `device`, else a copy."""
    x = asarray(a, dtype=dtype, device=device)
    if x.ndim == 0:
        x = x.reshape((1,))
    return x if x.flags.c_contiguous else x.copy()


def _holds_arrays(seq, depth=0):
    """Whether a nested sequence holds accelpy arrays. Past NumPy's 64 dimensions the search
    stops (NumPy then raises its ValueError), instead of recursing until RecursionError."""
    if depth > 64:
        return False
    return any(isinstance(x, ndarray)
               or (isinstance(x, (list, tuple)) and _holds_arrays(x, depth + 1)) for x in seq)


def _exports_memory(obj):
    return hasattr(obj, "__array_interface__") or hasattr(obj, "__array__") or isinstance(
        obj, (bytes, bytearray, memoryview))


def _storable(arr, original):
    """The NumPy array in a dtype, byte order and layout accelpy stores (aligned, strides in
    whole elements: NumPy allows any address and byte stride), or TypeError."""
    dt = arr.dtype
    if not dt.isnative:
        arr = arr.astype(dt.newbyteorder("="))
        dt = arr.dtype
    if any(s % dt.itemsize for s in arr.strides) or not arr.flags.aligned:
        arr = np.array(arr, copy=True)
    if dt.kind == "O" and arr.size and all(type(x) is int for x in arr.flat):
        raise _huge_ints.object_ints_error(f"a {type(original).__name__} of ints")
    if not supported(dt):
        raise TypeError(
            f"cannot make an accelpy array from {type(original).__name__} with dtype {dt}: "
            "accelpy stores bool, integers, float16/bfloat16/float32/float64 and "
            "complex64/complex128")
    return arr


def _like(a, dtype, device, shape, order, make, uninitialized=False):
    """A new array made by `make(shape, dtype, order, device)` with a's shape, dtype and
    device unless given, laid out as NumPy's *_like functions lay it out
    (PyArray_NewLikeArrayWithShape): order 'K' (the default) follows a's memory order, 'A' is
    'F' for a Fortran-ordered a, and a new shape with another number of axes is C-ordered."""
    if not hasattr(a, "shape") or not hasattr(a, "dtype"):
        a = np.asarray(a)
    dev = getattr(a, "device", None) if device is None else device
    if not isinstance(dev, _core.Device):
        dev = None  # NumPy inputs: the default device
    if order is not None and not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    order = "K" if order is None else order.upper()
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order == "A":
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    out = make(a.shape if shape is None else shape, a.dtype if dtype is None else dtype,
               "C" if order == "K" else order, dev)
    if order != "K" or out.ndim < 2 or not isinstance(out, ndarray):  # records: field by field
        return out
    item = max(int(np.dtype(a.dtype).itemsize), 1)
    return _core._laid_out_like(out, tuple(a.shape), tuple(int(s) // item for s in a.strides),
                                uninitialized)


def empty_like(a: ArrayLike, dtype: DTypeLike | None = None, order: str = "K", subok: bool = True,
               shape: ShapeLike | None = None, *, device: DeviceLike | None = None) -> ndarray:
    """An uninitialized array with a's shape, dtype, device and memory order
    (numpy.empty_like). `subok` is accepted for NumPy's signature."""
    return _like(a, dtype, device, shape, order,
                 lambda s, dt, o, dev: empty(s, dt, o, device=dev), uninitialized=True)


def zeros_like(a: ArrayLike, dtype: DTypeLike | None = None, order: str = "K", subok: bool = True,
               shape: ShapeLike | None = None, *, device: DeviceLike | None = None) -> ndarray:
    """Zeros with a's shape, dtype, device and memory order (numpy.zeros_like)."""
    return _like(a, dtype, device, shape, order,
                 lambda s, dt, o, dev: zeros(s, dt, o, device=dev))


def ones_like(a: ArrayLike, dtype: DTypeLike | None = None, order: str = "K", subok: bool = True,
              shape: ShapeLike | None = None, *, device: DeviceLike | None = None) -> ndarray:
    """Ones with a's shape, dtype, device and memory order (numpy.ones_like)."""
    return _like(a, dtype, device, shape, order,
                 lambda s, dt, o, dev: ones(s, dt, o, device=dev))


def full_like(a: ArrayLike, fill_value: complex, dtype: DTypeLike | None = None,
              order: str = "K", subok: bool = True, shape: ShapeLike | None = None, *,
              device: DeviceLike | None = None) -> ndarray:
    """fill_value with a's shape, dtype, device and memory order (numpy.full_like)."""
    return _like(a, dtype, device, shape, order,
                 lambda s, dt, o, dev: full(s, fill_value, dt, o, device=dev))


def identity(n: int, dtype: DTypeLike | None = None, *,
             device: DeviceLike | None = None) -> ndarray:
    """The n x n identity matrix."""
    return _core.eye(_size(n, "identity", "n"), dtype=dtype, device=device)


def asanyarray(a: ArrayLike, dtype: Any = None, order: str | None = None, *, device: Any = None,
               copy: bool | None = None, like: Any = None) -> ndarray:
    """`a` as an accelpy array (numpy.asanyarray; accelpy has no subclasses, so as asarray);
    only C order is supported."""
    if order not in (None, "C", "K", "A"):
        raise ValueError(f"asanyarray: order {order!r} is not supported (accelpy arrays are "
                         "C-ordered)")
    if like is not None:
        raise TypeError("asanyarray: the 'like' argument is not supported")
    return asarray(a, dtype=dtype, device=device, copy=copy)


def fromfunction(function: Callable[..., Any], shape: Sequence[int], *, dtype: Any = float,
                 like: Any = None, **kwargs: Any) -> Any:
    """function(*indices(shape, dtype), **kwargs) (numpy.fromfunction): the function gets one
    coordinate array per dimension."""
    if like is not None:
        raise TypeError("fromfunction: the 'like' argument is not supported")
    return function(*indices(shape, dtype=dtype, sparse=False), **kwargs)


class _NoDLPackError(AttributeError, TypeError):
    """from_dlpack of an object without __dlpack__: NumPy raises AttributeError (the protocol is
    an attribute lookup); accelpy's callers have caught TypeError, so it is both."""


def from_dlpack(x: Any, /, *, device: DeviceLike | None = None,
                copy: bool | None = None) -> ndarray:
    """An array over the data of another library's array (anything with ``__dlpack__``; a
    DLPack capsule is accepted too), without copying when it can (Array API ``from_dlpack``).

    ``device``: where the result goes (default: where the data is); another device means a
    copy. ``copy=True`` always copies, ``copy=False`` never does (BufferError when a copy is
    needed), ``None`` copies only when needed. On CUDA the producer orders its pending work
    before accelpy's current stream, so the result may be used at once. The producer's memory
    stays alive as long as any view of the result does.
    """
    if isinstance(x, ndarray):
        return asarray(x, device=device, copy=copy)
    if type(x).__name__ == "PyCapsule":
        arr, copied = _core._from_dlpack_capsule(x)
    else:
        if not hasattr(x, "__dlpack__"):
            raise _NoDLPackError(f"from_dlpack: x, a '{type(x).__name__}' object, has no "
                                 "__dlpack__ method (it does not support DLPack)")
        src = dlpack_source_device(x) if hasattr(x, "__dlpack_device__") else None
        stream = dlpack_consumer_stream(src) if src is not None else None
        arr, copied = _core._from_dlpack_capsule(dlpack_export(x, stream, copy))
    return finish_import(arr, copied, device, copy)


def indices(dimensions: Sequence[int], dtype: Any = int, sparse: bool = False) -> Any:
    """The index grid of an array of shape `dimensions` (numpy.indices): one stacked array of
    shape (N, *dimensions), or with `sparse` a tuple of broadcastable aranges."""
    dims = tuple(_size(d, "indices", "dimensions") for d in dimensions)
    n = len(dims)
    grids = []
    for i, d in enumerate(dims):
        shape = (1,) * i + (d,) + (1,) * (n - i - 1)
        grids.append(_core.arange(d, dtype=dtype, device=_core.get_default_device()).reshape(shape))
    if sparse:
        return tuple(grids)
    if not grids:
        return _core.empty((0,), dtype=dtype, device=_core.get_default_device())
    return _core.stack([_core.broadcast_to(g, dims) for g in grids])


def fromiter(iter: Any, dtype: DTypeLike, count: int = -1, *,  # noqa: A002 - NumPy's name
             like: Any = None, device: DeviceLike | None = None) -> ndarray:
    """A 1-D array of the values an iterable yields (numpy.fromiter): `count` of them, or all
    when -1. The values are read on the host, into NumPy's array, which then moves to `device`."""
    if like is not None:
        raise TypeError("fromiter: the 'like' argument is not supported")
    return asarray(np.fromiter(iter, dtype=dtype, count=count), device=device)
