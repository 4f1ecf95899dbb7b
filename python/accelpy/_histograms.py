"""Histograms (NumPy's reference: "Statistics", histograms): histogram, histogram2d, histogramdd,
histogram_bin_edges, bincount, digitize.

bincount is the core's scatter-add (a loop on the CPU, a kernel of atomic adds on CUDA; the
length needs the largest value, read on the host as NumPy and CuPy do). histogram takes NumPy's
bin edges (``numpy.histogram_bin_edges`` of the range, computed on the host from two numbers),
puts each value in the bin of the last edge it reaches -- for equal bins NumPy's estimate from
the value's offset corrected against the edges, for explicit edges a binary search -- and
scatter-adds the counts."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray, host_values
from ._dtypes import promoted_dtype
from ._util import c_long

if TYPE_CHECKING:
    from ._core import ArrayLike

__all__ = [
    "bincount",
    "digitize",
    "histogram",
    "histogram2d",
    "histogram_bin_edges",
    "histogramdd",
]



def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength: int = 0) -> ndarray:
    """Counts of each non-negative integer in 1-D `x` (weighted sums, float64, with `weights`),
    at least `minlength` of them (numpy.bincount)."""
    x = asarray(x)
    w = None if weights is None else asarray(weights, device=x.device)
    return _core._bincount(x, w, c_long(minlength))


def histogram_bin_edges(a: ArrayLike, bins: int | Sequence[float] | ArrayLike = 10,
                        range: tuple[float, float] | None = None,
                        weights: ArrayLike | None = None) -> ndarray:
    """NumPy's bin edges for `a` (an integer number of equal bins over `range` or the data's
    range, or explicit monotonic edges); string estimators are not supported."""
    a = asarray(a)
    return asarray(_host_edges(a, bins, range)[0], device=a.device)


def _host_edges(a: ndarray, bins: Any, range: Any) -> tuple[np.ndarray, tuple | None]:
    """histogram_bin_edges' edges on the host and, for equal bins (a number), NumPy's first
    edge and width of the range as the host scalars its histogram divides by (None for explicit
    edges)."""
    if isinstance(bins, str):
        raise NotImplementedError(f"histogram: bin estimator '{bins}' is not implemented "
                                  "(pass a number of bins or the edges)")
    if isinstance(bins, ndarray) or np.ndim(bins) == 1:
        edges = np.asarray(bins.tolist() if isinstance(bins, ndarray) else bins)
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if np.any(edges[:-1] > edges[1:]):
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges, None
    if np.ndim(bins) != 0:
        raise ValueError("`bins` must be 1d, when an array")
    try:
        n = operator.index(bins)
    except TypeError:
        raise TypeError("`bins` must be an integer, a string, or an array") from None
    if n < 1:
        raise ValueError("`bins` must be positive, when an integer")
    # NumPy's own edges from a stand-in holding only the data's minimum and maximum (in the
    # data's dtype): the same dtype rules, arithmetic and range checks as on the whole array.
    if range is not None or a.size == 0:
        probe = np.empty(0, dtype=a.dtype)
    else:
        probe = np.array([_core.min(a).item(), _core.max(a).item()], dtype=a.dtype)
    edges = np.histogram_bin_edges(probe, n, range=range)
    # NumPy's outer edges: the range as given, else the data's extremes as scalars of its dtype.
    if range is not None:
        first, last = range
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = probe.min(), probe.max()
    if first == last:
        first, last = first - 0.5, last + 0.5
    return edges, (first, _unsigned_subtract(last, first))


def _unsigned_subtract(a: Any, b: Any) -> Any:
    """a - b in their common type as NumPy's histogram takes it: signed integers subtract as
    their unsigned type, so that the width of the range does not overflow."""
    dt = np.result_type(a, b)
    if dt.kind != "i":
        return np.subtract(a, b, dtype=dt)
    unsigned = np.dtype(dt.str.replace("i", "u"))
    return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe",
                       dtype=unsigned)


def histogram(a: ArrayLike, bins: int | Sequence[float] | ArrayLike = 10,
              range: tuple[float, float] | None = None, density: bool | None = None,
              weights: ArrayLike | None = None) -> tuple[ndarray, ndarray]:
    """(counts, bin edges) of the values of `a` (numpy.histogram): bin i holds
    edges[i] <= x < edges[i + 1], the last bin also its right edge; values outside are not
    counted. `weights` sum instead of counting (in their dtype); `density` normalizes."""
    a = asarray(a)
    host_edges, outer = _host_edges(a, bins, range)
    edges = asarray(host_edges, device=a.device)
    flat = a.reshape(-1)
    w = None
    if weights is not None:
        w = asarray(weights, device=a.device)
        if w.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        w = w.reshape(-1)
    nbins = edges.shape[0] - 1
    first, last = edges[0], edges[nbins]
    inside = _core.logical_and(flat >= first, flat <= last)
    if outer is not None:
        index = _equal_bin(flat, edges, nbins, inside, *outer)
    else:
        # The bin of x: how many interior edges x reaches, a binary search (a comparison
        # against every edge, fused, cost 16x more at 1,000 bins and 5x at 10 on one core).
        index = _core.searchsorted(edges[1:nbins], flat, side="right")
    index = _core.where(inside, index, nbins)  # outside (and NaN): a dropped extra bin
    counts = _core._bincount(index, w, nbins + 1)[:nbins]._owning()
    if w is not None and w.dtype != np.float64:
        counts = counts.astype(w.dtype)
    if density:
        widths = (edges[1:] - edges[:-1]).astype(np.float64)
        counts = counts / widths / _core.sum(counts)
    return counts, edges


def _equal_bin(flat: ndarray, edges: ndarray, nbins: int, inside: ndarray, first: Any,
               width: Any) -> ndarray:
    """The bin of each value inside equal bins, as NumPy's histogram finds it: the value's offset
    in the range, in the edges' dtype with NumPy's scalars and promotions, then moved by one
    where the edges say otherwise. The estimate is NumPy's own because in float16 it can be
    several bins off, and the one move does not always reach the edges' answer."""
    x = _core.where(inside, flat.astype(edges.dtype), edges[0])  # no NaN or inf cast to an int
    index = _core.minimum((((x - first) / width) * nbins).astype(np.intp), nbins - 1)
    index = index - (x < _core.take(edges, index, mode="clip"))
    above = x >= _core.take(edges, index + 1, mode="clip")
    return index + _core.logical_and(above, index != nbins - 1)


def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False) -> ndarray:
    """The index of the bin each value of x falls in (numpy.digitize): `bins` increasing or
    decreasing; ``right`` puts a value equal to an edge in the bin to its left."""
    x = asarray(x)
    bins = asarray(bins, device=x.device)
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


def _sample_columns(sample):
    """The sample's D coordinate columns: an (N, D) array's columns, or the rows of a sequence
    of coordinate arrays (NumPy's atleast_2d(sample).T)."""
    arr = asarray(sample)
    if isinstance(sample, (list, tuple)):
        if arr.ndim > 2:
            raise ValueError(f"sample must be a sequence of 1-D coordinate arrays, got shape "
                             f"{arr.shape}")
        rows = arr.reshape(1, -1) if arr.ndim < 2 else arr
        return [rows[i] for i in range(rows.shape[0])]
    if arr.ndim < 2:
        return [arr.reshape(-1)]
    if arr.ndim > 2:
        raise ValueError(f"sample must be an (N, D) array, got shape {arr.shape}")
    return [arr[:, i] for i in range(arr.shape[1])]


def _host_bins(bins, d):
    """bins with arrays read to the host (they are edges: small arguments)."""
    if isinstance(bins, ndarray):
        return host_values(bins)
    if isinstance(bins, (list, tuple)):
        return [host_values(b) if isinstance(b, ndarray) else b for b in bins]
    return bins


def histogramdd(sample: ArrayLike | Sequence[ArrayLike], bins: Any = 10,
                range: Sequence[tuple[float, float]] | None = None, density: bool | None = None,
                weights: ArrayLike | None = None) -> tuple[ndarray, list[ndarray]]:
    """The D-dimensional histogram of N points (numpy.histogramdd): `sample` is an (N, D) array
    or a sequence of D coordinate arrays; `bins` a number of bins, one per dimension, or edges
    per dimension. Returns (hist, [edges per dimension]); hist is float64."""
    cols = _sample_columns(sample)
    d = len(cols)
    device = cols[0].device if cols else _core.get_default_device()
    n = cols[0].shape[0] if cols else 0
    dtype = promoted_dtype(*cols) if cols else np.dtype(np.float64)
    # NumPy's edges from a stand-in holding only each coordinate's minimum and maximum.
    if n:
        probe = np.array([[_core.min(c).item() for c in cols],
                          [_core.max(c).item() for c in cols]], dtype=dtype)
    else:
        probe = np.empty((0, d), dtype=dtype)
    _, host_edges = np.histogramdd(probe, _host_bins(bins, d), range=range)
    w = None
    if weights is not None:
        w = asarray(weights, device=device)
        if w.shape != (n,):
            raise ValueError(f"weights should have the shape of one sample coordinate, ({n},); "
                             f"got {w.shape}")
    edges = [asarray(e, device=device) for e in host_edges]
    nbin = [e.shape[0] + 1 for e in edges]  # an outlier bin on either side
    flat = None
    for col, e, size in zip(cols, edges, nbin, strict=True):
        index = _core.searchsorted(e, col, side="right")
        # The last edge belongs to the last bin, not to the outliers.
        index = _core.where(col == e[-1], index - 1, index)
        flat = index if flat is None else flat * size + index
    total = int(np.prod(nbin, dtype=np.int64))
    if flat is None:
        flat = _core.zeros((0,), dtype=np.intp, device=device)
    hist = _core._bincount(flat.astype(np.intp), w, total).astype(np.float64)
    hist = hist.reshape(tuple(nbin))[(slice(1, -1),) * d]
    if density:
        s = _core.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            hist = hist / (e[1:] - e[:-1]).reshape(tuple(shape))
        hist = hist / s
    return hist, edges


def histogram2d(x: ArrayLike, y: ArrayLike, bins: Any = 10,
                range: Sequence[tuple[float, float]] | None = None, density: bool | None = None,
                weights: ArrayLike | None = None) -> tuple[ndarray, ndarray, ndarray]:
    """The 2-D histogram of points (x, y) (numpy.histogram2d): returns (hist, xedges, yedges);
    `bins` is a number, a pair of numbers, edges for both, or a pair of edge arrays."""
    x = asarray(x)
    y = asarray(y, device=x.device)
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        count = len(bins)
    except TypeError:
        count = 1
    if count not in (1, 2):
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
