"""Importing other libraries' arrays without copies: DLPack (``from_dlpack``) and the CUDA array
interface. The export side (``ndarray.__dlpack__``, ``__dlpack_device__``,
``__cuda_array_interface__``) is bound in C++ (src/python/bind_interop.cpp)."""

import enum

import numpy as np

from . import _core
from ._core import Device, ndarray

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


def _source_device(x):
    """The accelpy device of a DLPack producer's data (BufferError where accelpy cannot read)."""
    kind, index = x.__dlpack_device__()
    if kind in (DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost):
        return Device("cpu")
    if kind in (DLDeviceType.kDLCUDA, DLDeviceType.kDLCUDAManaged):
        return Device(f"cuda:{int(index)}")
    name = DLDeviceType(kind).name if kind in DLDeviceType._value2member_map_ else str(kind)
    raise BufferError(f"accelpy cannot read memory on DLPack device {name}; it reads CPU, CUDA, "
                      "CUDA host and CUDA managed memory")


def _consumer_stream(device):
    """The stream a producer must order its work before: accelpy's current stream there."""
    if device.type != "cuda":
        return None
    return _core._cuda.Stream.current(device.index).handle


def _export(x, stream, copy):
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


def from_dlpack(x, /, *, device=None, copy=None):
    """An array over the data of another library's array (anything with ``__dlpack__``; a
    DLPack capsule is accepted too), without copying when it can (Array API ``from_dlpack``).

    ``device``: where the result goes (default: where the data is); another device means a
    copy. ``copy=True`` always copies, ``copy=False`` never does (BufferError when a copy is
    needed), ``None`` copies only when needed. On CUDA the producer orders its pending work
    before accelpy's current stream, so the result may be used at once. The producer's memory
    stays alive as long as any view of the result does.
    """
    if isinstance(x, ndarray):
        from ._creation import asarray

        return asarray(x, device=device, copy=copy)
    if type(x).__name__ == "PyCapsule":
        arr, copied = _core._from_dlpack_capsule(x)
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"from_dlpack: '{type(x).__name__}' object does not support DLPack "
                            "(it has no __dlpack__ method)")
        src = _source_device(x) if hasattr(x, "__dlpack_device__") else None
        stream = _consumer_stream(src) if src is not None else None
        arr, copied = _core._from_dlpack_capsule(_export(x, stream, copy))
    return _finish(arr, copied, device, copy)


def _finish(arr, copied, device, copy):
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


def is_foreign_array(obj):
    """Whether obj is another library's array that accelpy imports through a protocol."""
    return hasattr(obj, "__cuda_array_interface__") or (
        hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"))


def asarray_foreign(obj, dtype=None, device=None, copy=None):
    """``asarray`` for another library's array: DLPack first (it carries ownership, bool and
    bfloat16), else the CUDA array interface; then device and dtype as asked."""
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        try:
            src = _source_device(obj)
        except BufferError:
            src = None
        if src is not None:
            arr, copied = _core._from_dlpack_capsule(_export(obj, _consumer_stream(src),
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
        return _finish(arr, copied, device, copy)
    except BufferError as e:
        raise ValueError(f"Unable to avoid copy while creating an array as requested: {e}") from e
