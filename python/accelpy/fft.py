"""Discrete Fourier transforms: ``numpy.fft``'s functions on accelpy arrays.

Every transform is one of three building blocks of the core (``accel/fft.hpp``): a complex
transform, a real-to-complex and a complex-to-real one, over any set of axes at once. They run
through pocketfft on the CPU (the library NumPy uses, split over the thread pool) and cuFFT on
CUDA devices (queued on the current stream; plans are cached, see :data:`config`).

Results follow NumPy 2: float32 (and float16) input gives complex64, other real input
complex128; ``norm`` is ``"backward"`` (default), ``"ortho"`` or ``"forward"``.
"""

from __future__ import annotations

import operator
import warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis

from . import _core
from . import cuda as _cuda
from ._creation import asarray as _asarray

__all__ = [
    "config",
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]

_SWAP_DIRECTION = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _swap_direction(norm):
    try:
        return _SWAP_DIRECTION[norm]
    except (KeyError, TypeError):
        raise ValueError(
            f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".'
        ) from None


def _finish(result, out):
    if out is None:
        return result
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"out must be an accelpy array, not {type(out).__name__}")
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError(
            f"out has shape {tuple(out.shape)}, but the result has shape {tuple(result.shape)}"
        )
    out[...] = result
    return out


def _axis_and_length(a, n, axis):
    axis = _normalize_axis(axis, a.ndim)
    return axis, a.shape[axis] if n is None else operator.index(n)


# ---- one axis -----------------------------------------------------------------------------


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform along `axis`, cut or zero-padded to `n` points."""
    a = _asarray(a)
    axis, n = _axis_and_length(a, n, axis)
    return _finish(_core._fft_c2c(a, [axis], [n], False, norm), out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D inverse discrete Fourier transform along `axis`."""
    a = _asarray(a)
    axis, n = _axis_and_length(a, n, axis)
    return _finish(_core._fft_c2c(a, [axis], [n], True, norm), out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D transform of real input: the ``n // 2 + 1`` non-negative frequencies."""
    a = _asarray(a)
    axis, n = _axis_and_length(a, n, axis)
    return _finish(_core._fft_r2c(a, [axis], [n], norm), out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of :func:`rfft`: `n` real points (default ``2 * (m - 1)``)."""
    a = _asarray(a)
    axis = _normalize_axis(axis, a.ndim)
    n = (a.shape[axis] - 1) * 2 if n is None else operator.index(n)
    return _finish(_core._fft_c2r(a, [axis], [n], norm), out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of a signal with Hermitian symmetry (given by its first half): real."""
    a = _asarray(a)
    axis = _normalize_axis(axis, a.ndim)
    n = (a.shape[axis] - 1) * 2 if n is None else operator.index(n)
    new_norm = _swap_direction(norm)
    return _finish(_core._fft_c2r(_core.conj(a), [axis], [n], new_norm), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of :func:`hfft`: the first half of a Hermitian spectrum."""
    a = _asarray(a)
    axis, n = _axis_and_length(a, n, axis)
    new_norm = _swap_direction(norm)
    return _finish(_core.conj(_core._fft_r2c(a, [axis], [n], new_norm)), out)


# ---- several axes ---------------------------------------------------------------------------


def _cook_nd_args(a, s, axes, invreal=False):
    # numpy.fft's rules for s and axes, NumPy 2 deprecations included.
    shapeless = s is None
    if axes is not None:
        axes = [_normalize_axis(ax, a.ndim) for ax in axes]
    if s is None:
        s = list(a.shape) if axes is None else [a.shape[ax] for ax in axes]
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn(
                "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). "
                "To retain current behaviour, pass a sequence [0, ..., k-1] to `axes` for an "
                "array of dimension k.",
                DeprecationWarning,
                stacklevel=3,
            )
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    axes = [_normalize_axis(ax, a.ndim) for ax in axes]
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn(
            "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0. "
            "Pass the value matching the default for its `n` parameter instead.",
            DeprecationWarning,
            stacklevel=3,
        )
    lengths = []
    for i, (n, ax) in enumerate(zip(s, axes, strict=True)):
        if n is None or n == -1:
            n = a.shape[ax]
            if invreal and i == len(axes) - 1:
                n = (a.shape[ax] - 1) * 2
        lengths.append(operator.index(n))  # TypeError for 2.5, as NumPy's
    return lengths, axes


def _c2c_nd(a, s, axes, norm, out, inverse):
    a = _asarray(a)
    lengths, axes = _cook_nd_args(a, s, axes)
    if not axes:
        return _finish(_core.copy(a), out)
    if len(set(axes)) != len(axes):
        # A repeated axis is transformed once per mention, as NumPy does (one axis at a time).
        for n, ax in reversed(list(zip(lengths, axes, strict=True))):
            a = _core._fft_c2c(a, [ax], [n], inverse, norm)
        return _finish(a, out)
    return _finish(_core._fft_c2c(a, axes, lengths, inverse, norm), out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The n-dimensional discrete Fourier transform over `axes` (default: all)."""
    return _c2c_nd(a, s, axes, norm, out, False)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The n-dimensional inverse discrete Fourier transform."""
    return _c2c_nd(a, s, axes, norm, out, True)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D discrete Fourier transform (over the last two axes by default)."""
    return _c2c_nd(a, s, axes, norm, out, False)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D inverse discrete Fourier transform."""
    return _c2c_nd(a, s, axes, norm, out, True)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The n-dimensional transform of real input (the last axis keeps ``n // 2 + 1`` values)."""
    a = _asarray(a)
    lengths, axes = _cook_nd_args(a, s, axes)
    if not axes:
        raise ValueError("rfftn needs at least one axis to transform")
    if len(set(axes)) != len(axes):
        a = _core._fft_r2c(a, axes[-1:], lengths[-1:], norm)
        for n, ax in reversed(list(zip(lengths[:-1], axes[:-1], strict=True))):
            a = _core._fft_c2c(a, [ax], [n], False, norm)
        return _finish(a, out)
    return _finish(_core._fft_r2c(a, axes, lengths, norm), out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of :func:`rfftn`; `s` gives the real output's lengths."""
    a = _asarray(a)
    lengths, axes = _cook_nd_args(a, s, axes, invreal=True)
    if not axes:
        raise ValueError("irfftn needs at least one axis to transform")
    if len(set(axes)) != len(axes):
        for n, ax in reversed(list(zip(lengths[:-1], axes[:-1], strict=True))):
            a = _core._fft_c2c(a, [ax], [n], True, norm)
        return _finish(_core._fft_c2r(a, axes[-1:], lengths[-1:], norm), out)
    return _finish(_core._fft_c2r(a, axes, lengths, norm), out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D transform of real input."""
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of :func:`rfft2`."""
    return irfftn(a, s, axes, norm, out)


# ---- frequencies and shifts -----------------------------------------------------------------


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of an `n`-point transform with sample spacing `d` (float64, or
    the real floating `dtype` given, as the Array API allows)."""
    if not isinstance(n, (int, _np.integer)):
        raise ValueError("n should be an integer")
    n = int(n)
    kw = {} if device is None else {"device": device}
    positive = _core.arange(0, (n - 1) // 2 + 1, 1, dtype=_np.int64, **kw)
    negative = _core.arange(-(n // 2), 0, 1, dtype=_np.int64, **kw)
    return _frequencies(_core.concatenate([positive, negative]), n * d, dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of :func:`rfft` (the ``n // 2 + 1`` non-negative ones)."""
    if not isinstance(n, (int, _np.integer)):
        raise ValueError("n should be an integer")
    n = int(n)
    kw = {} if device is None else {"device": device}
    return _frequencies(_core.arange(0, n // 2 + 1, 1, dtype=_np.int64, **kw), n * d, dtype)


def _frequencies(k, span, dtype):
    """k / span in float64, cast to `dtype` when one is given (a real floating dtype)."""
    out = k * (1.0 / span)
    if dtype is None:
        return out
    if _np.dtype(dtype).kind != "f":
        raise ValueError(f"dtype must be a real floating dtype, got {_np.dtype(dtype)}")
    return out.astype(dtype)


def _roll_axes(x, axes, shift_of):
    x = _asarray(x)
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, (int, _np.integer)):
        axes = [axes]
    for ax in axes:
        ax = _normalize_axis(ax, x.ndim)
        size = x.shape[ax]
        if size == 0:
            continue
        k = shift_of(size) % size
        if k == 0:
            continue
        head = [slice(None)] * x.ndim
        tail = [slice(None)] * x.ndim
        head[ax] = slice(size - k, None)
        tail[ax] = slice(None, size - k)
        x = _core.concatenate([x[tuple(head)], x[tuple(tail)]], axis=ax)
    return x


def fftshift(x, axes=None):
    """Moves the zero frequency to the centre (a roll by ``n // 2`` along `axes`)."""
    return _roll_axes(x, axes, lambda n: n // 2)


def ifftshift(x, axes=None):
    """The inverse of :func:`fftshift`."""
    return _roll_axes(x, axes, lambda n: -(n // 2))


# ---- the cuFFT plan cache -------------------------------------------------------------------


class PlanCache:
    """The cuFFT plans cached for one CUDA device (a bounded, least-recently-used cache).

    ``size``, ``hits`` and ``misses`` describe it; ``max_size`` bounds every device's cache
    (default 16; 0 keeps no plan); :meth:`clear` destroys its plans.
    """

    def __init__(self, device: int):
        self.device = device

    def _info(self):
        return _core._fft_plan_cache_info(self.device)

    @property
    def size(self) -> int:
        return self._info()["size"]

    @property
    def max_size(self) -> int:
        return self._info()["max_size"]

    @max_size.setter
    def max_size(self, value: int) -> None:
        if value < 0:
            raise ValueError(f"max_size must be >= 0, not {value}")
        _core._fft_set_plan_cache_max_size(int(value))

    @property
    def hits(self) -> int:
        return self._info()["hits"]

    @property
    def misses(self) -> int:
        return self._info()["misses"]

    def clear(self) -> None:
        _core._fft_plan_cache_clear(self.device)

    def __repr__(self):
        i = self._info()
        return (
            f"<cuFFT plan cache of cuda:{self.device}: {i['size']}/{i['max_size']} plans, "
            f"{i['hits']} hits, {i['misses']} misses>"
        )


class _Config:
    """``accelpy.fft.config``: the cuFFT plan caches."""

    def get_plan_cache(self, device=None) -> PlanCache:
        """The plan cache of a CUDA device (an index, ``"cuda:1"`` or a Device; default 0)."""
        if device is None:
            index = 0
        elif isinstance(device, (int, _np.integer)):
            index = int(device)
        else:
            dev = _core.Device(device) if isinstance(device, str) else device
            if not str(dev).startswith("cuda"):
                raise ValueError(f"plan caches belong to CUDA devices, not {dev}")
            index = dev.index
        return PlanCache(index)

    @property
    def plan_cache(self) -> PlanCache:
        """The plan cache of CUDA device 0."""
        return self.get_plan_cache()

    def clear_plan_cache(self) -> None:
        """Destroys the cached plans of every CUDA device accelpy has used."""
        for index in range(max(1, _cuda_device_count())):
            _core._fft_plan_cache_clear(index)


def _cuda_device_count():
    return _cuda.device_count() if _cuda.is_available() else 0


config = _Config()
