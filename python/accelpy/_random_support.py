"""What accelpy.random's distributions share: shapes and parameters broadcast as NumPy's, the
parameter checks, the vectorised rejection loop and log(k!) on arrays.

Every distribution is array operations on the output's device over draws of the counter-based
generator, so its numbers depend only on the seed and the calls before it. Parameters become
float64 arrays (0-d for scalars) broadcast to the output shape and flattened; the samplers work
on those flat arrays and the result is reshaped at the end.
"""

import math
import operator

import numpy as np

from . import _core
from ._creation import asarray as _asarray


def shape_of(size):
    """size (None, an int or a sequence of ints) as a shape tuple."""
    if size is None:
        return ()
    if isinstance(size, (tuple, list)):
        return tuple(operator.index(s) for s in size)
    return (operator.index(size),)


def key_of(seed):
    """A 64-bit Philox key from a numpy.random.SeedSequence."""
    words = seed.generate_state(2, np.uint32)
    return int(words[0]) | (int(words[1]) << 32)


def seed_sequence(seed):
    """seed (anything numpy.random.SeedSequence accepts; None: OS entropy) as a SeedSequence."""
    return seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)


def broadcast_size(size, *params):
    """The output shape: `size`, or the broadcast shape of the parameters."""
    if size is not None:
        return shape_of(size)
    shapes = [p.shape if isinstance(p, _core.ndarray) else np.shape(p) for p in params]
    return tuple(np.broadcast_shapes(*shapes)) if shapes else ()


def check_nonnegative(value, name):
    """ValueError "`name` < 0" when any element of value is negative (NumPy's message)."""
    if isinstance(value, _core.ndarray):
        bad = bool(_core.any(value < 0))
    else:
        bad = bool(np.any(np.asarray(value) < 0))
    if bad:
        raise ValueError(f"{name} < 0")


def as_param(x, device):
    """A parameter of the legacy-style methods: a scalar as is, else an array on `device`."""
    return x if isinstance(x, (bool, int, float, complex, np.generic)) else _asarray(
        x, device=device)


def param_device(device, *params):
    """The draw's device: `device`, else that of the first accelpy-array parameter."""
    if device is not None:
        return device
    for p in params:
        if isinstance(p, _core.ndarray):
            return p.device
    return _core.get_default_device()


def flat_params(size, device, *params):
    """(shape, device, flat params): the output shape (`size`, or the parameters' broadcast
    shape) and each parameter as float64 on the device, 0-d for a scalar, else broadcast to the
    shape and flattened. ValueError when a parameter does not broadcast to `size`."""
    device = param_device(device, *params)
    arrays = [_asarray(p, dtype=np.float64, device=device) for p in params]
    shape = broadcast_size(size, *arrays)
    flat = []
    for a in arrays:
        if a.ndim == 0:
            flat.append(a)
            continue
        try:
            full = tuple(np.broadcast_shapes(a.shape, shape))
        except ValueError:
            full = None
        if full != shape:
            raise ValueError(f"shape mismatch: parameter of shape {a.shape} cannot be broadcast "
                             f"to size {shape}")
        flat.append(_core.broadcast_to(a, shape).reshape(-1))
    return shape, device, flat


def any_true(mask):
    """Whether any element of a boolean array (or a Python bool) is true."""
    return bool(_core.any(mask)) if isinstance(mask, _core.ndarray) else bool(mask)


def require(bad, message):
    """ValueError(message) when any element of the boolean `bad` is true."""
    if any_true(bad):
        raise ValueError(message)


def count(shape):
    return math.prod(shape)


def subset(param, idx):
    """A flat parameter at the positions `idx` (a 0-d one stays as it is)."""
    return param if param.ndim == 0 else _core.take(param, idx)


# A draw that has not converged after this many rounds has parameters the sampler cannot take
# (each round accepts a fixed fraction, at least about a half, of what is left).
MAX_ROUNDS = 200


def rejection(propose, params, n):
    """Vectorised rejection sampling of n values: propose(params, m) draws m candidates with
    fresh counters and returns (values, accepted); the rejected positions are drawn again, with
    their own parameters, until none is left. Deterministic for a seed: each round's draws
    depend only on how many positions were rejected before, which depends only on the seed."""
    values, ok = propose(params, n)
    values = _core.astype(values, np.float64)
    _core.eval(values, ok)
    pending = _core.flatnonzero(_core.logical_not(ok))
    rounds = 0
    while pending.size:
        rounds += 1
        if rounds > MAX_ROUNDS:
            raise RuntimeError("rejection sampling did not converge (parameters out of range?)")
        v, ok = propose([subset(p, pending) for p in params], pending.size)
        _core.put(values, pending, v)
        pending = _core.take(pending, _core.flatnonzero(_core.logical_not(ok)))
    return values


def _log_factorial_table(size):
    out = np.zeros(size)
    for k in range(2, size):
        out[k] = out[k - 1] + math.log(k)
    return out


_SMALL = 16
_LOG_FACTORIALS = _log_factorial_table(_SMALL)
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def log_factorial(k):
    """log(k!) of a float array of integers k >= 0 (other elements: unspecified): a table below
    16, Stirling's series above (error < 1e-14 there)."""
    table = _asarray(_LOG_FACTORIALS, device=k.device)
    small = _core.take(table, _core.astype(_core.clip(k, 0, _SMALL - 1), np.int64))
    x = _core.maximum(k, float(_SMALL)) + 1.0
    r = 1.0 / x
    r2 = r * r
    series = r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 / 1680)))
    large = (x - 0.5) * _core.log(x) - x + _HALF_LOG_2PI + series
    return _core.where(k < _SMALL, small, large)


def finish(values, shape, dtype):
    """Flat float64 samples as the output: reshaped, in the requested dtype."""
    return _core.astype(values.reshape(shape), dtype, copy=False)
