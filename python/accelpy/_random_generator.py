"""Random numbers (``accelpy.random``): NumPy's Generator API over a counter-based generator.

    rng = ap.random.default_rng(42)
    x = rng.standard_normal((1000, 1000), dtype=ap.float32)   # lazy: fuses with what follows
    y = rng.random(10**6) * 2 + 1                              # one kernel

The generator is Philox4x32-10 (counter-based): a draw of n values computes each one from its
index, so the numbers depend only on the seed and the sequence of calls, never on the device,
the number of threads or the fusion. Uniforms and integers are bit-identical on the CPU and on
GPUs; normals and exponentials too (their logarithm and sine/cosine are polynomials shared by
both backends rather than each side's libm, which differ by an ulp or two; tests allow 1 ulp).

Differences from NumPy:

* The streams are not NumPy's PCG64: ``default_rng(42)`` gives different numbers than
  ``numpy.random.default_rng(42)``; seeds go through ``numpy.random.SeedSequence`` all the same.
* Normals use the Box-Muller transform (NumPy: ziggurat), so float32 normals reach |z| = 6.66
  and float64 ones 8.57, the largest values 32- and 53-bit uniforms can produce.
* ``size=None`` gives a 0-d array rather than a Python scalar (as CuPy).
* Draws take ``device=`` (default: the current default device).
"""

import operator
from _thread import allocate_lock

import numpy as np

from . import _core
from ._creation import asarray as _asarray
from ._creation import host_values as _host_values

__all__ = [
    "Generator",
    "default_rng",
    "seed",
    "rand",
    "randn",
    "randint",
    "random",
    "random_sample",
    "uniform",
    "normal",
    "standard_normal",
    "exponential",
    "permutation",
    "shuffle",
    "choice",
]


def _shape(size):
    if size is None:
        return ()
    if isinstance(size, (tuple, list)):
        return tuple(operator.index(s) for s in size)
    return (operator.index(size),)


def _key_of(seed):
    """A 64-bit Philox key from anything numpy.random.SeedSequence accepts (None: OS entropy)."""
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    words = seq.generate_state(2, np.uint32)
    return int(words[0]) | (int(words[1]) << 32)


def _is_scalar(x):
    return isinstance(x, (bool, int, float, complex, np.generic))


def _broadcast_size(size, *params):
    """The output shape: `size`, or the broadcast shape of the array parameters."""
    if size is not None:
        return _shape(size)
    shapes = [np.shape(p) if not isinstance(p, _core.ndarray) else p.shape for p in params]
    return tuple(np.broadcast_shapes(*shapes)) if shapes else ()


def _check_nonnegative(value, name):
    if isinstance(value, _core.ndarray):
        bad = bool(_core.any(value < 0))
    else:
        bad = bool(np.any(np.asarray(value) < 0))
    if bad:
        raise ValueError(f"{name} < 0")


def _as_param(x, device):
    return x if _is_scalar(x) else _asarray(x, device=device)


class Generator:
    """NumPy's ``Generator`` API over Philox4x32-10; make one with :func:`default_rng`.

    Every method takes ``device=`` (default: the current default device) and returns a lazy
    array whose values depend only on the seed and on the draws made before it.
    """

    def __init__(self, seed=None):
        self._state = _core._Philox(_key_of(seed))

    def __repr__(self):
        return f"Generator(Philox4x32) at {hex(id(self))}"

    @property
    def state(self):
        """The generator's key and next block offset (a dict; assignable)."""
        return {"bit_generator": "Philox4x32", "key": self._state.key,
                "offset": self._state.offset}

    @state.setter
    def state(self, value):
        self._state = _core._Philox(int(value["key"]), int(value["offset"]))

    def random(self, size=None, dtype=np.float64, *, device=None):
        """Uniform floats in [0, 1) (float32 or float64), as ``numpy.random.Generator.random``."""
        return self._state.random(_shape(size), dtype, device)

    def uniform(self, low=0.0, high=1.0, size=None, *, dtype=np.float64, device=None):
        """Uniform floats in [low, high): ``low + (high - low) * random()``, broadcast as NumPy."""
        low, high = _as_param(low, device), _as_param(high, device)
        u = self._state.random(_broadcast_size(size, low, high), dtype, device)
        return (low + (high - low) * u).astype(dtype, copy=False)

    def standard_normal(self, size=None, dtype=np.float64, *, device=None):
        """Standard normal floats (float32 or float64), by the Box-Muller transform."""
        return self._state.standard_normal(_shape(size), dtype, device)

    def normal(self, loc=0.0, scale=1.0, size=None, *, dtype=np.float64, device=None):
        """Normal floats with mean ``loc`` and standard deviation ``scale`` (``scale >= 0``)."""
        _check_nonnegative(scale, "scale")
        loc, scale = _as_param(loc, device), _as_param(scale, device)
        z = self._state.standard_normal(_broadcast_size(size, loc, scale), dtype, device)
        return (loc + scale * z).astype(dtype, copy=False)

    def standard_exponential(self, size=None, dtype=np.float64, *, device=None):
        """Exponential floats with scale 1 (float32 or float64)."""
        return self._state.standard_exponential(_shape(size), dtype, device)

    def exponential(self, scale=1.0, size=None, *, dtype=np.float64, device=None):
        """Exponential floats with scale ``scale`` (``scale >= 0``)."""
        _check_nonnegative(scale, "scale")
        scale = _as_param(scale, device)
        e = self._state.standard_exponential(_broadcast_size(size, scale), dtype, device)
        return (scale * e).astype(dtype, copy=False)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False, *,
                 device=None):
        """Integers in [low, high) (``endpoint=True``: [low, high]) without modulo bias.

        ``high=None`` draws from [0, low). The bounds are Python or NumPy integers (array
        bounds are not supported); ValueError when they are empty or outside ``dtype``.
        """
        if high is None:
            low, high = 0, low
        for name, v in (("low", low), ("high", high)):
            if isinstance(v, _core.ndarray) or np.ndim(v) != 0:
                raise TypeError(f"integers: {name} must be an integer, not an array "
                                "(array bounds are not supported)")
            if not isinstance(v, (int, np.integer)):
                raise TypeError(f"integers: {name} must be an integer, got {type(v).__name__}")
        return self._state.integers(int(low), int(high), _shape(size), dtype, endpoint, device)


    def permutation(self, x, axis=0, *, device=None):
        """A permuted ``arange(x)`` (int x), or a permuted copy of array x along `axis`.

        The permutation is a keyed Feistel network computed per element (lazy, fused), not a
        shuffle of random keys: every permutation of small n appears, with frequencies that
        pass a chi-square test, but the family is not NumPy's Fisher-Yates.
        """
        if isinstance(x, (int, np.integer)):
            n = operator.index(x)
            if n < 0:
                raise ValueError(f"negative dimensions are not allowed (permutation of {n})")
            return self._state.permutation(n, n, device)
        arr = _as_array(x, device)
        if arr.ndim < 1:
            raise IndexError("x must be an integer or at least 1-dimensional")
        ax = _normalize_axis(axis, arr.ndim)
        n = arr.shape[ax]
        return _take(arr, self._state.permutation(n, n, arr.device), ax)

    def shuffle(self, x, axis=0):
        """Permutes accelpy array x in place along `axis` (its first axis by default)."""
        if not isinstance(x, _core.ndarray):
            raise TypeError("shuffle: x must be an accelpy array (it is permuted in place)")
        if x.ndim < 1:
            raise ValueError("x must be an integer or at least 1-dimensional")
        ax = _normalize_axis(axis, x.ndim)
        perm = self._state.permutation(x.shape[ax], x.shape[ax], x.device)
        x[...] = _take(x, perm, ax)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *, device=None):
        """Random samples from ``arange(a)`` (int a) or from array a along `axis`
        (numpy.random.Generator.choice): uniform, or with probabilities `p`; without
        replacement the sample is a prefix of a random permutation (weighted by `p` when given:
        the order successive draws without replacement would take)."""
        if isinstance(a, (int, np.integer)):
            arr, n = None, operator.index(a)
            if n < 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
        else:
            arr = _as_array(a, device)
            if arr.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not a 0-d array")
            axis = _normalize_axis(axis, arr.ndim)
            n = arr.shape[axis]
            device = arr.device
        shape = _shape(size)
        count = int(np.prod(shape, dtype=np.int64))
        if n == 0 and count != 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        if p is not None:
            pv = _host_values(p, np.float64)
            if pv.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if pv.size != n:
                raise ValueError("a and p must have same size")
            if np.isnan(pv).any() or (pv < 0).any():
                raise ValueError("probabilities are not non-negative")
            if abs(float(np.sum(pv)) - 1.0) > np.sqrt(np.finfo(np.float64).eps):
                raise ValueError("probabilities do not sum to 1")
            if not replace:
                if count > n:
                    raise ValueError("Cannot take a larger sample than population when replace "
                                     "is False")
                if count > np.count_nonzero(pv):
                    raise ValueError("Fewer non-zero entries in p than size")
                # Efraimidis-Spirakis: keys log(u) / p; the `count` largest are a weighted sample
                # without replacement, in the order successive draws would take them. Entries
                # with p = 0 are never drawn (key -inf).
                u = self._state.random((n,), np.float64, device)
                p_dev = _asarray(pv, device=u.device)
                keys = _core.where(p_dev > 0, _core.log1p(-u) / p_dev, -np.inf)
                order = _core.argsort(keys, descending=True)
                idx = order[:count].reshape(shape)
                return idx if arr is None else _take(arr, idx, axis)
            # Inverse CDF as NumPy: the index is how many cdf values are <= u (its
            # searchsorted 'right'), counted by a fused comparison reduction.
            cdf = np.cumsum(pv)
            cdf /= cdf[-1]
            u = self._state.random(shape, np.float64, device)
            cdf_dev = _asarray(cdf, device=u.device).reshape((1,) * len(shape) + (n,))
            idx = _core.sum(cdf_dev <= u.reshape(shape + (1,)), axis=-1)
        elif replace:
            idx = self._state.integers(0, n, shape, np.int64, False, device)
        else:
            if count > n:
                raise ValueError("Cannot take a larger sample than population when replace is "
                                 "False")
            idx = self._state.permutation(n, count, device).reshape(shape)
        return idx if arr is None else _take(arr, idx, axis)


def _as_array(x, device):
    return _asarray(x, device=device)


def _normalize_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _take(arr, indices, axis):
    """arr's elements at `indices` along `axis` (advanced indexing)."""
    take = getattr(_core, "take", None)
    if take is not None:
        return take(arr, indices, axis=axis)
    raise NotImplementedError("this accelpy build has no take (advanced indexing), which "
                              "permuting or sampling an array needs; integer populations work")


def default_rng(seed=None):
    """A new :class:`Generator` seeded from ``seed`` (an int, a sequence of ints, a
    ``numpy.random.SeedSequence``, or None for fresh OS entropy); a Generator passes through."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


# ---- the legacy module functions, on one global generator ------------------------------------

# Made on first use, not at import: seeding from OS entropy imports numpy.random (and secrets,
# hashlib, ...), half of accelpy's own import time. The lock makes concurrent first draws share
# one generator, as a generator made at import would be.
_global = None
_global_lock = allocate_lock()  # _thread: threading is slow to import


def _global_generator():
    g = _global
    if g is None:
        with _global_lock:
            g = _global
            if g is None:
                g = _set_global(Generator())
    return g


def _set_global(g):
    global _global
    _global = g
    return g


def seed(seed=None):
    """Reseeds the global generator behind the module functions."""
    g = Generator(seed)
    with _global_lock:
        _set_global(g)


def random(size=None, *, device=None):
    """Uniform float64 values in [0, 1) (``numpy.random.random``)."""
    return _global_generator().random(size, device=device)


random_sample = random


def rand(*shape, device=None):
    """Uniform float64 values in [0, 1) of the given dimensions (``numpy.random.rand``)."""
    return _global_generator().random(shape, device=device)


def randn(*shape, device=None):
    """Standard normal float64 values of the given dimensions (``numpy.random.randn``)."""
    return _global_generator().standard_normal(shape, device=device)


def randint(low, high=None, size=None, dtype=np.int64, *, device=None):
    """Integers in [low, high), or [0, low) without high (``numpy.random.randint``)."""
    return _global_generator().integers(low, high, size, dtype, device=device)


def uniform(low=0.0, high=1.0, size=None, *, device=None):
    """Uniform float64 values in [low, high) (``numpy.random.uniform``)."""
    return _global_generator().uniform(low, high, size, device=device)


def normal(loc=0.0, scale=1.0, size=None, *, device=None):
    """Normal float64 values (``numpy.random.normal``)."""
    return _global_generator().normal(loc, scale, size, device=device)


def standard_normal(size=None, *, device=None):
    """Standard normal float64 values (``numpy.random.standard_normal``)."""
    return _global_generator().standard_normal(size, device=device)


def exponential(scale=1.0, size=None, *, device=None):
    """Exponential float64 values (``numpy.random.exponential``)."""
    return _global_generator().exponential(scale, size, device=device)


def permutation(x, *, device=None):
    """A permuted ``arange(x)``, or a permuted copy of array x (``numpy.random.permutation``)."""
    return _global_generator().permutation(x, device=device)


def shuffle(x):
    """Permutes accelpy array x in place along its first axis (``numpy.random.shuffle``)."""
    _global_generator().shuffle(x)


def choice(a, size=None, replace=True, p=None, *, device=None):
    """Random samples from ``arange(a)`` or array a (``numpy.random.choice``)."""
    return _global_generator().choice(a, size, replace, p, device=device)
