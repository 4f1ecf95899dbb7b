"""Signal-processing helpers of NumPy: the window functions (bartlett, blackman, hamming,
hanning, kaiser) made on the target device, and unwrap, composed from diff, cumsum and fused
elementwise ops."""

import operator

import numpy as np

from . import _core
from ._core import i0
from ._creation import asarray as _asarray
from ._rearranging import _along, _axis, diff

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser", "unwrap"]


def _symmetric_points(M, device):  # noqa: N803 - NumPy's name
    """n = 1-M, 3-M, ..., M-1 as float64, or the whole window when M < 2 (None otherwise)."""
    M = operator.index(M) if not isinstance(M, float) else M
    if M < 1:
        return None, _core.zeros((0,), dtype=np.float64, device=device)
    if M == 1:
        return None, _core.ones((1,), dtype=np.float64, device=device)
    return _core.arange(1 - M, M, 2, dtype=np.float64, device=device), None


def bartlett(M, *, device=None):  # noqa: N803
    """The triangular (Bartlett) window of M points (numpy.bartlett)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return _core.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def blackman(M, *, device=None):  # noqa: N803
    """The Blackman window of M points (numpy.blackman)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return 0.42 + 0.5 * _core.cos(np.pi * n / (M - 1)) + 0.08 * _core.cos(2.0 * np.pi * n / (M - 1))


def hamming(M, *, device=None):  # noqa: N803
    """The Hamming window of M points (numpy.hamming)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return 0.54 + 0.46 * _core.cos(np.pi * n / (M - 1))


def hanning(M, *, device=None):  # noqa: N803
    """The Hann window of M points (numpy.hanning)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return 0.5 + 0.5 * _core.cos(np.pi * n / (M - 1))


def kaiser(M, beta, *, device=None):  # noqa: N803
    """The Kaiser window of M points with shape parameter beta (numpy.kaiser)."""
    M = operator.index(M) if not isinstance(M, float) else M
    beta = float(beta)
    if M == 1:
        return _core.ones((1,), dtype=np.float64, device=device)
    n = _core.arange(0, M, dtype=np.float64, device=device)
    alpha = (M - 1) / 2.0
    return i0(beta * _core.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / float(
        np.i0(np.float64(beta)))


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """p with jumps between neighbours larger than max(discont, period/2) along `axis` taken
    back by multiples of `period` (numpy.unwrap)."""
    p = _asarray(p)
    axis = _axis(axis, p.ndim) if p.ndim else _axis(axis, 1)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = np.result_type(np.empty(0, dd.dtype), period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _core.remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = _core.where((ddmod == interval_low) & (dd > 0), interval_high, ddmod)
    ph_correct = _core.where(_core.abs(dd) < discont, 0, ddmod - dd)
    up = p.astype(dtype)
    head = up[_along(p.ndim, axis, slice(0, 1))]
    tail = p[_along(p.ndim, axis, slice(1, None))] + _core.cumsum(ph_correct, axis=axis)
    return _core.concatenate([head, tail.astype(dtype)], axis=axis)
