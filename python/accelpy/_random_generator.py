"""accelpy.random's Generator: NumPy's Generator API over a counter-based generator.

    rng = ap.random.default_rng(42)
    x = rng.standard_normal((1000, 1000), dtype=ap.float32)   # lazy: fuses with what follows
    y = rng.random(10**6) * 2 + 1                              # one kernel

The generator is Philox4x32-10 (counter-based): a draw of n values computes each one from its
index, so the numbers depend only on the seed and the sequence of calls, never on the device,
the number of threads or the fusion. Uniforms and integers are bit-identical on the CPU and on
GPUs; normals and exponentials too (their logarithm and sine/cosine are polynomials shared by
both backends rather than each side's libm, which differ by an ulp or two; tests allow 1 ulp).
The other distributions (_random_continuous, _random_discrete, _random_multivariate) are array
operations over those draws, so they agree across devices to the libm's last bits.

Differences from NumPy:

* The streams are not NumPy's PCG64: ``default_rng(42)`` gives different numbers than
  ``numpy.random.default_rng(42)``; seeds go through ``numpy.random.SeedSequence`` all the same.
* Normals use the Box-Muller transform (NumPy: ziggurat), so float32 normals reach |z| = 6.66
  and float64 ones 8.57, the largest values 32- and 53-bit uniforms can produce.
* ``size=None`` gives a 0-d array rather than a Python scalar (as CuPy).
* Draws take ``device=`` (default: the current default device).
"""

import functools
import operator

import numpy as np

from . import _core
from ._creation import asarray as _asarray
from ._creation import host_values as _host_values
from ._random_continuous import ContinuousDistributions
from ._random_discrete import DiscreteDistributions
from ._random_multivariate import MultivariateDistributions
from ._random_support import as_param as _as_param
from ._random_support import broadcast_size as _broadcast_size
from ._random_support import check_nonnegative as _check_nonnegative
from ._random_support import key_of as _key_of
from ._random_support import seed_sequence as _seed_sequence
from ._random_support import shape_of as _shape

__all__ = ["Generator", "Philox", "default_rng"]


def _into(out, draw, size, dtype, device, name):
    """NumPy's ``out=`` of the standard draws: the values go into `out` (an accelpy array of the
    draw's dtype, whose shape is the size), which is returned."""
    if out is None:
        return draw(_shape(size), device)
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"{name}: out must be an accelpy array, got {type(out).__name__}")
    if np.dtype(out.dtype) != np.dtype(dtype):
        raise TypeError(f"{name}: out has dtype {out.dtype}, the draw is {np.dtype(dtype)}")
    if size is not None and _shape(size) != tuple(out.shape):
        raise ValueError(f"{name}: size {_shape(size)} does not match out's shape {out.shape}")
    out[...] = draw(tuple(out.shape), out.device)
    return out


@functools.lru_cache(maxsize=64)
def _int_seed_key(seed):
    return _key_of(_seed_sequence(seed))


class Philox:
    """The bit generator behind a :class:`Generator` (``Generator.bit_generator``): Philox4x32-10
    keyed from a ``numpy.random.SeedSequence``; ``Generator(Philox(seed))`` works as NumPy's
    ``Generator(PCG64(seed))`` (a NumPy bit generator is taken for its seed sequence)."""

    def __init__(self, seed=None):
        if type(seed) is int and seed >= 0:
            # The common `seed(0)`: the key of a small integer seed is remembered, and its seed
            # sequence (4 us, more than a small program's own work) made only when asked for.
            self._seed, self._seed_sequence = seed, None
            self._state = _core._Philox(_int_seed_key(seed))
            return
        if isinstance(seed, np.random.BitGenerator):  # NumPy's PCG64(seed) etc.: its seed
            seed = seed.seed_seq
        self._seed_sequence = _seed_sequence(seed)
        self._state = _core._Philox(_key_of(self._seed_sequence))

    @property
    def seed_seq(self):
        """The numpy.random.SeedSequence the key comes from."""
        if self._seed_sequence is None:
            self._seed_sequence = _seed_sequence(self._seed)
        return self._seed_sequence

    def __repr__(self):
        return f"Philox4x32 at {hex(id(self))}"

    @property
    def state(self):
        """The key and the next block offset (a dict; assignable)."""
        return {"bit_generator": "Philox4x32", "key": self._state.key,
                "offset": self._state.offset}

    @state.setter
    def state(self, value):
        self._state = _core._Philox(int(value["key"]), int(value["offset"]))

    def spawn(self, n_children):
        """n_children independent bit generators, from the seed sequence's children."""
        return [Philox(s) for s in self.seed_seq.spawn(n_children)]

    @property
    def _seed_seq(self):
        # NumPy's bit generators' private name, which Dask's Generator wrapper reads to spawn
        # one bit generator per chunk.
        return self.seed_seq


class Generator(ContinuousDistributions, DiscreteDistributions, MultivariateDistributions):
    """NumPy's ``Generator`` API over Philox4x32-10; make one with :func:`default_rng` (or
    ``Generator(seed)``, ``Generator(Philox(seed))``).

    Every method takes ``device=`` (default: the current default device, or that of an array
    parameter) and returns a lazy array whose values depend only on the seed and on the draws
    made before it.
    """

    def __init__(self, seed=None):
        self._bit_generator = seed if isinstance(seed, Philox) else Philox(seed)

    def __repr__(self):
        return f"Generator(Philox4x32) at {hex(id(self))}"

    @property
    def _state(self):
        return self._bit_generator._state

    @property
    def bit_generator(self):
        """The :class:`Philox` bit generator this Generator draws from."""
        return self._bit_generator

    @property
    def state(self):
        """The generator's key and next block offset (a dict; assignable)."""
        return self._bit_generator.state

    @state.setter
    def state(self, value):
        self._bit_generator.state = value

    def spawn(self, n_children):
        """n_children independent Generators, from the seed sequence's children (NumPy's
        ``Generator.spawn``)."""
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

    def random(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Uniform floats in [0, 1) (float32 or float64), as ``numpy.random.Generator.random``."""
        return _into(out, lambda shape, dev: self._state.random(shape, dtype, dev), size, dtype,
                     device, "random")

    def uniform(self, low=0.0, high=1.0, size=None, *, dtype=np.float64, device=None):
        """Uniform floats in [low, high): ``low + (high - low) * random()``, broadcast as NumPy."""
        low, high = _as_param(low, device), _as_param(high, device)
        u = self._state.random(_broadcast_size(size, low, high), dtype, device)
        return (low + (high - low) * u).astype(dtype, copy=False)

    def standard_normal(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Standard normal floats (float32 or float64), by the Box-Muller transform."""
        return _into(out, lambda shape, dev: self._state.standard_normal(shape, dtype, dev), size,
                     dtype, device, "standard_normal")

    def normal(self, loc=0.0, scale=1.0, size=None, *, dtype=np.float64, device=None):
        """Normal floats with mean ``loc`` and standard deviation ``scale`` (``scale >= 0``)."""
        _check_nonnegative(scale, "scale")
        loc, scale = _as_param(loc, device), _as_param(scale, device)
        z = self._state.standard_normal(_broadcast_size(size, loc, scale), dtype, device)
        return (loc + scale * z).astype(dtype, copy=False)

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None, *,
                             device=None):
        """Exponential floats with scale 1 (float32 or float64); ``method`` is accepted for
        NumPy's signature (the draw is by inversion whatever it says)."""
        if method not in ("zig", "inv"):
            raise ValueError(f"standard_exponential: method must be 'zig' or 'inv', got {method!r}")
        return _into(out, lambda shape, dev: self._state.standard_exponential(shape, dtype, dev),
                     size, dtype, device, "standard_exponential")

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
            # searchsorted 'right'; a comparison with every cdf value costs O(size x n)).
            cdf = np.cumsum(pv)
            cdf /= cdf[-1]
            u = self._state.random(shape, np.float64, device)
            idx = _core.searchsorted(_asarray(cdf, device=u.device), u, side="right")
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
