"""Helpers shared by the chapter modules: axis normalisation, axes prepended up to a number of
dimensions, ufunc keyword checks and dtype kinds. It imports nothing of the package, so every
chapter module, array creation included, may import it."""

import operator

import numpy as np


def c_long(value):
    """operator.index(value), with NumPy's OverflowError past 64 bits (its conversion to C)."""
    value = operator.index(value)
    if not -(2**63) <= value < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    return value


def normalize_axis(axis, ndim):
    if isinstance(axis, (bool, np.bool_)):
        raise TypeError("'bool' object cannot be interpreted as an integer (axis)")
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"an integer is required for the axis, got {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        if not -(2**63) <= axis < 2**63:  # NumPy's C conversion fails before its bounds check
            raise OverflowError("Python int too large to convert to C long")
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def normalize_axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        out = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError("repeated axis")
        return out
    return (normalize_axis(axis, ndim),)


def along_axis(ndim, axis, index):
    """An index tuple applying `index` (a slice or an int) to one axis."""
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


def prepend_axes(x, ndim):
    """x with length-1 axes prepended up to `ndim` axes (numpy.array's ndmin, numpy.block's
    blocks); x itself when it has that many already."""
    return x.reshape((1,) * (ndim - x.ndim) + tuple(x.shape)) if x.ndim < ndim else x


PY_SCALARS = (bool, int, float, complex)


def check_ufunc_options(name, out=None, where=True, **kwargs):
    """Raises for the ufunc keywords accelpy does not take (results are always new arrays)."""
    if out is not None and not (isinstance(out, tuple) and all(o is None for o in out)):
        raise NotImplementedError(f"accelpy.{name}: out= is not supported; assign the result")
    if where is not True:
        raise NotImplementedError(f"accelpy.{name}: where= is not supported; use accelpy.where")
    for key in kwargs:
        raise NotImplementedError(f"accelpy.{name}: the ufunc keyword {key}= is not supported")


def is_complex_dtype(dt):
    return np.dtype(dt).kind == "c"


def is_float_dtype(dt):
    return np.dtype(dt).kind == "f" or str(dt) == "bfloat16"
