"""Mathematical functions on samples (NumPy's reference: "Mathematical functions", sums,
products, differences and miscellaneous): diff, ediff1d, gradient, cross, trapezoid, convolve
and interp, as NumPy computes them, composed from views, sorted search and fused elementwise
ops (every device). Kept apart from _math for size."""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray, host_values, on_one_device
from ._dtypes import promoted_dtype
from ._rearranging import along_axis, normalize_axes, normalize_axis

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "convolve",
    "cross",
    "diff",
    "ediff1d",
    "gradient",
    "interp",
    "trapezoid",
]



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


def gradient(f: ArrayLike, *varargs: Any, axis: int | tuple[int, ...] | None = None,
             edge_order: int = 1) -> Any:
    """The gradient of sampled values by second-order central differences inside and first-
    or second-order one-sided differences at the ends (numpy.gradient); spacings are scalars or
    coordinate arrays. A tuple of arrays for several axes."""
    f = asarray(f)
    axes = normalize_axes(axis, f.ndim)
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
            return f[along_axis(f.ndim, ax, index)]

        shape = [1] * f.ndim
        shape[ax] = -1

        def along(v, shape=shape):  # coefficients along the axis, on f's device
            return _core.reshape(asarray(v, device=f.device), tuple(shape))

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


def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: float = 1.0, axis: int = -1) -> ndarray:
    """The integral of sampled values by the trapezoidal rule (numpy.trapezoid), over x's
    samples (1-D along `axis`, or y's shape) or a constant spacing dx."""
    y = asarray(y)
    axis = normalize_axis(axis, y.ndim)
    if x is None:
        d = dx
    else:
        x = asarray(x, device=y.device)
        if x.ndim == 1:
            d = x[1:] - x[:-1]
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = _core.reshape(d, tuple(shape))
        else:
            d = (x[along_axis(x.ndim, axis, slice(1, None))]
                 - x[along_axis(x.ndim, axis, slice(None, -1))])
    head = y[along_axis(y.ndim, axis, slice(1, None))]
    tail = y[along_axis(y.ndim, axis, slice(None, -1))]
    return _core.sum(d * (head + tail) / 2.0, axis=axis)


def diff(a: ArrayLike, n: int = 1, axis: int = -1, prepend: ArrayLike = np._NoValue,
         append: ArrayLike = np._NoValue) -> ndarray:
    """The n-th discrete difference along `axis` (booleans: not_equal), numpy.diff."""
    a = asarray(a)
    n = operator.index(n)
    if n == 0:
        return a  # before any other check, as NumPy
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, a.ndim)
    parts = []
    for value, where in ((prepend, "before"), (append, "after")):
        if value is np._NoValue:
            continue
        v = asarray(value, device=a.device)
        if v.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            v = _core.broadcast_to(v, tuple(shape))
        parts.append((where, v))
    if parts:
        seq = [v for w, v in parts if w == "before"] + [a] + [v for w, v in parts if w == "after"]
        a = _core.concatenate(seq, axis=axis)
    for _ in range(n):
        m = a.shape[axis]
        hi = a[along_axis(a.ndim, axis, slice(1, None))]
        lo = a[along_axis(a.ndim, axis, slice(None, max(m - 1, 0)))]
        a = _core.not_equal(hi, lo) if a.dtype == np.bool_ else hi - lo
    return a


def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None,
            to_begin: ArrayLike | None = None) -> ndarray:
    """The differences between consecutive elements of the flattened array, with `to_begin`
    and `to_end` (flattened, cast to its dtype) around them (numpy.ediff1d)."""
    a = asarray(ary).reshape(-1)
    parts = [a[1:] - a[:-1]]

    def extra(values, name):
        v = asarray(values, device=a.device)
        if not np.can_cast(v.dtype, a.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        return v.reshape(-1).astype(a.dtype)

    if to_begin is not None:
        parts.insert(0, extra(to_begin, "to_begin"))
    if to_end is not None:
        parts.append(extra(to_end, "to_end"))
    return _core.concatenate(parts, axis=0) if len(parts) > 1 else parts[0]


def cross(a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> ndarray:
    """The cross product of 3-vectors (or 2-vectors, giving the z component) along the given
    axes, broadcasting the rest (numpy.cross)."""
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a, b = on_one_device(a, b)
    a = _core.moveaxis(a, normalize_axis(axisa, a.ndim) if a.ndim else normalize_axis(axisa, 1), -1)
    b = _core.moveaxis(b, normalize_axis(axisb, b.ndim) if b.ndim else normalize_axis(axisb, 1), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    zero = _core.zeros((), dtype=promoted_dtype(a, b), device=a.device)
    a2 = zero if a2 is None else a2
    b2 = zero if b2 is None else b2
    c = _core.stack(_core.broadcast_arrays(a1 * b2 - a2 * b1, a2 * b0 - a0 * b2,
                                           a0 * b1 - a1 * b0), axis=-1)
    return _core.moveaxis(c, -1, normalize_axis(axisc, c.ndim))


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: complex | None = None,
           right: complex | None = None, period: float | None = None) -> ndarray:
    """Linear interpolation of the points (xp, fp) at x (numpy.interp): xp increasing;
    `left`/`right` beyond the ends (default fp's end values); `period` for periodic xp."""
    x = asarray(x)
    xp = asarray(xp, device=x.device)
    fp = asarray(fp, device=x.device)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("data points must be 1-D sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    out_dtype = np.complex128 if fp.dtype.kind == "c" else np.float64
    x, xp, fp = x.astype(np.float64), xp.astype(np.float64), fp.astype(out_dtype)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = x % period
        xp = xp % period
        order = _core.argsort(xp)
        xp, fp = _core.take(xp, order), _core.take(fp, order)
        xp = _core.concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = _core.concatenate([fp[-1:], fp, fp[0:1]])
    n = xp.shape[0]
    # j: the last sample point <= x, clipped so that [j, j + 1] is a segment.
    j = _core.clip(_core.searchsorted(xp, x, side="right") - 1, 0, max(n - 2, 0))
    x0, x1 = _core.take(xp, j), _core.take(xp, _core.minimum(j + 1, n - 1))
    y0, y1 = _core.take(fp, j), _core.take(fp, _core.minimum(j + 1, n - 1))
    slope = (y1 - y0) / (x1 - x0)
    value = slope * (x - x0) + y0
    # NumPy's fallbacks: from the other end when that gave NaN (an infinite slope), and the
    # common value of a flat segment; a point on a sample is that sample's value.
    value = _core.where(_core.isnan(value), slope * (x - x1) + y1, value)
    value = _core.where(_core.isnan(value) & (y0 == y1), y0, value)
    value = _core.where(x == x0, y0, value)
    value = _core.where(x == xp[n - 1], fp[n - 1], value)
    if n == 1:
        value = _core.broadcast_to(fp[0], x.shape)
    lo = fp[0] if left is None else asarray(left, device=x.device).astype(out_dtype)
    hi = fp[n - 1] if right is None else asarray(right, device=x.device).astype(out_dtype)
    value = _core.where(x > xp[n - 1], hi, value)
    value = _core.where(x < xp[0], lo, value)
    return value


def sliding_dot(a, v, mode, correlation):
    """sum_j a[t - (m - 1) + j] * w[j] for the mode's range of t (w = conj(v) for a
    correlation, else v): a loop over the shorter input, each step one multiply-add of shifted
    zero-padded views (lazy, so the steps fuse)."""
    a, v = asarray(a), asarray(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    n, m = a.shape[0], v.shape[0]
    if n == 0:
        raise ValueError("a cannot be empty")
    if m == 0:
        raise ValueError("v cannot be empty")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"mode must be one of 'full', 'same', or 'valid' (got {mode!r})")
    dtype = promoted_dtype(a.dtype, v.dtype)
    a, w = a.astype(dtype), v.astype(dtype)
    if correlation and np.dtype(dtype).kind == "c":
        w = _core.conj(w)
    length = n + m - 1

    def padded(x, pad):
        zeros = _core.zeros((pad,), dtype=dtype, device=a.device)
        return _core.concatenate([zeros, x, zeros])

    acc = _core.zeros((length,), dtype=dtype, device=a.device)
    if m <= n:
        a_pad = padded(a, m - 1)
        for j in range(m):
            acc = acc + a_pad[j:j + length] * w[j]
    else:
        u_pad = padded(w[::-1], n - 1)
        for i in range(n):
            acc = acc + a[i] * u_pad[n - 1 - i:n - 1 - i + length]
    short, long = min(n, m), max(n, m)
    if mode == "same":
        start = (short - 1) // 2
        if correlation and n < m:
            # NumPy's correlate swaps the inputs and reverses the result: centred from the end.
            start = length - long - start
        return acc[start:start + long]
    if mode == "valid":
        return acc[short - 1:long]
    return acc


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> ndarray:
    """Discrete linear convolution of two 1-D sequences (numpy.convolve; modes full, same,
    valid)."""
    v = asarray(v)
    return sliding_dot(a, v[::-1], mode, False)
