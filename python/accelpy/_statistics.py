"""Statistics (NumPy's reference: "Statistics"), composed from the core's sort, gathers,
reductions and fused elementwise ops, so they run on every device: order statistics (ptp,
median, quantile, percentile and their nan* forms, nanmax, nanmin), averages and variances
(average, nanmean, nanvar, nanstd), correlating (cov, corrcoef, correlate), and the other
NaN-ignoring reductions (nansum, nanprod, nancumsum, nancumprod, nanargmax, nanargmin); the
core's mean, max and min are re-exported here, its var and std wrapped for where= and mean=.
Histograms are in _histograms."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._calculus import sliding_dot

# Bound in C++ (accelpy._core); re-exported here, the chapter NumPy lists them in.
from ._core import (  # noqa: F401
    max,
    mean,
    min,
    ndarray,
)
from ._creation import asarray, host_values
from ._dtypes import promoted_dtype
from ._util import normalize_axes

if TYPE_CHECKING:
    from ._core import ArrayLike

    _Axis = int | Sequence[int] | None
    _Q = float | Sequence[float] | ArrayLike

__all__ = [
    "average",
    "corrcoef",
    "correlate",
    "cov",
    "median",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmedian",
    "nanmin",
    "nanpercentile",
    "nanprod",
    "nanquantile",
    "nanstd",
    "nansum",
    "nanvar",
    "percentile",
    "ptp",
    "quantile",
    "mean",
    "var",
    "std",
    "max",
    "min",
]



def _inexact(dt):
    return np.dtype(dt).kind in "fc" or str(dt) == "bfloat16"


def _nan_filled(a, value):
    """a with NaNs replaced by `value`, and the NaN mask (None when a cannot hold NaN)."""
    if not _inexact(a.dtype):
        return a, None
    mask = _core.isnan(a)
    return _core.where(mask, value, a), mask


def _warn_if(condition, message):
    if bool(_core.any(condition)):
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def nansum(a: ArrayLike, axis: _Axis = None, dtype: Any = None, keepdims: bool = False) -> ndarray:
    """Sum treating NaNs as zero (numpy.nansum)."""
    a, _ = _nan_filled(asarray(a), 0)
    return _core.sum(a, axis=axis, dtype=dtype, keepdims=keepdims)


def nanprod(a: ArrayLike, axis: _Axis = None, dtype: Any = None, keepdims: bool = False) -> ndarray:
    """Product treating NaNs as one (numpy.nanprod)."""
    a, _ = _nan_filled(asarray(a), 1)
    return _core.prod(a, axis=axis, dtype=dtype, keepdims=keepdims)


def nancumsum(a: ArrayLike, axis: int | None = None, dtype: Any = None) -> ndarray:
    """Cumulative sum treating NaNs as zero (numpy.nancumsum)."""
    a, _ = _nan_filled(asarray(a), 0)
    return _core.cumsum(a, axis=axis, dtype=dtype)


def nancumprod(a: ArrayLike, axis: int | None = None, dtype: Any = None) -> ndarray:
    """Cumulative product treating NaNs as one (numpy.nancumprod)."""
    a, _ = _nan_filled(asarray(a), 1)
    return _core.cumprod(a, axis=axis, dtype=dtype)


def _nan_extreme(a, axis, keepdims, largest):
    a = asarray(a)
    reduce = _core.max if largest else _core.min
    if not _inexact(a.dtype):
        return reduce(a, axis=axis, keepdims=keepdims)
    filled, mask = _nan_filled(a, -np.inf if largest else np.inf)
    all_nan = _core.all(mask, axis=axis, keepdims=keepdims)
    _warn_if(all_nan, "All-NaN slice encountered")
    return _core.where(all_nan, np.nan, reduce(filled, axis=axis, keepdims=keepdims))


def nanmax(a: ArrayLike, axis: _Axis = None, keepdims: bool = False) -> ndarray:
    """Maximum ignoring NaNs; NaN (with a RuntimeWarning) for an all-NaN slice."""
    return _nan_extreme(a, axis, keepdims, True)


def nanmin(a: ArrayLike, axis: _Axis = None, keepdims: bool = False) -> ndarray:
    """Minimum ignoring NaNs; NaN (with a RuntimeWarning) for an all-NaN slice."""
    return _nan_extreme(a, axis, keepdims, False)


def _nan_arg(a, axis, keepdims, largest):
    a = asarray(a)
    arg = _core.argmax if largest else _core.argmin
    if not _inexact(a.dtype):
        return arg(a, axis=axis, keepdims=keepdims)
    filled, mask = _nan_filled(a, -np.inf if largest else np.inf)
    if bool(_core.any(_core.all(mask, axis=axis))):
        raise ValueError("All-NaN slice encountered")
    return arg(filled, axis=axis, keepdims=keepdims)


def nanargmax(a: ArrayLike, axis: int | None = None, keepdims: bool = False) -> ndarray:
    """Index of the maximum ignoring NaNs; ValueError for an all-NaN slice."""
    return _nan_arg(a, axis, keepdims, True)


def nanargmin(a: ArrayLike, axis: int | None = None, keepdims: bool = False) -> ndarray:
    """Index of the minimum ignoring NaNs; ValueError for an all-NaN slice."""
    return _nan_arg(a, axis, keepdims, False)


def _divide_by_count(total, count):
    # NumPy divides in float64 and writes back into the sum's dtype.
    return _core.divide(total, count).astype(total.dtype)


def nanmean(a: ArrayLike, axis: _Axis = None, dtype: Any = None, keepdims: bool = False) -> ndarray:
    """Mean of the non-NaN values (numpy.nanmean); NaN with a RuntimeWarning for a slice of
    NaNs only."""
    a = asarray(a)
    if not _inexact(a.dtype):
        return _core.mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    filled, mask = _nan_filled(a, 0)
    count = _core.sum(_core.logical_not(mask), axis=axis, dtype=np.int64, keepdims=keepdims)
    total = _core.sum(filled, axis=axis, dtype=dtype, keepdims=keepdims)
    _warn_if(count == 0, "Mean of empty slice")
    return _divide_by_count(total, count)


def nanvar(a: ArrayLike, axis: _Axis = None, dtype: Any = None, ddof: float = 0,
           keepdims: bool = False) -> ndarray:
    """Variance of the non-NaN values (numpy.nanvar)."""
    a = asarray(a)
    if not _inexact(a.dtype):
        return _core.var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    filled, mask = _nan_filled(a, 0)
    count = _core.sum(_core.logical_not(mask), axis=axis, dtype=np.int64, keepdims=True)
    mean = _divide_by_count(_core.sum(filled, axis=axis, dtype=dtype, keepdims=True), count)
    dev = _core.where(mask, 0, filled - mean)
    sq = _core.real(dev * _core.conj(dev)) if np.dtype(a.dtype).kind == "c" else dev * dev
    total = _core.sum(sq, axis=axis, dtype=dtype, keepdims=keepdims)
    dof = _core.reshape(count, total.shape) - ddof
    var = _divide_by_count(total, dof)
    _warn_if(dof <= 0, "Degrees of freedom <= 0 for slice.")
    return _core.where(dof <= 0, np.nan, var)


def var(a: ArrayLike, axis: _Axis = None, dtype: Any = None, out: ndarray | None = None,
        ddof: float = 0, keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> ndarray:
    """Variance (numpy.var): the core's reduction; with `where` (the elements counted) or
    `mean` (a mean already computed, shaped as by keepdims=True), composed from sums."""
    if where is True and mean is None:
        return _core.var(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                         correction=correction)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    a = asarray(a)
    mask = _core.broadcast_to(asarray(where, dtype=bool, device=a.device), a.shape)
    kind = np.dtype(a.dtype).kind
    work = dtype if dtype is not None else np.float64 if kind in "biu" else None
    count = _core.sum(mask, axis=axis, dtype=np.int64, keepdims=True)
    if mean is None:
        mean = _divide_by_count(_core.sum(a, axis=axis, dtype=work, keepdims=True, where=mask),
                                count)
    dev = a - asarray(mean, device=a.device)
    sq = _core.real(dev * _core.conj(dev)) if kind == "c" else dev * dev
    total = _core.sum(sq, axis=axis, dtype=work, keepdims=keepdims, where=mask)
    dof = _core.reshape(count, total.shape) - ddof
    _warn_if(dof <= 0, "Degrees of freedom <= 0 for slice.")
    result = _core.where(dof <= 0, np.nan, _divide_by_count(total, dof))
    if out is None:
        return result
    out[...] = result
    return out


def std(a: ArrayLike, axis: _Axis = None, dtype: Any = None, out: ndarray | None = None,
        ddof: float = 0, keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> ndarray:
    """Standard deviation (numpy.std): the square root of var, with its where= and mean=."""
    if where is True and mean is None:
        return _core.std(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                         correction=correction)
    result = _core.sqrt(var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
                            correction=correction))
    if out is None:
        return result
    out[...] = result
    return out


def nanstd(a: ArrayLike, axis: _Axis = None, dtype: Any = None, ddof: float = 0,
           keepdims: bool = False) -> ndarray:
    """Standard deviation of the non-NaN values (numpy.nanstd)."""
    return _core.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims))


def ptp(a: ArrayLike, axis: _Axis = None, keepdims: bool = False) -> ndarray:
    """Range of values, maximum minus minimum (numpy.ptp)."""
    a = asarray(a)
    return _core.max(a, axis=axis, keepdims=keepdims) - _core.min(a, axis=axis, keepdims=keepdims)


def average(a: ArrayLike, axis: _Axis = None, weights: ArrayLike | None = None,
            returned: bool = False, *, keepdims: bool = False) -> Any:
    """Weighted average (numpy.average): weights of a's shape, or 1-D along a single axis."""
    a = asarray(a)
    if weights is None:
        avg = _core.mean(a, axis=axis, keepdims=keepdims)
        scale = np.prod([a.shape[ax] for ax in normalize_axes(axis, a.ndim)], dtype=np.int64)
        if returned:
            return avg, _core.full(avg.shape, scale, dtype=avg.dtype, device=avg.device)
        return avg
    w = asarray(weights)
    if a.dtype.kind in "iub":
        result_dtype = promoted_dtype(a.dtype, w.dtype, "f8")
    else:
        result_dtype = promoted_dtype(a.dtype, w.dtype)
    if a.shape != w.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        ax = normalize_axes(axis, a.ndim)
        if len(ax) != 1 or w.shape[0] != a.shape[ax[0]]:
            raise ValueError("Length of weights not compatible with specified axis.")
        shape = [1] * a.ndim
        shape[ax[0]] = w.shape[0]
        w = _core.reshape(w, tuple(shape))
    scale = _core.sum(w, axis=axis, dtype=result_dtype, keepdims=keepdims)
    if bool(_core.any(scale == 0.0)):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    total = _core.sum(a.astype(result_dtype) * w.astype(result_dtype), axis=axis,
                      keepdims=keepdims)
    avg = total / scale
    if returned:
        return avg, _core.broadcast_to(scale, avg.shape).copy()
    return avg


def cov(m: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, bias: bool = False,
        ddof: int | None = None, fweights: ArrayLike | None = None,
        aweights: ArrayLike | None = None, *, dtype: Any = None) -> ndarray:
    """Covariance matrix of the variables (rows, or columns when not `rowvar`) of m and y
    (numpy.cov), with frequency and analytic weights."""
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if dtype is None:
        dtype = promoted_dtype(m.dtype, np.float64)
    x = _core.reshape(m, (1, -1)) if m.ndim < 2 else m
    x = x.astype(dtype)
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        y = asarray(y, device=m.device)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
        yy = _core.reshape(y, (1, -1)) if y.ndim < 2 else y
        yy = yy.astype(dtype)
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        x = _core.concatenate([x, yy], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    w = None
    for weights, name in ((fweights, "fweights"), (aweights, "aweights")):
        if weights is None:
            continue
        wv = host_values(weights, np.float64)
        if name == "fweights" and not np.all(wv == np.around(wv)):
            raise TypeError("fweights must be integer")
        if wv.ndim > 1:
            raise RuntimeError(f"cannot handle multidimensional {name}")
        if wv.shape[0] != n:
            raise RuntimeError(f"incompatible numbers of samples and {name}")
        if np.any(wv < 0):
            raise ValueError(f"{name} cannot be negative")
        w = wv if w is None else w * wv
    if w is None:
        avg = _core.mean(x, axis=1)
        w_sum = float(n)
        fact = n - ddof
    else:
        w_dev = asarray(w, device=x.device)
        avg = _core.sum(x * w_dev, axis=1) / float(w.sum())
        w_sum = float(w.sum())
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            aw = host_values(aweights, np.float64)
            fact = w_sum - ddof * float((w * aw).sum()) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    xc = x - _core.reshape(avg, (-1, 1))
    xw = xc if w is None else xc * asarray(w, device=x.device)
    c = _core.matmul(xc, _core.conj(xw).T) * (1.0 / fact if fact else np.inf)
    return _core.reshape(c, ()) if c.shape == (1, 1) else c


def corrcoef(x: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, *,
             dtype: Any = None) -> ndarray:
    """Pearson correlation coefficients (numpy.corrcoef), clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = _core.real(_core._diagonal(c, 0, 0, 1))
    std = _core.sqrt(d)
    c = c / _core.reshape(std, (-1, 1)) / _core.reshape(std, (1, -1))
    if c.dtype.kind == "c":
        return _core.clip(_core.real(c), -1, 1) + 1j * _core.clip(_core.imag(c), -1, 1)
    return _core.clip(c, -1, 1)


# ---- order statistics: sort the reduced axes into one last axis, then gather ----------------


def _sorted_last(a, axis):
    """a's reduced axes moved last and merged, sorted (NaN last), and the kept shape."""
    axes = normalize_axes(axis, a.ndim)
    kept = [d for d in range(a.ndim) if d not in axes]
    moved = _core.transpose(a, tuple(kept) + axes)
    kept_shape = tuple(a.shape[d] for d in kept)
    n = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    return _core.sort(_core.reshape(moved, kept_shape + (n,)), axis=-1), kept_shape, n, axes


def _keep(result, a_ndim, axes, q_ndim):
    """Reinserts the reduced axes as length 1 (keepdims), after q's leading axes."""
    shape = list(result.shape[q_ndim:])
    for ax in sorted(axes):
        shape.insert(ax, 1)
    return _core.reshape(result, tuple(result.shape[:q_ndim]) + tuple(shape))


def _float_dtype(dt):
    return np.dtype(np.float64) if np.dtype(dt).kind in "iub" else np.dtype(dt)


def _gather(s, index):
    """s[..., index] for an index array of shape q.shape + s.shape[:-1] (int64)."""
    q_ndim = index.ndim - (s.ndim - 1)
    src = _core.broadcast_to(s, index.shape[:q_ndim] + s.shape)
    return _core.take_along_axis(src, _core.reshape(index, index.shape + (1,)), axis=-1)[..., 0]


_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _q_dtype(q):
    """q's dtype in the result's type (None: a Python number, which does not widen it)."""
    if isinstance(q, (bool, int, float)):
        return None
    return q.dtype if isinstance(q, _core.ndarray) else np.asarray(q).dtype


def _quantile(a, q, axis, method, keepdims, ignore_nan, percent=False):
    a = asarray(a)
    if method not in _METHODS:
        raise NotImplementedError(f"quantile: method '{method}' is not implemented (accelpy has "
                                  f"{', '.join(_METHODS)})")
    q_dtype = _q_dtype(q)
    qv = host_values(q, np.float64)
    if percent:
        qv = qv / 100
    if not (np.all(qv >= 0) and np.all(qv <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    s, kept_shape, n, axes = _sorted_last(a, axis)
    out_dtype = _float_dtype(a.dtype)
    if q_dtype is not None:
        out_dtype = promoted_dtype(out_dtype, q_dtype)
    if method in ("linear", "midpoint"):  # the discrete methods keep a's dtype, as NumPy's
        s = s.astype(out_dtype)
    nan_slices = None
    if _inexact(a.dtype):
        nans = _core.isnan(s)
        if ignore_nan:
            count = _core.sum(_core.logical_not(nans), axis=-1, dtype=np.int64)
            nan_slices = count == 0
        else:
            count = _core.full(kept_shape, n, dtype=np.int64, device=a.device)
            nan_slices = nans[..., n - 1] if n else None
    else:
        count = _core.full(kept_shape, n, dtype=np.int64, device=a.device)
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    q_dev = _core.reshape(asarray(qv).to(a.device), qv.shape + (1,) * len(kept_shape))
    cnt = count.astype(np.float64)
    # NumPy's virtual index for these methods: (n - 1) q.
    virtual = (cnt - 1.0) * q_dev
    last = _core.maximum(cnt - 1.0, 0.0)
    lower = _core.clip(_core.floor(virtual), 0.0, last)
    upper = _core.clip(_core.floor(virtual) + 1.0, 0.0, last)
    if method == "lower":
        result = _gather(s, lower.astype(np.int64))
    elif method == "higher":
        result = _gather(s, _core.clip(_core.ceil(virtual), 0.0, last).astype(np.int64))
    elif method == "nearest":
        # NumPy rounds half to even on the virtual index.
        result = _gather(s, _core.clip(_core.round(virtual), 0.0, last).astype(np.int64))
    else:
        below, above = _gather(s, lower.astype(np.int64)), _gather(s, upper.astype(np.int64))
        if method == "midpoint":
            gamma = _core.where(virtual == _core.floor(virtual), 0.0, 0.5)
        else:
            gamma = virtual - _core.floor(virtual)
        gamma = _core.where(virtual >= last, 0.0, gamma).astype(out_dtype)
        diff = above - below
        # NumPy's _lerp: from the nearer end, so t = 1 gives b exactly.
        result = _core.where(gamma >= 0.5, above - diff * (1 - gamma), below + diff * gamma)
    if nan_slices is not None:
        result = _core.where(nan_slices, np.nan, result)
        if ignore_nan:
            _warn_if(nan_slices, "All-NaN slice encountered")
    return _keep(result, a.ndim, axes, qv.ndim) if keepdims else result


def quantile(a: ArrayLike, q: _Q, axis: _Axis = None, out: None = None,
             overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
             weights: None = None, interpolation: None = None) -> ndarray:
    """The q-th quantiles along `axis` (numpy.quantile; methods linear, lower, higher, nearest,
    midpoint). q's shape leads the result's."""
    _unsupported(out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, False)


def percentile(a: ArrayLike, q: _Q, axis: _Axis = None, out: None = None,
               overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
               weights: None = None, interpolation: None = None) -> ndarray:
    """The q-th percentiles along `axis` (numpy.percentile)."""
    _unsupported(out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, False, percent=True)


def nanquantile(a: ArrayLike, q: _Q, axis: _Axis = None, out: None = None,
                overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
                weights: None = None, interpolation: None = None) -> ndarray:
    """Quantiles of the non-NaN values (numpy.nanquantile)."""
    _unsupported(out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, True)


def nanpercentile(a: ArrayLike, q: _Q, axis: _Axis = None, out: None = None,
                  overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
                  weights: None = None, interpolation: None = None) -> ndarray:
    """Percentiles of the non-NaN values (numpy.nanpercentile)."""
    _unsupported(out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, True, percent=True)


def _unsupported(out, weights, interpolation):
    if out is not None or weights is not None or interpolation is not None:
        raise NotImplementedError("quantile: out=, weights= and interpolation= are not "
                                  "implemented")


def median(a: ArrayLike, axis: _Axis = None, out: None = None, overwrite_input: bool = False,
           keepdims: bool = False) -> ndarray:
    """The median along `axis` (numpy.median): the middle value, or the mean of the two middle
    ones; NaN for a slice holding a NaN."""
    if out is not None:
        raise NotImplementedError("median: out= is not implemented")
    return _median(asarray(a), axis, keepdims, False)


def nanmedian(a: ArrayLike, axis: _Axis = None, out: None = None, overwrite_input: bool = False,
              keepdims: bool = False) -> ndarray:
    """The median of the non-NaN values (numpy.nanmedian)."""
    if out is not None:
        raise NotImplementedError("nanmedian: out= is not implemented")
    return _median(asarray(a), axis, keepdims, True)


def _median(a, axis, keepdims, ignore_nan):
    s, kept_shape, n, axes = _sorted_last(a, axis)
    out_dtype = _float_dtype(a.dtype)
    if n == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        result = _core.full(kept_shape, np.nan, dtype=out_dtype, device=a.device)
    else:
        if ignore_nan and _inexact(a.dtype):
            count = _core.sum(_core.logical_not(_core.isnan(s)), axis=-1, dtype=np.int64)
        else:
            count = _core.full(kept_shape, n, dtype=np.int64, device=a.device)
        hi_index = _core.floor_divide(count, 2)
        lo_index = _core.maximum(count - 1 - hi_index, 0)
        hi_index = _core.minimum(hi_index, n - 1)
        lo, hi = _gather(s, lo_index), _gather(s, hi_index)
        # The mean of the two middle values, as np.mean of them computes it (float16 in float32).
        wide = np.float32 if np.dtype(out_dtype) == np.float16 else out_dtype
        mean = ((lo.astype(wide) + hi.astype(wide)) / 2).astype(out_dtype)
        result = _core.where(lo_index == hi_index, hi.astype(out_dtype), mean)
        if _inexact(a.dtype):
            if ignore_nan:
                empty = count == 0
                _warn_if(empty, "All-NaN slice encountered")
                result = _core.where(empty, np.nan, result)
            else:
                result = _core.where(_core.isnan(s[..., n - 1]), np.nan, result)
    return _keep(result, a.ndim, axes, 0) if keepdims else result


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> ndarray:
    """Cross-correlation of two 1-D sequences, c[k] = sum_n a[n + k] * conj(v[n])
    (numpy.correlate; modes full, same, valid)."""
    return sliding_dot(a, v, mode, True)
