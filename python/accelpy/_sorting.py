"""NumPy functions built on sorted search (digitize, interp, lexsort) and sliding sums
(convolve, correlate). Composed from the core's searchsorted, argsort, gathers and fused
elementwise ops, so they run on every device."""

import numpy as np

from . import _core
from ._creation import asarray as _asarray

__all__ = ["convolve", "correlate", "digitize", "interp", "lexsort"]


def digitize(x, bins, right=False):
    """The index of the bin each value of x falls in (numpy.digitize): `bins` increasing or
    decreasing; ``right`` puts a value equal to an edge in the bin to its left."""
    x = _asarray(x)
    bins = _asarray(bins, device=x.device)
    if bins.ndim != 1:
        raise ValueError("object of too small depth for desired array" if bins.ndim == 0
                         else "object too deep for desired array")
    if x.dtype.kind == "c" or bins.dtype.kind == "c":
        raise TypeError("x may not be complex")
    steps = bins[1:] - bins[:-1]
    increasing = bool(_core.all(steps >= 0))
    if not increasing and not bool(_core.all(steps <= 0)):
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if increasing:
        return _core.searchsorted(bins, x, side=side)
    n = bins.shape[0]
    # Decreasing bins: searched reversed, as NumPy does.
    return n - _core.searchsorted(bins[::-1], x, side=side)


def interp(x, xp, fp, left=None, right=None, period=None):
    """Linear interpolation of the points (xp, fp) at x (numpy.interp): xp increasing;
    `left`/`right` beyond the ends (default fp's end values); `period` for periodic xp."""
    x = _asarray(x)
    xp = _asarray(xp, device=x.device)
    fp = _asarray(fp, device=x.device)
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
    lo = fp[0] if left is None else _asarray(left, device=x.device).astype(out_dtype)
    hi = fp[n - 1] if right is None else _asarray(right, device=x.device).astype(out_dtype)
    value = _core.where(x > xp[n - 1], hi, value)
    value = _core.where(x < xp[0], lo, value)
    return value


def lexsort(keys, axis=-1):
    """Indices that sort by several keys, the last key primary (numpy.lexsort): one stable
    argsort per key, from the first (least significant) key to the last."""
    if isinstance(keys, _core.ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim > 1 else [keys]
    keys = [_asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if not shape:
        raise np.exceptions.AxisError(axis, 0)
    perm = _core.argsort(keys[0], axis=axis)
    for k in keys[1:]:
        in_order = _core.take_along_axis(k, perm, axis=axis)
        perm = _core.take_along_axis(perm, _core.argsort(in_order, axis=axis), axis=axis)
    return perm


def _sliding(a, v, mode, correlation):
    """sum_j a[t - (m - 1) + j] * w[j] for the mode's range of t (w = conj(v) for a
    correlation, else v): a loop over the shorter input, each step one multiply-add of shifted
    zero-padded views (lazy, so the steps fuse)."""
    a, v = _asarray(a), _asarray(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    n, m = a.shape[0], v.shape[0]
    if n == 0:
        raise ValueError("a cannot be empty")
    if m == 0:
        raise ValueError("v cannot be empty")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"mode must be one of 'full', 'same', or 'valid' (got {mode!r})")
    dtype = np.result_type(a.dtype, v.dtype)
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


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D sequences, c[k] = sum_n a[n + k] * conj(v[n])
    (numpy.correlate; modes full, same, valid)."""
    return _sliding(a, v, mode, True)


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D sequences (numpy.convolve; modes full, same,
    valid)."""
    v = _asarray(v)
    return _sliding(a, v[::-1], mode, False)
