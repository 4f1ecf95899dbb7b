"""Questions about arrays (shape, size, ndim, complex or real, scalar, equality, broadcast
shapes, shared memory), conversions that keep accelpy arrays (asanyarray, require), building
arrays from functions (fromfunction, apply_along_axis) and setxor1d."""

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray

__all__ = [
    "shape",
    "size",
    "ndim",
    "iscomplexobj",
    "isrealobj",
    "iscomplex",
    "isreal",
    "isscalar",
    "array_equal",
    "array_equiv",
    "broadcast_shapes",
    "may_share_memory",
    "shares_memory",
    "asanyarray",
    "require",
    "fromfunction",
    "apply_along_axis",
    "setxor1d",
]


def shape(a):
    """The shape of an array or array-like (numpy.shape)."""
    return a.shape if isinstance(a, ndarray) else np.shape(a)


def size(a, axis=None):
    """The number of elements, in all or along one axis (numpy.size)."""
    if not isinstance(a, ndarray):
        return np.size(a, axis)
    if axis is None:
        return a.size
    from ._rearranging import _axes

    return int(np.prod([a.shape[ax] for ax in _axes(axis, a.ndim)], dtype=np.int64))


def ndim(a):
    """The number of dimensions of an array or array-like (numpy.ndim)."""
    return a.ndim if isinstance(a, ndarray) else np.ndim(a)


def _dtype_of(x):
    if isinstance(x, ndarray):
        return x.dtype
    dt = getattr(x, "dtype", None)
    return np.dtype(dt) if dt is not None else np.asarray(x).dtype


def iscomplexobj(x):
    """Whether x has a complex dtype, whatever its values (numpy.iscomplexobj)."""
    return _dtype_of(x).kind == "c"


def isrealobj(x):
    """Whether x has a non-complex dtype (numpy.isrealobj)."""
    return not iscomplexobj(x)


def iscomplex(x):
    """Elementwise: whether the imaginary part is nonzero (numpy.iscomplex)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        return _core.imag(x) != 0
    return _core.zeros(x.shape, dtype=np.bool_, device=x.device)


def isreal(x):
    """Elementwise: whether the imaginary part is zero (numpy.isreal)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        return _core.imag(x) == 0
    return _core.ones(x.shape, dtype=np.bool_, device=x.device)


def isscalar(element):
    """Whether `element` is a scalar (numpy.isscalar): arrays, 0-d included, are not."""
    return not isinstance(element, ndarray) and np.isscalar(element)


def array_equal(a1, a2, equal_nan=False):
    """Whether two arrays have the same shape and elements (numpy.array_equal); with
    `equal_nan`, NaNs in the same places count as equal."""
    a1 = asarray(a1)
    a2 = asarray(a2, device=a1.device)
    if a1.shape != a2.shape:
        return False
    same = a1 == a2
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        same = _core.logical_or(same, _core.logical_and(_core.isnan(a1), _core.isnan(a2)))
    return bool(_core.all(same))


def array_equiv(a1, a2):
    """Whether two arrays are equal after broadcasting to one shape (numpy.array_equiv)."""
    a1 = asarray(a1)
    a2 = asarray(a2, device=a1.device)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(_core.all(a1 == a2))


def broadcast_shapes(*args):
    """The shape the given shapes broadcast to (numpy.broadcast_shapes)."""
    return np.broadcast_shapes(*args)


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


def may_share_memory(a, b, /, max_work=0):
    """Whether the memory ranges of a and b overlap (numpy.may_share_memory); arrays on
    different devices never do."""
    return shares_memory(a, b, max_work=max_work)


def shares_memory(a, b, /, max_work=-1):
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


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """`a` as an accelpy array (numpy.asanyarray; accelpy has no subclasses, so as asarray);
    only C order is supported."""
    if order not in (None, "C", "K", "A"):
        raise ValueError(f"asanyarray: order {order!r} is not supported (accelpy arrays are "
                         "C-ordered)")
    if like is not None:
        raise TypeError("asanyarray: the 'like' argument is not supported")
    return asarray(a, dtype=dtype, device=device, copy=copy)


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "A": "A", "ALIGNED": "A",
                 "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """`a` as an accelpy array of `dtype` meeting `requirements` (numpy.require): 'C'
    (contiguous), 'A' (aligned), 'W' (writeable), 'O' (own data: a copy), 'E'; 'F' is not
    supported."""
    if like is not None:
        raise TypeError("require: the 'like' argument is not supported")
    reqs = set()
    if requirements:
        for r in [requirements] if isinstance(requirements, str) else requirements:
            key = r.upper()
            if key in ("F", "F_CONTIGUOUS", "FORTRAN"):
                raise ValueError("require: Fortran order ('F') is not supported; accelpy arrays "
                                 "are C-ordered")
            if key not in _REQUIREMENTS:
                raise KeyError(f"{r!r} is not a valid requirement")
            reqs.add(_REQUIREMENTS[key])
    arr = asarray(a, dtype=dtype)
    if "O" in reqs:
        return arr.copy()
    if "C" in reqs or "W" in reqs:
        flags = arr.flags
        if ("C" in reqs and not flags.c_contiguous) or ("W" in reqs and not flags.writeable):
            return arr.copy()
    return arr


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*indices(shape, dtype), **kwargs) (numpy.fromfunction): the function gets one
    coordinate array per dimension."""
    if like is not None:
        raise TypeError("fromfunction: the 'like' argument is not supported")
    from ._indexing import indices

    return function(*indices(shape, dtype=dtype, sparse=False), **kwargs)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to every 1-D slice of `arr` along `axis`, its results stacked in that
    axis's place (numpy.apply_along_axis); one call per slice, as NumPy."""
    from ._rearranging import _axis

    arr = asarray(arr)
    axis = _axis(axis, arr.ndim)
    moved = _core.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if any(d == 0 for d in outer):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    results = [asarray(func1d(moved[idx], *args, **kwargs), device=arr.device)
               for idx in np.ndindex(*outer)]
    stacked = _core.stack(results).reshape(outer + results[0].shape)
    # The result's own axes replace `axis` (NumPy puts them there).
    res_nd = results[0].ndim
    order = list(range(axis)) + list(range(len(outer), len(outer) + res_nd)) + \
        list(range(axis, len(outer)))
    return _core.transpose(stacked, tuple(order))


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the two arrays (numpy.setxor1d)."""
    from ._sets import unique

    a1 = asarray(ar1)
    a2 = asarray(ar2, device=a1.device)
    if not assume_unique:
        a1, a2 = unique(a1), unique(a2)
    aux = _core.sort(_core.concatenate([a1.reshape(-1), a2.reshape(-1)], axis=0))
    if aux.size == 0:
        return aux
    edge = _core.ones((1,), dtype=np.bool_, device=aux.device)
    flag = _core.concatenate([edge, aux[1:] != aux[:-1], edge], axis=0)
    return aux[_core.logical_and(flag[1:], flag[:-1])]
