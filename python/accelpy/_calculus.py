"""Numerical calculus on samples: gradient and trapezoid, as NumPy computes them, composed from
views and fused elementwise ops (every device)."""

import numpy as np

from . import _core
from ._creation import asarray as _asarray
from ._creation import host_values
from ._rearranging import _along, _axes, _axis

__all__ = ["gradient", "trapezoid"]


def _scalar(x):
    # A Python number stays one (it does not widen float32 results, as in NumPy).
    return x if isinstance(x, (int, float)) else host_values(x)[()]


def _spacings(varargs, f, axes):
    """One spacing per axis: a Python number, or the differences of a coordinate array."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(host_values(varargs[0])) == 0:
        return [_scalar(varargs[0])] * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("invalid number of arguments")
    out = []
    for spacing, ax in zip(varargs, axes, strict=True):
        h = host_values(spacing)
        if h.ndim == 0:
            out.append(_scalar(spacing))
            continue
        if h.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(h) != f.shape[ax]:
            raise ValueError("when 1d, distances must match the length of the corresponding "
                             "dimension")
        if h.dtype.kind in "iu":
            h = h.astype(np.float64)
        d = np.diff(h)
        out.append(d[0] if (d == d[0]).all() else d)  # uniform coordinates: a scalar, as NumPy
    return out


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of sampled values by second-order central differences inside and first-
    or second-order one-sided differences at the ends (numpy.gradient); spacings are scalars or
    coordinate arrays. A tuple of arrays for several axes."""
    f = _asarray(f)
    axes = _axes(axis, f.ndim)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    spacings = _spacings(varargs, f, axes)
    otype = np.float64 if f.dtype.kind in "iub" else f.dtype
    f = f.astype(otype)
    results = []
    for ax, dx in zip(axes, spacings, strict=True):
        n = f.shape[ax]
        if n < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at "
                             "least (edge_order + 1) elements are required.")

        def s(index, ax=ax):
            return f[_along(f.ndim, ax, index)]

        shape = [1] * f.ndim
        shape[ax] = -1

        def along(v, shape=shape):  # coefficients along the axis, on f's device
            return _core.reshape(_asarray(v, device=f.device), tuple(shape))

        if np.ndim(dx) == 0:
            inner = (s(slice(2, None)) - s(slice(None, -2))) / (2.0 * dx)
            if edge_order == 1:
                first = (s(slice(1, 2)) - s(slice(0, 1))) / dx
                last = (s(slice(-1, None)) - s(slice(-2, -1))) / dx
            else:
                first = (-1.5 / dx) * s(slice(0, 1)) + (2.0 / dx) * s(slice(1, 2)) \
                    + (-0.5 / dx) * s(slice(2, 3))
                last = (0.5 / dx) * s(slice(-3, -2)) + (-2.0 / dx) * s(slice(-2, -1)) \
                    + (1.5 / dx) * s(slice(-1, None))
        else:
            dx1, dx2 = dx[:-1], dx[1:]
            a = -dx2 / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            inner = along(a) * s(slice(None, -2)) + along(b) * s(slice(1, -1)) \
                + along(c) * s(slice(2, None))
            if edge_order == 1:
                first = (s(slice(1, 2)) - s(slice(0, 1))) / dx[0]
                last = (s(slice(-1, None)) - s(slice(-2, -1))) / dx[-1]
            else:
                d1, d2 = dx[0], dx[1]
                first = (-(2.0 * d1 + d2) / (d1 * (d1 + d2))) * s(slice(0, 1)) \
                    + ((d1 + d2) / (d1 * d2)) * s(slice(1, 2)) \
                    + (-d1 / (d2 * (d1 + d2))) * s(slice(2, 3))
                d1, d2 = dx[-2], dx[-1]
                last = (d2 / (d1 * (d1 + d2))) * s(slice(-3, -2)) \
                    + (-(d2 + d1) / (d1 * d2)) * s(slice(-2, -1)) \
                    + ((2.0 * d2 + d1) / (d2 * (d1 + d2))) * s(slice(-1, None))
        parts = [first, inner, last] if n > 2 else [first, last]
        results.append(_core.concatenate([p.astype(otype) for p in parts], axis=ax))
    return results[0] if len(results) == 1 else tuple(results)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of sampled values by the trapezoidal rule (numpy.trapezoid), over x's
    samples (1-D along `axis`, or y's shape) or a constant spacing dx."""
    y = _asarray(y)
    axis = _axis(axis, y.ndim)
    if x is None:
        d = dx
    else:
        x = _asarray(x, device=y.device)
        if x.ndim == 1:
            d = x[1:] - x[:-1]
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = _core.reshape(d, tuple(shape))
        else:
            d = x[_along(x.ndim, axis, slice(1, None))] - x[_along(x.ndim, axis, slice(None, -1))]
    head = y[_along(y.ndim, axis, slice(1, None))]
    tail = y[_along(y.ndim, axis, slice(None, -1))]
    return _core.sum(d * (head + tail) / 2.0, axis=axis)
