"""Multidimensional histograms: histogramdd and histogram2d, as NumPy computes them.

The bin edges are NumPy's own (``numpy.histogramdd`` of a stand-in holding only each
coordinate's minimum and maximum, so the same dtype rules and range checks): two numbers per
dimension read back. Each sample's bin is a ``searchsorted`` per dimension on the device (with
an outlier bin on either side, and the last edge counted in the last bin), the flat bin index
a fused multiply-add, and the counts the core's scatter-add.
"""

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import asarray, host_values

__all__ = ["histogramdd", "histogram2d"]


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


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """The D-dimensional histogram of N points (numpy.histogramdd): `sample` is an (N, D) array
    or a sequence of D coordinate arrays; `bins` a number of bins, one per dimension, or edges
    per dimension. Returns (hist, [edges per dimension]); hist is float64."""
    cols = _sample_columns(sample)
    d = len(cols)
    device = cols[0].device if cols else _core.get_default_device()
    n = cols[0].shape[0] if cols else 0
    dtype = _core.result_type(*cols) if cols else np.dtype(np.float64)
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


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
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

