"""Creating arrays from Python objects and from other arrays."""

import numpy as np

from . import _core
from ._core import ndarray
from ._dlpack import asarray_foreign, is_foreign_array
from ._dtypes import supported


def asarray(obj, dtype=None, device=None, copy=None):
    """Converts obj (an array, NumPy array, buffer, nested sequence or scalar) to an ndarray.

    As ``numpy.asarray``: no copy unless one is needed (another device or dtype) or
    ``copy=True``; ``copy=False`` raises ValueError when a copy cannot be avoided.
    NumPy arrays on the CPU are wrapped without copying.
    """
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
    if isinstance(obj, (list, tuple)) and _holds_arrays(obj):
        # Sequences of accelpy arrays stack where the arrays are (NumPy would need host copies).
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        parts = [asarray(x, device=device) for x in obj]
        out = _core.stack(parts) if parts else _core.empty((0,), device=device)
        return out if dtype is None else out.astype(dtype, copy=False)
    is_numpy = isinstance(obj, np.ndarray)
    if not is_numpy and not isinstance(obj, (np.generic, list, tuple)) and is_foreign_array(obj):
        # CuPy, PyTorch, JAX, Numba... arrays: shared through DLPack or the CUDA array interface.
        out = asarray_foreign(obj, dtype, device, copy)
        if out is not None:
            return out
    if copy is False and not is_numpy and not _exports_memory(obj):
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    arr = obj if is_numpy else np.asarray(obj, dtype=dtype)
    stored = _storable(arr, obj)
    if copy is False and stored is not arr:
        raise ValueError(f"Unable to avoid copy while creating an array as requested: "
                         f"{arr.dtype} with strides {arr.strides}"
                         f"{'' if arr.flags.aligned else ' at an unaligned address'} must be "
                         f"copied to {stored.dtype}, aligned, with strides in whole elements.")
    return _core._from_numpy(stored, dtype, device, copy)


def host_values(obj, dtype=None):
    """A small argument (weights, quantiles, coordinates) as a NumPy array, read back from the
    device when it is an accelpy array."""
    return np.asarray(obj.tolist() if isinstance(obj, ndarray) else obj, dtype=dtype)


def array(obj, dtype=None, *, copy=True, device=None):
    """Like ``numpy.array``: a copy by default."""
    return asarray(obj, dtype=dtype, device=device, copy=copy)


def ascontiguousarray(a, dtype=None, *, device=None):
    """A C-contiguous array of at least one dimension (``numpy.ascontiguousarray``): `a` itself
    when it already is one of `dtype` on `device`, else a copy."""
    x = asarray(a, dtype=dtype, device=device)
    if x.ndim == 0:
        x = x.reshape((1,))
    return x if x.flags.c_contiguous else x.copy()


def _holds_arrays(seq):
    return any(isinstance(x, ndarray) or (isinstance(x, (list, tuple)) and _holds_arrays(x))
               for x in seq)


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
    if not supported(dt):
        raise TypeError(
            f"cannot make an accelpy array from {type(original).__name__} with dtype {dt}: "
            "accelpy stores bool, integers, float16/bfloat16/float32/float64 and "
            "complex64/complex128")
    return arr


def _like(a, dtype, device, shape):
    if not hasattr(a, "shape") or not hasattr(a, "dtype"):
        a = np.asarray(a)
    dev = getattr(a, "device", None) if device is None else device
    if not isinstance(dev, _core.Device):
        dev = None  # NumPy inputs: the default device
    return (a.shape if shape is None else shape), (a.dtype if dtype is None else dtype), dev


def empty_like(a, dtype=None, *, shape=None, device=None):
    """An uninitialized array with a's shape, dtype and device (numpy.empty_like)."""
    shape, dt, dev = _like(a, dtype, device, shape)
    return _core.empty(shape, dt, device=dev)


def zeros_like(a, dtype=None, *, shape=None, device=None):
    """Zeros with a's shape, dtype and device (numpy.zeros_like)."""
    shape, dt, dev = _like(a, dtype, device, shape)
    return _core.zeros(shape, dt, device=dev)


def ones_like(a, dtype=None, *, shape=None, device=None):
    """Ones with a's shape, dtype and device (numpy.ones_like)."""
    shape, dt, dev = _like(a, dtype, device, shape)
    return _core.ones(shape, dt, device=dev)


def full_like(a, fill_value, dtype=None, *, shape=None, device=None):
    """fill_value with a's shape, dtype and device (numpy.full_like)."""
    shape, dt, dev = _like(a, dtype, device, shape)
    return _core.full(shape, fill_value, dt, device=dev)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, *, device=None):
    """num evenly spaced samples over [start, stop] (or [start, stop) without the endpoint),
    bit for bit as ``numpy.linspace``; with ``retstep``, also the spacing (a NumPy scalar)."""
    y = _core.linspace(start, stop, num, endpoint, dtype, device=device)
    if not retstep:
        return y
    div = num - 1 if endpoint else num
    compute = np.result_type(start, stop, 1.0)  # NumPy's dtype for the arithmetic
    step = np.subtract(stop, start, dtype=compute) / div if div > 0 else np.nan
    return y, step


def identity(n, dtype=None, *, device=None):
    """The n x n identity matrix."""
    return _core.eye(n, dtype=dtype, device=device)
