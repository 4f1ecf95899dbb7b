"""NumPy's dispatch protocols on accelpy arrays.

- ``__array_ufunc__`` (NEP 13): ``np.sin(x)``, ``np.add(x, n, out=y)``, ``np.add.reduce(x)``,
  ``np.multiply.outer(x, y)`` run accelpy's own functions and return accelpy arrays on the
  arrays' device; NumPy operands move there. A ufunc, method or argument accelpy does not have
  returns NotImplemented, so NumPy raises its TypeError.
- ``__array_function__`` (NEP 18): ``np.concatenate([x, y])``, ``np.sum(x, axis=0)``, ... call
  the accelpy function of the same name in the same (sub)module. The map is looked up in the
  live namespace, so every function added to accelpy is dispatched without a table here.
- ``__array_namespace__``: the Array API namespace, accelpy itself.
"""

import numbers
import os

import numpy as np

from . import _core
from ._core import ndarray

# NumPy ufunc name -> accelpy reduction, for ufunc.reduce.
_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
               "logical_and": "all", "logical_or": "any", "fmax": "max", "fmin": "min"}
_NAN_IGNORING = {"fmax", "fmin"}  # their reductions skip NaN; max/min propagate it
# NumPy ufunc name -> accelpy scans (NumPy's name first, then the Array API's), for accumulate.
_ACCUMULATIONS = {"add": ("cumsum", "cumulative_sum"), "multiply": ("cumprod", "cumulative_prod")}
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


def _accelpy():
    import accelpy

    return accelpy


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


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's ufunc protocol (NEP 13): runs the accelpy function of the ufunc's name."""
    if method == "reduceat":
        # Raised here rather than declined: NumPy 2.4 leaks a reference to the operand when
        # every override of a reduction declines.
        raise TypeError(f"accelpy does not implement {ufunc.__name__}.reduceat")
    out = kwargs.pop("out", None)
    if out is not None and not isinstance(out, tuple):
        out = (out,)
    if not all(_is_operand(x) for x in (inputs if method != "at" else inputs[:1])):
        return NotImplemented  # another library's array: let it (or NumPy) decide
    if out is not None and not all(isinstance(o, ndarray) or o is None for o in out):
        return NotImplemented  # results go to accelpy arrays only
    for key, default in _UFUNC_DEFAULTS.items():
        value = kwargs.pop(key, default)
        if not (value is default or (isinstance(value, str) and value == default)):
            return NotImplemented
    if kwargs.pop("signature", None) is not None or kwargs.pop("axes", None) is not None:
        return NotImplemented
    device = _device_of(inputs + (out or ()))
    ap = _accelpy()
    if method == "__call__":
        return _call(ap, ufunc, _on_device(inputs, device), out, **kwargs)
    if method == "outer":
        if len(inputs) != 2 or kwargs.pop("dtype", None) is not None or kwargs:
            return NotImplemented
        a, b = (ap.asarray(v, device=device) for v in inputs)
        a = ap.reshape(a, tuple(a.shape) + (1,) * b.ndim)
        return _call(ap, ufunc, [a, b], out)
    if method == "reduce":
        result = _reduce(ap, ufunc, ap.asarray(inputs[0], device=device), out, **kwargs)
    elif method == "accumulate":
        result = _accumulate(ap, ufunc, ap.asarray(inputs[0], device=device), out, **kwargs)
    else:
        return NotImplemented  # at
    if result is NotImplemented:
        # Raised here rather than declined (see reduceat above).
        raise TypeError(f"accelpy does not implement {ufunc.__name__}.{method} with these "
                        f"arguments ({', '.join(sorted(kwargs)) or 'no keywords'})")
    return result


def _call(ap, ufunc, args, out, dtype=None, **kwargs):
    if kwargs:
        return NotImplemented
    fn = _callable_in(ap, ufunc.__name__)
    if fn is None:
        return NotImplemented
    if dtype is not None:
        # NumPy's dtype= picks the loop: the inputs are converted to it first.
        args = [a.astype(dtype) if isinstance(a, ndarray) else ap.asarray(a, dtype=dtype)
                for a in args]
    if out is None or all(o is None for o in out):
        return fn(*args)
    if ufunc.nout == 1:
        return fn(*args, out=out[0])
    results = fn(*args)
    for o, r in zip(out, results, strict=True):
        if o is not None:
            o[...] = r
    return tuple(r if o is None else o for o, r in zip(out, results, strict=True))


def _reduce(ap, ufunc, a, out, axis=0, dtype=None, keepdims=False, initial=np._NoValue,
            where=True, **kwargs):
    name = _REDUCTIONS.get(ufunc.__name__)
    if name is None or kwargs or initial is not np._NoValue or where is not True:
        return NotImplemented
    if ufunc.__name__ in _NAN_IGNORING and np.dtype(a.dtype).kind in "fc":
        return NotImplemented
    fn = getattr(ap, name)
    args = {"axis": axis, "keepdims": keepdims}
    if out is not None:
        args["out"] = out[0]
    if dtype is not None:
        if name not in ("sum", "prod"):
            if np.dtype(dtype) != a.dtype:
                return NotImplemented
        else:
            args["dtype"] = dtype
    return fn(a, **args)


def _accumulate(ap, ufunc, a, out, axis=0, dtype=None, **kwargs):
    names = _ACCUMULATIONS.get(ufunc.__name__, ())
    fn = next((f for f in (_callable_in(ap, n) for n in names) if f is not None), None)
    if fn is None or kwargs:
        return NotImplemented
    result = fn(a, axis=axis) if dtype is None else fn(a, axis=axis, dtype=dtype)
    if out is not None and out[0] is not None:
        out[0][...] = result
        return out[0]
    return result


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
        if out.ndim < ndmin:
            out = ap.reshape(out, (1,) * (ndmin - out.ndim) + tuple(out.shape))
        return out

    return create


def _is_c_contiguous(a):
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
    from ._creation import asarray

    return asarray(data, device=device)


def reduce(self):
    """Pickling (for Dask workers, multiprocessing): the data travels as a NumPy array and
    comes back on a device of the same name (each worker's own cuda:0 under Dask-CUDA)."""
    return (_rebuild, (_core.asnumpy(self), str(self.device)))


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

    __slots__ = ("c_contiguous", "f_contiguous", "writeable", "aligned")

    def __init__(self, x):
        shape, strides, item = x.shape, x.strides, x.itemsize
        self.c_contiguous = _contiguous(shape, strides, item, reversed(range(len(shape))))
        self.f_contiguous = _contiguous(shape, strides, item, range(len(shape)))
        self.writeable = bool(x._writeable)
        self.aligned = True  # accelpy's views always start on whole elements

    @property
    def contiguous(self):
        return self.c_contiguous

    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
             "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
             "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned"}

    def __getitem__(self, key):
        try:
            return getattr(self, self._KEYS[key.upper() if isinstance(key, str) else key])
        except (KeyError, AttributeError):
            raise KeyError(f"Unknown flag {key!r}") from None

    def __repr__(self):
        return "\n".join(f"  {k.upper()} : {getattr(self, k)}"
                         for k in ("c_contiguous", "f_contiguous", "writeable", "aligned"))


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


def install():
    ndarray.flags = property(flags)
    ndarray.tobytes = tobytes
    ndarray.__sizeof__ = sizeof
    ndarray.__reduce__ = reduce
    ndarray.__dask_tokenize__ = dask_tokenize
    ndarray.__array_ufunc__ = array_ufunc
    ndarray.__array_function__ = array_function
    ndarray.__array_namespace__ = array_namespace
    ndarray.to_device = to_device

