"""Window functions (NumPy's reference: "Window functions"): bartlett, blackman, hamming,
hanning and kaiser, made on the target device."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _core
from ._core import i0, ndarray

__all__ = [
    "bartlett",
    "blackman",
    "hamming",
    "hanning",
    "kaiser",
]



def _symmetric_points(M, device):  # noqa: N803 - NumPy's name
    """n = 1-M, 3-M, ..., M-1 as float64, or the whole window when M < 2 (None otherwise)."""
    M = operator.index(M) if not isinstance(M, float) else M
    if M < 1:
        return None, _core.zeros((0,), dtype=np.float64, device=device)
    if M == 1:
        return None, _core.ones((1,), dtype=np.float64, device=device)
    return _core.arange(1 - M, M, 2, dtype=np.float64, device=device), None


def bartlett(M: int, *, device: Any = None) -> ndarray:
    """The triangular (Bartlett) window of M points (numpy.bartlett)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return _core.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def blackman(M: int, *, device: Any = None) -> ndarray:
    """The Blackman window of M points (numpy.blackman)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return 0.42 + 0.5 * _core.cos(np.pi * n / (M - 1)) + 0.08 * _core.cos(2.0 * np.pi * n / (M - 1))


def hamming(M: int, *, device: Any = None) -> ndarray:
    """The Hamming window of M points (numpy.hamming)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return 0.54 + 0.46 * _core.cos(np.pi * n / (M - 1))


def hanning(M: int, *, device: Any = None) -> ndarray:
    """The Hann window of M points (numpy.hanning)."""
    n, short = _symmetric_points(M, device)
    if short is not None:
        return short
    return 0.5 + 0.5 * _core.cos(np.pi * n / (M - 1))


def kaiser(M: int, beta: float, *, device: Any = None) -> ndarray:
    """The Kaiser window of M points with shape parameter beta (numpy.kaiser)."""
    M = operator.index(M) if not isinstance(M, float) else M
    beta = float(beta)
    if M == 1:
        return _core.ones((1,), dtype=np.float64, device=device)
    n = _core.arange(0, M, dtype=np.float64, device=device)
    alpha = (M - 1) / 2.0
    return i0(beta * _core.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / float(
        np.i0(np.float64(beta)))
