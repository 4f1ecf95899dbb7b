"""Interoperability with NumPy and other array libraries.

- Importing other libraries' arrays without copies: DLPack and the CUDA array interface
  (``asarray_foreign``; ``from_dlpack`` is array creation). The export side
  (``ndarray.__dlpack__``, ``__dlpack_device__``, ``__cuda_array_interface__``) is bound in C++
  (src/python/bind_interop.cpp).

- ``__array_ufunc__`` (NEP 13): ``np.sin(x)``, ``np.add(x, n, out=y)``, ``np.add.reduce(x)``,
  ``np.multiply.outer(x, y)``, ``np.add.at(x, i, v)`` run accelpy's ufunc of the same name
  (python/accelpy/_ufunc.py) and return accelpy arrays on the arrays' device; NumPy operands
  move there. A ufunc of another library (scipy.special's, a Numba ``@vectorize``) or one of
  NumPy's that accelpy has no function for runs in NumPy over host copies, its results coming
  back to the arrays' device (a NumPy program keeps working, at the cost of the copies). An
  argument accelpy does not take returns NotImplemented, so NumPy raises its TypeError.
- ``__array_function__`` (NEP 18): ``np.concatenate([x, y])``, ``np.sum(x, axis=0)``, ... call
  the accelpy function of the same name in the same (sub)module. The map is looked up in the
  live namespace, so every function added to accelpy is dispatched without a table here.
- ``__array_namespace__``: the Array API namespace, accelpy itself.
- ``shares_memory`` and ``may_share_memory``, answered by NumPy over the arrays' address ranges.
"""

from __future__ import annotations

import enum
import numbers
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    Device,
    ndarray,
)
from ._structured import StructuredArray
from ._util import prepend_axes

if TYPE_CHECKING:
    from ._core import ArrayLike, DeviceLike, DTypeLike

__all__ = [
    "may_share_memory",
    "shares_memory",
    "asnumpy",
]

def asnumpy(a: ArrayLike, stream: Any = None, order: str = "C", out: Any = None,
            blocking: bool = True) -> np.ndarray[Any, Any]:
    """A NumPy array of `a`'s data (evaluating pending work), as CuPy's ``asnumpy``: `stream`
    (an accelpy.cuda.Stream) queues the copy there; `out` (a NumPy array of the shape) receives
    it; `order` is 'C', 'F', 'A' or 'K'. The copy has finished when this returns (`blocking`
    is accepted for CuPy's signature)."""
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"asnumpy: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    if stream is not None and not hasattr(stream, "__enter__"):
        raise TypeError("asnumpy: stream must be an accelpy.cuda.Stream, got "
                        f"{type(stream).__name__}")
    if stream is not None and isinstance(a, ndarray) and a.device.type == "cuda":
        # The copy queued on `stream` must come after the work that wrote `a`, queued on the
        # current stream: accelpy's streams do not wait for each other by themselves.
        _core.eval(a)
        _core._cuda.Stream.current(a.device).synchronize()
        with stream:
            host = _core.asnumpy(a)
    elif isinstance(a, StructuredArray):  # records: NumPy's packed layout
        host = a.get()
    else:
        host = _core.asnumpy(a)
    if order == "F" or (order in ("A", "K") and host.ndim > 1 and _is_f_only(a)):
        host = np.asfortranarray(host)
    if out is None:
        return host
    if not isinstance(out, np.ndarray):
        raise TypeError(f"asnumpy: out must be a NumPy array, got {type(out).__name__}")
    if out.shape != host.shape:
        raise ValueError(f"asnumpy: out has shape {out.shape}, the array {host.shape}")
    np.copyto(out, host, casting="same_kind")
    return out


def _is_f_only(a):
    f = getattr(a, "flags", None)
    return f is not None and f.f_contiguous and not f.c_contiguous
# Keyword arguments NumPy's functions spell differently from accelpy's.
_RENAMED_KWARGS = {"clip": {"a_min": "min", "a_max": "max"}}
# Ufunc keywords accelpy has no use for, with the value that means "as usual".
_UFUNC_DEFAULTS = {"casting": "same_kind", "order": "K", "subok": True, "where": True}
# NumPy functions that only read metadata: answered here for accelpy arrays (without them,
# np.shape(x) would raise, since accelpy has no function of that name).
_METADATA = {
    "shape": lambda a: tuple(a.shape),
    "ndim": lambda a: a.ndim,
    "size": lambda a, axis=None: a.size if axis is None else a.shape[axis],
    "iscomplexobj": lambda x: np.dtype(x.dtype).kind == "c",
    "isrealobj": lambda x: np.dtype(x.dtype).kind != "c",
}


# The namespace NumPy's protocols dispatch to: the package, given by use_namespace once it is
# complete (importing it from here would run back up the package).
_namespace: ModuleType | None = None


def use_namespace(module: ModuleType) -> None:
    global _namespace
    _namespace = module


def _accelpy() -> Any:
    return _namespace


def _is_operand(x):
    return isinstance(x, (ndarray, np.ndarray, numbers.Number, np.generic))


def _device_of(values):
    for v in values:
        if isinstance(v, ndarray):
            return v.device
    return None


def _callable_in(namespace, name):
    fn = getattr(namespace, name, None) if namespace is not None else None
    if fn is None or isinstance(fn, type) or not callable(fn):
        return None
    return fn


def _on_device(values, device):
    """NumPy arrays as accelpy arrays on `device`; everything else as it is."""
    ap = _accelpy()
    return [ap.asarray(v, device=device) if isinstance(v, np.ndarray) else v for v in values]


# NumPy's ufuncs -> accelpy's of the same name, for array_ufunc's common case; ndarray's
# __array_ufunc__ (a C method, _core._array_ufunc_method) reads it too.
_UFUNCS: dict[Any, Any] = {}
_SCALARS = (np.generic, int, float, complex)


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's ufunc protocol (NEP 13): runs accelpy's ufunc of the same name, or the method
    asked for (reduce, accumulate, reduceat, outer, at), with NumPy's keywords."""
    if method == "__call__" and not kwargs:
        # The common case first: NumPy's scalar beside accelpy arrays (np.float64(2) * x, and a
        # CPU array's element, which is NumPy's scalar, in arithmetic with arrays). NumPy's
        # scalar operators call the ufunc rather than defer to x's reflected operator; the
        # operands need no conversion.
        target = _UFUNCS.get(ufunc)
        if target is not None:
            for x in inputs:
                if type(x) is not ndarray and not isinstance(x, _SCALARS):
                    break
            else:
                return target(*inputs)
    ap = _accelpy()
    # Only NumPy's own ufuncs are accelpy's of the same name (a Numba ufunc may be called add).
    numpy_ufunc = getattr(np, ufunc.__name__, None) is ufunc
    target = getattr(ap, ufunc.__name__, None) if numpy_ufunc else None
    out = kwargs.get("out")
    outs = out if isinstance(out, tuple) else (out,)
    if not all(_is_operand(x) for x in (inputs[:1] if method in ("at", "reduceat") else inputs)):
        return NotImplemented  # another library's array: let it (or NumPy) decide
    if not all(isinstance(o, ndarray) or o is None for o in outs):
        return NotImplemented  # results go to accelpy arrays only
    device = _device_of(inputs + outs)
    if isinstance(target, _core.ufunc):
        _UFUNCS.setdefault(ufunc, target)
        fn = target if method == "__call__" else getattr(target, method)
        return fn(*_on_device(inputs, device), **kwargs)
    if numpy_ufunc and method == "__call__" and _callable_in(ap, ufunc.__name__) is not None:
        return _call(ap, ufunc, _on_device(inputs, device), **kwargs)
    return _through_numpy(ufunc, method, inputs, kwargs, device)


def _through_numpy(ufunc, method, inputs, kwargs, device):
    """A ufunc accelpy has no kernel for, run by NumPy over host copies of the accelpy
    operands (and keyword arrays: where=, out=); results come back as accelpy arrays on
    `device`, out= arrays and at()'s first operand are written back."""
    ap = _accelpy()

    def host(v):
        return ap.asnumpy(v) if isinstance(v, ndarray) else v

    out = kwargs.pop("out", None)
    outs = out if isinstance(out, tuple) else (out,)
    host_outs = tuple(host(o) for o in outs)
    if any(o is not None for o in outs):
        kwargs["out"] = host_outs if isinstance(out, tuple) else host_outs[0]
    args = [host(x) for x in inputs]
    call = ufunc if method == "__call__" else getattr(ufunc, method)
    result = call(*args, **{k: host(v) for k, v in kwargs.items()})
    if method == "at":
        inputs[0][...] = args[0]
        return None
    for o, h in zip(outs, host_outs, strict=True):
        if o is not None:
            o[...] = h
    if any(o is not None for o in outs):
        return out[0] if isinstance(out, tuple) and len(out) == 1 else out
    if isinstance(result, tuple):
        return tuple(ap.asarray(r, device=device) for r in result)
    return ap.asarray(result, device=device)


def _call(ap, ufunc, args, out=None, **kwargs):
    """A NumPy ufunc accelpy has as a plain function (the gufuncs: matmul, vecdot, ...)."""
    fn = _callable_in(ap, ufunc.__name__)
    for key, default in _UFUNC_DEFAULTS.items():
        value = kwargs.pop(key, default)
        if not (value is default or (isinstance(value, str) and value == default)):
            return NotImplemented
    if fn is None or kwargs or (out is not None and any(o is not None for o in out)):
        return NotImplemented
    return fn(*args)


def _implementation(func):
    """The accelpy function that implements a NumPy array function, or None."""
    module = getattr(func, "__module__", "") or ""
    if module != "numpy" and not module.startswith("numpy."):
        return None
    ap = _accelpy()
    namespace = ap
    for part in module.split(".")[1:]:
        namespace = getattr(namespace, part, None)
    name = func.__name__
    fn = _callable_in(namespace, name)
    renames = _RENAMED_KWARGS.get(name)
    if fn is not None and renames:
        inner = fn

        def fn(*args, **kwargs):
            return inner(*args, **{renames.get(k, k): v for k, v in kwargs.items()})

    if fn is None and module == "numpy" and name in _METADATA:
        fn = _METADATA[name]
    return fn


# NumPy functions that create arrays take `like=` (NEP 35): NumPy then calls the like-array's
# __array_function__ without it. The result goes to the like-array's device, and NumPy's
# layout keywords are honoured where accelpy's arrays allow (C order only).
_LIKE_FUNCTIONS = {"array": "array", "asarray": "asarray", "asanyarray": "asarray",
                   "ascontiguousarray": "asarray", "empty": "empty", "zeros": "zeros",
                   "ones": "ones", "full": "full", "identity": "identity", "eye": "eye",
                   "arange": "arange"}


def _like_implementation(name):
    ap = _accelpy()
    fn = _callable_in(ap, _LIKE_FUNCTIONS[name])
    if fn is None:
        return None

    def create(*args, _device=None, **kwargs):
        if kwargs.pop("order", None) not in (None, "K", "A", "C"):
            raise NotImplementedError(f"{name}: accelpy arrays are created in C order")
        kwargs.pop("subok", None)
        ndmin = kwargs.pop("ndmin", 0)
        if _device is not None:
            kwargs.setdefault("device", _device)
        out = fn(*args, **kwargs)
        if name == "ascontiguousarray" and out.ndim and not _is_c_contiguous(out):
            out = out.copy()
        return prepend_axes(out, ndmin)

    return create


def _is_c_contiguous(a):
    if a.size == 0:  # NumPy: an array without elements is contiguous, whatever its strides
        return True
    expected = a.itemsize
    for extent, stride in zip(reversed(a.shape), reversed(a.strides), strict=True):
        if extent > 1 and stride != expected:
            return False
        expected *= extent
    return True


def array_function(self, func, types, args, kwargs):
    """NumPy's function protocol (NEP 18): runs accelpy's function of the same name. Looked up
    on every call (a few attribute reads): functions added to accelpy later, or replaced, are
    dispatched as they are now."""
    if not all(issubclass(t, (ndarray, np.ndarray)) for t in types):
        return NotImplemented
    if getattr(func, "__module__", None) == "numpy" and func.__name__ in _LIKE_FUNCTIONS:
        fn = _like_implementation(func.__name__)
        return NotImplemented if fn is None else fn(*args, _device=self.device, **kwargs)
    fn = _implementation(func)
    if fn is None:
        return NotImplemented
    return fn(*args, **kwargs)


_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")


def array_namespace(self, /, *, api_version=None):
    """The Array API namespace of accelpy arrays: the accelpy module (standard 2024.12)."""
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f"accelpy implements the Array API standard 2024.12 (and the earlier "
                         f"{', '.join(_API_VERSIONS[:-1])}); got api_version={api_version!r}")
    return _accelpy()


def _extent_view(a):
    """A NumPy array over a's memory range that is never read: shared-memory questions are
    pointer arithmetic on (address, shape, strides)."""
    if isinstance(a, ndarray):
        if a.device.type == "cuda":
            info = a.__cuda_array_interface__
            return a.device, _fake_numpy(info["data"][0], a.shape, a.strides, a.dtype)
        return a.device, np.from_dlpack(a)
    return _core.Device("cpu"), np.asarray(a)


class _Interface:
    def __init__(self, interface):
        self.__array_interface__ = interface


def _fake_numpy(address, shp, strides, dtype):
    return np.asarray(_Interface({"data": (address, False), "shape": shp, "strides": strides,
                                  "typestr": dtype.str, "version": 3}))


def _size_of(x):
    return x.size if isinstance(x, ndarray) else np.size(x)


def may_share_memory(a: ArrayLike, b: ArrayLike, /, max_work: int = 0) -> bool:
    """Whether the memory ranges of a and b overlap (numpy.may_share_memory); arrays on
    different devices never do."""
    return shares_memory(a, b, max_work=max_work)


def shares_memory(a: ArrayLike, b: ArrayLike, /, max_work: int = -1) -> bool:
    """Whether a and b share an element's memory (numpy.shares_memory); arrays on different
    devices never do. A deferred result is computed first (into memory of its own)."""
    if _size_of(a) == 0 or _size_of(b) == 0:
        return False  # no element to share (and an empty array's address may be null)
    dev_a, view_a = _extent_view(a)
    dev_b, view_b = _extent_view(b)
    if dev_a != dev_b:
        return False
    if max_work == 0:
        return bool(np.may_share_memory(view_a, view_b))
    return bool(np.shares_memory(view_a, view_b, max_work=max_work))


# The DLPack version accelpy reads and writes (ACCEL_DLPACK_*_VERSION in include/accel/dlpack.h).
DLPACK_VERSION = (1, 1)


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (``__dlpack_device__()[0]``); accelpy reads the first four."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


def dlpack_source_device(x):
    """The accelpy device of a DLPack producer's data (BufferError where accelpy cannot read)."""
    kind, index = x.__dlpack_device__()
    if kind in (DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost):
        return Device("cpu")
    if kind in (DLDeviceType.kDLCUDA, DLDeviceType.kDLCUDAManaged):
        return Device(f"cuda:{int(index)}")
    name = DLDeviceType(kind).name if kind in DLDeviceType._value2member_map_ else str(kind)
    raise BufferError(f"accelpy cannot read memory on DLPack device {name}; it reads CPU, CUDA, "
                      "CUDA host and CUDA managed memory")


def dlpack_consumer_stream(device):
    """The stream a producer must order its work before: accelpy's current stream there."""
    if device.type != "cuda":
        return None
    return _core._cuda.Stream.current(device.index).handle


def dlpack_export(x, stream, copy):
    """Calls the producer's ``__dlpack__`` the newest way it understands."""
    kwargs = {"stream": stream, "max_version": DLPACK_VERSION}
    if copy is False:
        kwargs["copy"] = False  # the producer must not copy either
    try:
        return x.__dlpack__(**kwargs)
    except TypeError:
        # A producer older than the 2023.12 signature: legacy capsules, `stream` only.
        if stream is None:
            return x.__dlpack__()
        return x.__dlpack__(stream=stream)


def finish_import(arr, copied, device, copy):
    """Moves or copies an imported array as `device` and `copy` ask; copies are made now, since
    the producer may change its memory once this call returns."""
    target = arr.device if device is None else Device(device)
    if target != arr.device:
        if copy is False:
            raise BufferError(f"from_dlpack: the data is on {arr.device}; moving it to {target} "
                              "needs a copy, and copy=False forbids it")
        out = arr.to(target)
    elif copy and not copied:
        out = arr.copy()
    else:
        return arr
    _core.eval(out)
    return out


def _cuda_interface_array(obj, iface):
    """An array over the CUDA memory an object describes with ``__cuda_array_interface__``
    (versions 0-3): no copy; its ``stream`` (version 3) is waited for on accelpy's stream."""
    if iface.get("mask") is not None:
        raise TypeError("accelpy cannot import a masked __cuda_array_interface__")
    dt = np.dtype(iface["typestr"])
    if not dt.isnative:
        raise TypeError(f"__cuda_array_interface__ typestr {iface['typestr']!r} is not in native "
                        "byte order")
    shape = tuple(int(s) for s in iface["shape"])
    ptr, readonly = iface["data"]
    strides = iface.get("strides")
    if strides is not None:
        if any(s % dt.itemsize for s in strides):
            raise ValueError(f"__cuda_array_interface__ strides {tuple(strides)} are not whole "
                             f"elements of {dt}; accelpy needs element strides")
        strides = tuple(int(s) // dt.itemsize for s in strides)
    stream = iface.get("stream") if iface.get("version", 0) >= 3 else None
    return _core._wrap_cuda_memory(int(ptr or 0), dt, shape, strides, obj, bool(readonly), stream)


def is_foreign_array(obj: object) -> bool:
    """Whether obj is another library's array that accelpy imports through a protocol."""
    return hasattr(obj, "__cuda_array_interface__") or (
        hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"))


def asarray_foreign(obj: Any, dtype: DTypeLike | None = None, device: DeviceLike | None = None,
                    copy: bool | None = None) -> ndarray | None:
    """``asarray`` for another library's array: DLPack first (it carries ownership, bool and
    bfloat16), else the CUDA array interface; then device and dtype as asked."""
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        try:
            src = dlpack_source_device(obj)
        except BufferError:
            src = None
        if src is not None:
            arr, copied = _core._from_dlpack_capsule(dlpack_export(obj, dlpack_consumer_stream(src),
                                                            False if copy is False else None))
            return _convert(arr, copied, dtype, device, copy)
    if hasattr(obj, "__cuda_array_interface__"):
        return _convert(_cuda_interface_array(obj, obj.__cuda_array_interface__), False, dtype,
                        device, copy)
    return None


def _convert(arr, copied, dtype, device, copy):
    if dtype is not None and np.dtype(dtype) != arr.dtype:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: "
                             f"{arr.dtype} must be converted to {np.dtype(dtype)}")
        target = arr.device if device is None else Device(device)
        out = arr.to(target).astype(dtype)
        _core.eval(out)
        return out
    try:
        return finish_import(arr, copied, device, copy)
    except BufferError as e:
        raise ValueError(f"Unable to avoid copy while creating an array as requested: {e}") from e


def _reduce_bound_function(fn):
    """Pickles a function bound in C++ by its name, as pickle does for Python's builtins, so
    that Dask's distributed scheduler can send ``x.map_blocks(ap.sort)`` to its workers."""
    if not str(getattr(fn, "__module__", "")).startswith("accelpy"):
        raise TypeError(f"cannot pickle {type(fn).__name__} objects")
    return fn.__name__


def register_function_pickling() -> None:
    """Registers :func:`_reduce_bound_function` for nanobind's function type (other nanobind
    libraries' functions keep refusing to pickle, as before)."""
    import copyreg  # only here: registration is its one use

    from ._signatures import _NB_FUNC  # the public ones are BoundFunctions, pickled by name

    copyreg.pickle(_NB_FUNC, _reduce_bound_function)
