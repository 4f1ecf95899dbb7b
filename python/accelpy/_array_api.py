"""The parts of the Python Array API standard (2024.12) that are not NumPy functions: the
inspection namespace (``__array_namespace_info__``), ``isdtype``, ``finfo``/``iinfo``
(bfloat16 included), ``unstack``, and ``vecdot`` composed from fused elementwise ops and a sum.

Code written for "any array library" (array-api-compat, SciPy's array API support) takes the
namespace from ``x.__array_namespace__()``, which is accelpy itself.
"""

import numpy as np

from . import _core, _dtypes

__array_api_version__ = "2024.12"


def _is_bf16(d):
    # A bfloat16 dtype exists only once ml_dtypes is imported; compare without importing it.
    return d.name == "bfloat16" and _dtypes.supported(d)


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


def isdtype(dtype, kind):
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


class iinfo_object(_Limits):
    """Machine limits of an integer dtype, as Python ints (Array API iinfo): bits, max, min,
    dtype."""

    __slots__ = ("bits", "max", "min", "dtype")


def finfo(type):  # noqa: A002 - the standard's parameter name
    """Limits of a floating dtype (or of an array's): bits, eps, max, min, smallest_normal,
    dtype. For complex dtypes, those of their real parts; bfloat16 via ml_dtypes."""
    dt = _dtype(type)
    if dt.kind == "c":
        dt = np.dtype(np.float32 if dt == np.complex64 else np.float64)
    if _is_bf16(dt):
        import ml_dtypes

        info = ml_dtypes.finfo(dt.type)
    elif dt.kind == "f":
        info = np.finfo(dt)
    else:
        raise ValueError(f"finfo: {dt} is not a floating dtype (use iinfo for integers)")
    return finfo_object(bits=int(info.bits), eps=float(info.eps), max=float(info.max),
                        min=float(info.min), smallest_normal=float(info.smallest_normal),
                        dtype=dt)


def iinfo(type):  # noqa: A002
    """Limits of an integer dtype (or of an array's): bits, max, min, dtype."""
    dt = _dtype(type)
    if dt.kind not in "iu":
        raise ValueError(f"iinfo: {dt} is not an integer dtype (use finfo for floats)")
    info = np.iinfo(dt)
    return iinfo_object(bits=int(info.bits), max=int(info.max), min=int(info.min), dtype=dt)


def unstack(x, /, *, axis=0):
    """The slices of x along `axis`, as a tuple of views (Array API unstack)."""
    x = _core.moveaxis(x, axis, 0) if x.ndim else x
    if x.ndim == 0:
        raise ValueError("unstack: a 0-d array has no axis to split")
    return tuple(x[i] for i in range(x.shape[0]))


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of vectors along `axis`, conjugating x1 (Array API vecdot): one fused
    multiply-and-sum, broadcasting the other dimensions."""
    import accelpy as ap

    x1, x2 = ap.asarray(x1), ap.asarray(x2, device=getattr(x1, "device", None))
    if axis >= 0:
        raise ValueError("vecdot: axis must be negative (it counts from the last dimension, "
                         "as the standard asks)")
    if -axis > min(x1.ndim, x2.ndim) or x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: shapes {x1.shape} and {x2.shape} do not share axis {axis}")
    if np.dtype(x1.dtype).kind == "c":
        x1 = ap.conj(x1)
    product = x1 * x2
    return ap.sum(product, axis=axis, dtype=product.dtype)  # result_type(x1, x2), not int64


class Info:
    """The Array API inspection namespace (``accelpy.__array_namespace_info__()``)."""

    def capabilities(self):
        """What this library does: boolean indexing and data-dependent output shapes (found
        from the live namespace, so they turn on when the functions exist), max dimensions."""
        import accelpy as ap

        data_dependent = all(hasattr(ap, n) for n in (
            "nonzero", "unique_all", "unique_counts", "unique_inverse", "unique_values"))
        return {"boolean indexing": _boolean_indexing(), "data-dependent shapes": data_dependent,
                "max dimensions": 64}

    def default_device(self):
        """Where arrays go when no device is named."""
        return _core.get_default_device()

    def devices(self):
        """Every device accelpy can use here: the CPU and each CUDA device."""
        from . import cuda

        found = [_core.Device("cpu")]
        if cuda.is_available():
            found += [_core.Device(f"cuda:{i}") for i in range(cuda.device_count())]
        return found

    def default_dtypes(self, *, device=None):
        """The dtypes used when none is given (the same on every device)."""
        self._check(device)
        return {"real floating": np.dtype(np.float64), "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None):
        """The dtypes accelpy stores (every dtype on every device), by name; `kind` as in
        isdtype selects some. bfloat16 is included beyond the standard's list."""
        self._check(device)
        out = {}
        for t in _dtypes.ALL:
            dt = np.dtype(t)
            if kind is None or isdtype(dt, kind):
                out["bool" if dt.kind == "b" else dt.name] = dt
        return out

    def _check(self, device):
        if device is not None and _core.Device(device) not in self.devices():
            raise ValueError(f"device {device} is not available here")


def __array_namespace_info__():
    """The Array API inspection namespace: capabilities, default_device, devices, dtypes,
    default_dtypes."""
    return Info()


_BOOLEAN_INDEXING = []


def _boolean_indexing():
    """Whether arrays take boolean masks as indices (tried once, on two elements)."""
    if not _BOOLEAN_INDEXING:
        import accelpy as ap

        try:
            ap.zeros((2,), device="cpu")[ap.asarray(np.array([True, False]), device="cpu")]
            works = True
        except (NotImplementedError, IndexError, TypeError):
            works = False
        _BOOLEAN_INDEXING.append(works)
    return _BOOLEAN_INDEXING[0]


__all__ = ["__array_api_version__", "__array_namespace_info__", "finfo", "iinfo", "isdtype",
           "unstack", "vecdot"]
