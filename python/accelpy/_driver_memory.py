"""The PyCUDA-compatible layer's memory (driver.py): device allocations, copies between host and
device, and page-locked host arrays."""

import numpy as np

from . import _core
from . import _driver_cpu as _cpu
from . import cuda as _apcuda
from ._driver_context import _current_index, _kernel_device
from ._kernels import DevicePointer

_raw = _core._raw


def mem_get_info():
    """(free, total) bytes of the current device."""
    if _cpu.active():
        return _cpu.mem_get_info()
    return tuple(_raw.mem_get_info(_current_index()))


class DeviceAllocation:
    """Device memory from mem_alloc: ``int(a)`` is its address; freed by free() or when
    dropped. Accepted wherever a pointer is (kernels, copies, accelpy.asarray)."""

    def __init__(self, nbytes):
        self._nbytes = int(nbytes)
        dev = _kernel_device()
        self._array = _core.empty((max(self._nbytes, 1),), dtype=np.uint8, device=dev)
        self._ptr = _core._data_ptr(self._array)

    def _live(self):
        if self._array is None:
            raise ValueError("this DeviceAllocation was freed")
        return self._ptr

    def __int__(self):
        return self._live()

    __index__ = __int__

    @property
    def size(self):
        return self._nbytes

    def free(self):
        """Releases the memory (after the work queued on the current stream)."""
        self._array = None

    def as_buffer(self, size, offset=0):
        """A host copy of `size` bytes from `offset`, as a read-only memoryview (device memory
        is not addressable from the host)."""
        ptr = self._live()
        if offset < 0 or size < 0 or offset + size > self._nbytes:
            raise ValueError(f"bytes [{offset}, {offset + size}) are outside the allocation of "
                             f"{self._nbytes} bytes")
        out = np.empty(size, dtype=np.uint8)
        memcpy_dtoh(out, ptr + offset)
        return memoryview(out.tobytes())

    @property
    def __cuda_array_interface__(self):
        return {"shape": (self._nbytes,), "typestr": "|u1", "data": (self._live(), False),
                "strides": None, "version": 3, "stream": None}

    def __repr__(self):
        state = "freed" if self._array is None else f"{self._ptr:#x}"
        return f"<accelpy.driver.DeviceAllocation {state}, {self._nbytes} bytes>"


def mem_alloc(nbytes):
    """Allocates `nbytes` bytes on the current device."""
    if int(nbytes) < 0:
        raise ValueError(f"cannot allocate {nbytes} bytes")
    return DeviceAllocation(nbytes)


def _ptr(obj):
    if isinstance(obj, (DeviceAllocation, DevicePointer, int, np.integer)):
        return int(obj)
    if isinstance(obj, _core.ndarray):
        return _core._data_ptr(obj)
    if hasattr(obj, "__cuda_array_interface__"):
        return int(obj.__cuda_array_interface__["data"][0])
    raise TypeError(f"expected device memory (a DeviceAllocation, an int address, an array "
                    f"with __cuda_array_interface__), got {type(obj).__name__}")


def _host(obj, writable=False):
    if isinstance(obj, np.ndarray) and not obj.flags.c_contiguous:
        raise ValueError("host arrays must be C-contiguous for copies (use "
                         "numpy.ascontiguousarray)")
    if writable and isinstance(obj, np.ndarray) and not obj.flags.writeable:
        raise ValueError("the destination array is read-only")
    return obj


def _stream(stream):
    return None if stream is None else stream.handle


def _htod(dest, src, stream, sync):
    dst, host = _ptr(dest), _host(src)
    if _cpu.active():
        return _cpu.copy_to(dst, host)
    _raw.memcpy_htod(dst, host, _stream(stream), sync)


def _dtoh(dest, src, stream, sync):
    host, ptr = _host(dest, True), _ptr(src)
    if _cpu.active():
        return _cpu.copy_from(host, ptr)
    _raw.memcpy_dtoh(host, ptr, _stream(stream), sync)


def _dtod(dest, src, size, stream, sync):
    if _cpu.active():
        return _cpu.copy_between(_ptr(dest), _ptr(src), int(size))
    _raw.memcpy_dtod(_ptr(dest), _ptr(src), int(size), _stream(stream), sync)


def memcpy_htod(dest, src):
    """Copies the host buffer `src` to device memory `dest` and waits for the copy."""
    _htod(dest, src, None, True)


def memcpy_dtoh(dest, src):
    """Copies device memory `src` into the host buffer `dest` (its size) and waits."""
    _dtoh(dest, src, None, True)


def memcpy_dtod(dest, src, size):
    """Copies `size` bytes between device buffers and waits."""
    _dtod(dest, src, size, None, True)


def memcpy_htod_async(dest, src, stream=None):
    """Queues the copy on `stream` (default: the current stream); `src` must stay unchanged
    until the stream reaches it (page-locked memory makes the copy truly asynchronous)."""
    _htod(dest, src, stream, False)


def memcpy_dtoh_async(dest, src, stream=None):
    _dtoh(dest, src, stream, False)


def memcpy_dtod_async(dest, src, size, stream=None):
    _dtod(dest, src, size, stream, False)


def to_device(bf_obj):
    """A DeviceAllocation holding a copy of a host buffer."""
    a = np.ascontiguousarray(bf_obj)
    d = mem_alloc(a.nbytes)
    memcpy_htod(d, a)
    return d


def from_device(devptr, shape, dtype, order="C"):
    """A NumPy array copied from device memory."""
    out = np.empty(shape, dtype=dtype, order=order)
    memcpy_dtoh(out, devptr)
    return out


def from_device_like(devptr, other_ary):
    return from_device(devptr, other_ary.shape, other_ary.dtype)


def pagelocked_empty(shape, dtype, order="C", mem_flags=0):
    """A NumPy array in page-locked host memory (asynchronous copies)."""
    if order != "C":
        raise ValueError("only order='C' page-locked arrays are supported")
    return np.empty(shape, dtype) if _cpu.active() else _apcuda.pinned_empty(shape, dtype)


def pagelocked_zeros(shape, dtype, order="C", mem_flags=0):
    a = pagelocked_empty(shape, dtype, order, mem_flags)
    a.fill(0)
    return a


def pagelocked_empty_like(array, mem_flags=0):
    return pagelocked_empty(array.shape, array.dtype)


def pagelocked_zeros_like(array, mem_flags=0):
    return pagelocked_zeros(array.shape, array.dtype)
