"""bincount and histogram.

bincount is the core's scatter-add (a loop on the CPU, a kernel of atomic adds on CUDA; the
length needs the largest value, read on the host as NumPy and CuPy do). histogram takes NumPy's
bin edges (``numpy.histogram_bin_edges`` of the range, computed on the host from two numbers),
puts each value in the bin of the last edge it reaches -- counted by a fused comparison
reduction against the interior edges, exact for uniform and explicit edges alike, O(n * bins)
work -- and scatter-adds the counts.
"""

import operator

import numpy as np

from . import _core
from ._core import ndarray

__all__ = ["bincount", "histogram", "histogram_bin_edges"]


def _asarray(a, device=None):
    from ._creation import asarray

    return asarray(a, device=device)


def bincount(x, weights=None, minlength=0):
    """Counts of each non-negative integer in 1-D `x` (weighted sums, float64, with `weights`),
    at least `minlength` of them (numpy.bincount)."""
    x = _asarray(x)
    w = None if weights is None else _asarray(weights, device=x.device)
    return _core._bincount(x, w, operator.index(minlength))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """NumPy's bin edges for `a` (an integer number of equal bins over `range` or the data's
    range, or explicit monotonic edges); string estimators are not supported."""
    a = _asarray(a)
    if isinstance(bins, str):
        raise NotImplementedError(f"histogram: bin estimator '{bins}' is not implemented "
                                  "(pass a number of bins or the edges)")
    if isinstance(bins, ndarray) or np.ndim(bins) == 1:
        edges = np.asarray(bins.tolist() if isinstance(bins, ndarray) else bins)
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if np.any(edges[:-1] > edges[1:]):
            raise ValueError("`bins` must increase monotonically, when an array")
        return _asarray(edges, device=a.device)
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
    return _asarray(np.histogram_bin_edges(probe, n, range=range), device=a.device)


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """(counts, bin edges) of the values of `a` (numpy.histogram): bin i holds
    edges[i] <= x < edges[i + 1], the last bin also its right edge; values outside are not
    counted. `weights` sum instead of counting (in their dtype); `density` normalizes."""
    a = _asarray(a)
    edges = histogram_bin_edges(a, bins, range)
    flat = a.reshape(-1)
    w = None
    if weights is not None:
        w = _asarray(weights, device=a.device)
        if w.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        w = w.reshape(-1)
    nbins = edges.shape[0] - 1
    first, last = edges[0], edges[nbins]
    inside = _core.logical_and(flat >= first, flat <= last)
    # The bin of x: how many interior edges x reaches (a fused comparison reduction).
    interior = edges[1:nbins].reshape(1, -1)
    index = _core.sum(flat.reshape(-1, 1) >= interior, axis=1)
    index = _core.where(inside, index, nbins)  # outside (and NaN): a dropped extra bin
    counts = _core._bincount(index, w, nbins + 1)[:nbins]
    if w is not None and w.dtype != np.float64:
        counts = counts.astype(w.dtype)
    if density:
        widths = (edges[1:] - edges[:-1]).astype(np.float64)
        counts = counts / widths / _core.sum(counts)
    return counts, edges
