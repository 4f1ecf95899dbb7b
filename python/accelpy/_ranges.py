"""Numerical ranges (NumPy's reference: "Array creation routines", numerical ranges): linspace,
logspace, geomspace and meshgrid, bit for bit as NumPy's; arange is the core's (_creation.py).
Each is a lazy expression over an arange, which fuses with its consumers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from . import _core
from ._core import ndarray
from ._creation import _integer, _size, asarray, host_values
from ._dtypes import promoted_dtype

if TYPE_CHECKING:
    from ._core import ArrayLike, DeviceLike, DTypeLike

__all__ = ["geomspace", "linspace", "logspace", "meshgrid"]


@overload
def linspace(start: complex, stop: complex, num: int = 50, endpoint: bool = True,
             retstep: Literal[False] = False, dtype: DTypeLike | None = None, axis: int = 0, *,
             device: DeviceLike | None = None) -> ndarray: ...

@overload
def linspace(start: complex, stop: complex, num: int = 50, endpoint: bool = True, *,
             retstep: Literal[True], dtype: DTypeLike | None = None, axis: int = 0,
             device: DeviceLike | None = None) -> tuple[ndarray, np.floating[Any]]: ...

def linspace(start: Any, stop: Any, num: Any = 50, endpoint: Any = True, retstep: Any = False,
             dtype: Any = None, axis: Any = 0, *, device: Any = None) -> Any:
    """num evenly spaced samples over [start, stop] (or [start, stop) without the endpoint),
    bit for bit as ``numpy.linspace``; with ``retstep``, also the spacing (a NumPy scalar).
    start and stop may be arrays (accelpy's, read back, or NumPy's): the samples then go along
    `axis` of the result."""
    num = _size(num, "linspace", "num")
    scalars = (int, float, complex, np.generic)
    if not (isinstance(start, scalars) and isinstance(stop, scalars)) or axis != 0:
        return _linspace_of_arrays(start, stop, num, endpoint, retstep, dtype,
                                   _integer(axis, "linspace", "axis"), device)
    y = _core.linspace(start, stop, num, endpoint, dtype, device=device)
    if not retstep:
        return y
    div = num - 1 if endpoint else num
    compute = promoted_dtype(start, stop, 1.0)  # NumPy's dtype for the arithmetic
    step = np.subtract(stop, start, dtype=compute) / div if div > 0 else np.nan
    return y, step


def _linspace_of_arrays(start, stop, num, endpoint, retstep, dtype, axis, device):
    """linspace with array (or 0-d array) endpoints, as NumPy computes it."""
    if device is None:
        device = next((v.device for v in (start, stop) if isinstance(v, ndarray)),
                      _core.get_default_device())
    # Python scalars stay as they are: NumPy promotes them as weak scalars.
    lo, hi = (_core.asnumpy(v) if isinstance(v, ndarray) else
              v if isinstance(v, (int, float, complex, np.generic)) else np.asarray(v)
              for v in (start, stop))
    y = _linspace(lo, hi, num, endpoint, axis, device)
    if dtype is not None and np.dtype(dtype) != y.dtype:
        if np.dtype(dtype).kind in "iub":  # NumPy floors before an integer cast
            y = y // 1  # floor, staying floating
        y = y.astype(dtype)
    if not retstep:
        return y
    div = num - 1 if endpoint else num
    compute = promoted_dtype(lo, hi, 1.0)
    step = np.subtract(hi, lo, dtype=compute) / div if div > 0 else np.nan
    return y, step


def _linspace(start, stop, num, endpoint, axis, device):
    """numpy.linspace of host start/stop (scalars or arrays) along `axis`, made on `device` by
    NumPy's formula (start + i * step, the endpoint stored exactly)."""
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if np.ndim(start) == 0 and np.ndim(stop) == 0 and axis in (0, -1):
        dt = promoted_dtype(start, stop, float(num))
        return linspace(start.item() if isinstance(start, np.ndarray) else start,
                        stop.item() if isinstance(stop, np.ndarray) else stop, num,
                        endpoint, dtype=dt, device=device)
    dt = promoted_dtype(start, stop, float(num))
    delta = np.subtract(stop, start, dtype=dt)
    div = num - 1 if endpoint else num
    shape = (-1,) + (1,) * delta.ndim
    y = _core.reshape(_core.arange(0, num, dtype=dt, device=device), shape)
    d = asarray(delta, device=device)
    if div > 0:
        step = delta / div
        y = y / div * d if np.any(step == 0) else y * asarray(step, device=device)
    else:
        y = y * d
    y = y + asarray(np.asarray(start, dtype=dt), device=device)
    if endpoint and num > 1:
        y = _core.concatenate([y[:-1], _core.reshape(asarray(np.asarray(stop, dtype=dt) +
                                                              np.zeros_like(delta),
                                                              device=device), (1, *delta.shape))])
    return _core.moveaxis(y, 0, axis) if axis != 0 else y


def logspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
             base: ArrayLike = 10.0, dtype: Any = None, axis: int = 0, *,
             device: Any = None) -> ndarray:
    """num samples base**t for t evenly spaced over [start, stop] (numpy.logspace); start, stop
    and base may be arrays (then `axis` is where the samples go)."""
    start, stop, base = (host_values(v) if not isinstance(v, (int, float, complex)) else v
                         for v in (start, stop, base))
    if np.ndim(base):
        ndmax = np.broadcast(start, stop, base).ndim
        start, stop, base = (np.array(a, copy=None, ndmin=ndmax) for a in (start, stop, base))
        base = np.expand_dims(base, axis=axis)
    y = _linspace(start, stop, num, endpoint, axis, device)
    b = asarray(base, device=y.device) if np.ndim(base) else base
    out = _core.pow(b, y)
    return out if dtype is None else out.astype(dtype)


def geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
              dtype: Any = None, axis: int = 0, *, device: Any = None) -> ndarray:
    """num samples evenly spaced on a log scale from start to stop, the endpoints exact
    (numpy.geomspace); negative and complex endpoints as NumPy handles them."""
    start, stop = np.asarray(host_values(start)), np.asarray(host_values(stop))
    if np.any(start == 0) or np.any(stop == 0):
        raise ValueError("Geometric sequence cannot include zero")
    dt = promoted_dtype(start, stop, float(num), np.float64 if dtype is None else dtype)
    dtype = dt if dtype is None else np.dtype(dtype)
    start = start.astype(dt, copy=True)
    stop = stop.astype(dt, copy=True)
    # Rotating start onto the positive real axis, as NumPy, keeps logs real where they can be.
    out_sign = np.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = logspace(np.log10(start), np.log10(stop), num=num, endpoint=endpoint, base=10.0,
                      dtype=dt, device=device)
    if num > 0:
        shape = np.broadcast(start, stop).shape
        first = asarray(np.broadcast_to(start, shape).reshape(1, *shape), device=result.device)
        parts = [first, result[1:]]
        if num > 1 and endpoint:
            last = asarray(np.broadcast_to(stop, shape).reshape(1, *shape),
                            device=result.device)
            parts = [first, result[1:-1], last]
        result = _core.concatenate([p.astype(dt) for p in parts])
    result = result * asarray(out_sign, device=result.device)
    if axis != 0:
        result = _core.moveaxis(result, 0, axis)
    return result.astype(dtype)


def meshgrid(*xi: ArrayLike, copy: bool = True, sparse: bool = False,
             indexing: str = "xy") -> tuple[ndarray, ...]:
    """Coordinate arrays from 1-D coordinate vectors (numpy.meshgrid)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [asarray(x).reshape(-1) for x in xi]
    ndim = len(xs)
    shapes = []
    for i in range(ndim):
        s = [1] * ndim
        s[i] = -1
        shapes.append(s)
    if indexing == "xy" and ndim > 1:
        shapes[0][0], shapes[0][1] = 1, -1
        shapes[1][0], shapes[1][1] = -1, 1
    out = [x.reshape(tuple(s)) for x, s in zip(xs, shapes, strict=True)]
    if not sparse and out:
        out = _core.broadcast_arrays(*out)
    if copy:
        out = [o.copy() for o in out]
    return tuple(out)
