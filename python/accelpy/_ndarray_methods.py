"""The ndarray methods written in Python, as one table installed on the bound class.

ndarray is the C++ type nanobind binds (accelpy._core.ndarray); methods whose work is Python
(printing, NumPy's protocols, pickling, flags, the NumPy methods composed in Python) are set on
it here, once, when the package is imported, rather than bound in C++ as Python callbacks.
"""

import os
from types import ModuleType
from typing import Any

import numpy as np

from . import _core, _interop
from ._core import ndarray
from ._creation import asarray
from ._indexing import diagonal
from ._io import tofile
from ._kernels import DevicePointer
from ._linear_algebra import trace
from ._ndarray_inplace import flat, resize, shape
from ._printing import array_repr, array_str, format_array
from ._rearranging import repeat
from ._sorting import searchsorted
from ._structured_views import view


def to_device(self, device, /, *, stream=None):
    """The array on `device` (the array itself when it is there already); with `stream`
    (an accelpy.cuda.Stream), the copy is queued on that stream (Array API to_device)."""
    if stream is None:
        return self.to(device)
    if isinstance(stream, int):
        raise TypeError("to_device: stream must be an accelpy.cuda.Stream (integer handles of "
                        "other libraries' streams are not accepted)")
    with stream:
        return self.to(device)


def _rebuild(data, device):
    return asarray(data, device=device)


def reduce(self):
    """Pickling (for Dask workers, multiprocessing): the data travels as a NumPy array and
    comes back on a device of the same name (each worker's own cuda:0 under Dask-CUDA). A CPU
    array's NumPy view is pickled, so protocol 5 sends its memory out of band, uncopied."""
    host = np.asarray(self) if self.device.type == "cpu" else _core.asnumpy(self)
    return (_rebuild, (host, str(self.device)))


def dask_tokenize(self):
    """A fresh token per call: hashing the data would copy it to the host, and Dask needs
    tokens only to name graph keys (it treats accelpy chunks like any unhashable object)."""
    return ("accelpy.ndarray", os.urandom(16).hex())  # uuid4's randomness; uuid is slow to import


def sizeof(self):
    """sys.getsizeof: the handle and the bytes of the elements the array covers, as NumPy
    counts an array's data (Dask's memory accounting of chunks reads this)."""
    return object.__sizeof__(self) + int(self.nbytes)


class Flags:
    """The memory-layout flags of an array (``ndarray.flags``): read-only, as attributes or by
    NumPy's keys (``x.flags["C_CONTIGUOUS"]``)."""

    __slots__ = ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned")
    _NAMES = ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned",
              "writebackifcopy")
    writebackifcopy = False  # no accelpy array writes back into another on release

    def __init__(self, x):
        shape, strides, item = x.shape, x.strides, x.itemsize
        self.c_contiguous = _contiguous(shape, strides, item, reversed(range(len(shape))))
        self.f_contiguous = _contiguous(shape, strides, item, range(len(shape)))
        self.owndata = x.base is None  # NumPy: an array that is not a view owns its data
        self.writeable = bool(x._writeable)
        self.aligned = True  # accelpy's views always start on whole elements

    @property
    def contiguous(self):
        return self.c_contiguous

    # NumPy's combined flags (numpy.isfortran reads fnc)
    fortran = property(lambda self: self.f_contiguous)
    fnc = property(lambda self: self.f_contiguous and not self.c_contiguous)
    forc = property(lambda self: self.f_contiguous or self.c_contiguous)
    behaved = property(lambda self: self.aligned and self.writeable)
    carray = property(lambda self: self.behaved and self.c_contiguous)

    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
             "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
             "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned",
             "OWNDATA": "owndata", "O": "owndata", "WRITEBACKIFCOPY": "writebackifcopy",
             "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved",
             "B": "behaved", "CARRAY": "carray", "CA": "carray"}

    def __getitem__(self, key):
        try:
            return getattr(self, self._KEYS[key.upper() if isinstance(key, str) else key])
        except (KeyError, AttributeError):
            raise KeyError(f"Unknown flag {key!r}") from None

    def __repr__(self):
        return "".join(f"  {k.upper()} : {getattr(self, k)}\n" for k in self._NAMES)


def _contiguous(shape, strides, itemsize, axes):
    """NumPy's rule: axes of length 1 may have any stride; an empty array is contiguous."""
    if 0 in shape:
        return True
    expected = itemsize
    for d in axes:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def flags(self):
    """The memory-layout flags (``numpy.ndarray.flags``)."""
    return Flags(self)


def tobytes(self, order="C"):
    """The raw bytes of the elements, as ``numpy.ndarray.tobytes`` (copied to the host)."""
    if order in ("A", "K"):  # the host copy is C-ordered: decide from this array's layout
        f = self.flags
        order = "F" if f.f_contiguous and not f.c_contiguous else "C"
    return self.get().tobytes(order=order)


def data(self):
    """The memory of the elements, as each library's programs read it on that device: on the
    CPU NumPy's ``memoryview`` (it aliases the array: writes through it change the array, and
    ``.data.tobytes()`` are the elements in C order); on a GPU CuPy's pointer object
    (``.data.ptr``, the address of the first element; ``int()``; ``.size`` in bytes), whose
    ``tobytes()`` copies the elements to the host as the memoryview's does."""
    if self.device.type == "cpu":
        return memoryview(np.asarray(self))
    return DevicePointer(_core._data_ptr(self), self.nbytes, owner=self)


_export_dlpack = ndarray.__dlpack__  # the binding's, which install() wraps


def dlpack(self, *, stream: Any = None, max_version: tuple[int, int] | None = None,
           dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:
    """The Array API's ``__dlpack__``; the binding's under a signature `inspect` reads
    (see _signatures)."""
    return _export_dlpack(self, stream=stream, max_version=max_version, dl_device=dl_device,
                          copy=copy)


dlpack.__doc__ = _export_dlpack.__doc__


def delitem(self, key):
    """``del a[key]``: an array's size is fixed, so NumPy refuses it with ValueError."""
    raise ValueError("cannot delete array elements")


def get(self, stream=None, order="C", out=None, blocking=True):
    """A NumPy copy of the data, as CuPy's ``ndarray.get`` (`stream`, `order`, `out` as
    ``accelpy.asnumpy``)."""
    return _interop.asnumpy(self, stream=stream, order=order, out=out, blocking=blocking)


def set_from(self, arr, stream=None):
    """Copies the host array `arr` (same shape) into this array, as CuPy's ``ndarray.set``;
    with `stream` (an accelpy.cuda.Stream) the copy is queued there."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"set: arr must be a NumPy array, got {type(arr).__name__}")
    if arr.shape != self.shape:
        raise ValueError(f"set: arr has shape {arr.shape}, the array {self.shape}")
    if arr.dtype != self.dtype:
        raise TypeError(f"set: arr has dtype {arr.dtype}, the array {self.dtype}")
    if stream is None or self.device.type != "cuda":
        self[...] = arr
        return
    with stream:
        self[...] = arr
        _core.eval(self)
    # accelpy's streams do not wait for each other by themselves (CuPy's legacy default stream
    # does): later work on the current stream, a ``get`` for one, must come after the copy.
    cuda = _core._cuda
    done = cuda.Event.create(self.device, False, False)
    done.record(stream._s)
    cuda.Stream.current(self.device).wait_event(done)


def _diagonal(self, offset=0, axis1=0, axis2=1):
    return diagonal(self, offset, axis1, axis2)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return trace(self, offset, axis1, axis2, dtype, out)


def _repeat(self, repeats, axis=None):
    return repeat(self, repeats, axis)


def _searchsorted(self, v, side="left", sorter=None):
    return searchsorted(self, v, side, sorter)


_diagonal.__doc__ = diagonal.__doc__
_searchsorted.__doc__ = searchsorted.__doc__
_trace.__doc__ = trace.__doc__
_repeat.__doc__ = repeat.__doc__

# In the order the stubs of the bound class list them (scripts/gen_stubs.py reads the class).
METHODS: dict[str, Any] = {
    "__repr__": array_repr,
    "__str__": array_str,
    "__format__": format_array,
    "flags": property(flags),
    "tobytes": tobytes,
    "data": property(data),
    "__delitem__": delitem,
    "__sizeof__": sizeof,
    "__reduce__": reduce,
    "__dask_tokenize__": dask_tokenize,
    # Its common case (a plain call on arrays and numbers) in C, the rest in Python.
    "__array_ufunc__": _core._array_ufunc_method(_interop.array_ufunc, _interop._UFUNCS),
    "__array_function__": _interop.array_function,
    "__array_namespace__": _interop.array_namespace,
    "to_device": to_device,
    "diagonal": _diagonal,
    "trace": _trace,
    "repeat": _repeat,
    "searchsorted": _searchsorted,
    "shape": shape,
    "flat": flat,
    "resize": resize,
    "tofile": tofile,
    "get": get,
    "set": set_from,
    "__dlpack__": dlpack,
    "view": view,
}


def install(namespace: ModuleType) -> None:
    """Sets METHODS on ndarray; `namespace` (the package, complete by now) is where NumPy's
    protocols dispatch to."""
    _interop.use_namespace(namespace)
    for name, method in METHODS.items():
        setattr(ndarray, name, method)
