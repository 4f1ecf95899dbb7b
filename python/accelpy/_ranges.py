"""Number sequences on a log scale, numpy.logspace and numpy.geomspace: the endpoints are small
arguments (read on the host); the samples are made on the target device."""

import numpy as np

from . import _core
from ._creation import asarray as _asarray
from ._creation import host_values, linspace

__all__ = ["geomspace", "logspace"]


def _linspace(start, stop, num, endpoint, axis, device):
    """numpy.linspace of host start/stop (scalars or arrays) along `axis`, made on `device` by
    NumPy's formula (start + i * step, the endpoint stored exactly)."""
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if np.ndim(start) == 0 and np.ndim(stop) == 0 and axis in (0, -1):
        dt = np.result_type(start, stop, float(num))
        return linspace(start.item() if isinstance(start, np.ndarray) else start,
                        stop.item() if isinstance(stop, np.ndarray) else stop, num,
                        endpoint, dtype=dt, device=device)
    dt = np.result_type(start, stop, float(num))
    delta = np.subtract(stop, start, dtype=dt)
    div = num - 1 if endpoint else num
    shape = (-1,) + (1,) * delta.ndim
    y = _core.reshape(_core.arange(0, num, dtype=dt, device=device), shape)
    d = _asarray(delta, device=device)
    if div > 0:
        step = delta / div
        y = y / div * d if np.any(step == 0) else y * _asarray(step, device=device)
    else:
        y = y * d
    y = y + _asarray(np.asarray(start, dtype=dt), device=device)
    if endpoint and num > 1:
        y = _core.concatenate([y[:-1], _core.reshape(_asarray(np.asarray(stop, dtype=dt) +
                                                              np.zeros_like(delta),
                                                              device=device), (1, *delta.shape))])
    return _core.moveaxis(y, 0, axis) if axis != 0 else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *, device=None):
    """num samples base**t for t evenly spaced over [start, stop] (numpy.logspace); start, stop
    and base may be arrays (then `axis` is where the samples go)."""
    start, stop, base = (host_values(v) if not isinstance(v, (int, float, complex)) else v
                         for v in (start, stop, base))
    if np.ndim(base):
        ndmax = np.broadcast(start, stop, base).ndim
        start, stop, base = (np.array(a, copy=None, ndmin=ndmax) for a in (start, stop, base))
        base = np.expand_dims(base, axis=axis)
    y = _linspace(start, stop, num, endpoint, axis, device)
    b = _asarray(base, device=y.device) if np.ndim(base) else base
    out = _core.pow(b, y)
    return out if dtype is None else out.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """num samples evenly spaced on a log scale from start to stop, the endpoints exact
    (numpy.geomspace); negative and complex endpoints as NumPy handles them."""
    start, stop = np.asarray(host_values(start)), np.asarray(host_values(stop))
    if np.any(start == 0) or np.any(stop == 0):
        raise ValueError("Geometric sequence cannot include zero")
    dt = np.result_type(start, stop, float(num), np.zeros((), dtype))
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
        first = _asarray(np.broadcast_to(start, shape).reshape(1, *shape), device=result.device)
        parts = [first, result[1:]]
        if num > 1 and endpoint:
            last = _asarray(np.broadcast_to(stop, shape).reshape(1, *shape),
                            device=result.device)
            parts = [first, result[1:-1], last]
        result = _core.concatenate([p.astype(dt) for p in parts])
    result = result * _asarray(out_sign, device=result.device)
    if axis != 0:
        result = _core.moveaxis(result, 0, axis)
    return result.astype(dtype)
