"""Random Dask arrays whose values do not depend on the chunking (``accelpy.distributed``).

accelpy's generator is counter-based: a draw computes element i of its result from Philox block
``offset + i // L`` (L values per block) alone. So a chunk can compute exactly the elements the
whole array would hold at its positions: its elements are runs of consecutive positions of the
whole array (C order), and each run is one draw starting at the block that holds its first
position. ``default_rng(seed).random(shape, chunks=c)`` therefore equals
``accelpy.random.default_rng(seed).random(shape)`` for every ``c`` and any number of workers.

A chunk whose runs are short (a narrow column chunk of a wide array) is drawn as one covering
draw sliced down when that computes at most ``_MAX_WASTE`` times its size, else run by run.
"""

import math
import operator

import numpy as np
from dask import array as da

from . import _core
from ._manipulation import stack
from ._random_support import key_of, seed_sequence

_MAX_WASTE = 4


def _shape(size):
    if isinstance(size, (tuple, list)):
        return tuple(operator.index(s) for s in size)
    return (operator.index(size),)


class _Draw:
    """One draw of the core generator: method, dtype and extra arguments (integers' bounds)."""

    def __init__(self, method, dtype, extra=()):
        self.method, self.dtype, self.extra = method, np.dtype(dtype), extra
        probe = _core._Philox(0, 0)
        self.run(probe, 4096, "cpu")  # lazy: reserves blocks, computes nothing
        self.per_block = 4096 // probe.offset

    def run(self, gen, count, device):
        if self.method == "integers":
            low, high, endpoint = self.extra
            return gen.integers(low, high, (count,), self.dtype, endpoint, device)
        return getattr(gen, self.method)((count,), self.dtype, device)

    def at(self, key, base, start, count, device):
        """The `count` values the whole draw (from block `base`) holds from position `start`."""
        skip = start % self.per_block
        values = self.run(_core._Philox(key, base + start // self.per_block), skip + count, device)
        return values[skip:] if skip else values


def _fill(draw, key, base, start, block, whole, device):
    """The values at positions start + sum(i_j * strides_j) of the whole C-ordered array of
    shape `whole`, for the indices i of `block` (a shape)."""
    n = math.prod(block)
    if n == 0 or tuple(block[1:]) == tuple(whole[1:]):  # one run of consecutive positions
        return draw.at(key, base, start, n, device).reshape(block)
    row = math.prod(whole[1:])
    if row * block[0] <= _MAX_WASTE * n:  # one covering draw, sliced down
        cover = draw.at(key, base, start, row * block[0], device).reshape((block[0],) + whole[1:])
        return cover[(slice(None),) + tuple(slice(0, b) for b in block[1:])]
    return stack([_fill(draw, key, base, start + i * row, block[1:], whole[1:], device)
                  for i in range(block[0])])


def _chunk(draw, key, base, whole, device, block_info=None):
    loc = block_info[None]["array-location"]
    strides = [math.prod(whole[j + 1:]) for j in range(len(whole))]
    start = sum(s * g for (s, _), g in zip(loc, strides, strict=True))
    block = tuple(e - s for s, e in loc)
    return _fill(draw, key, base, start, block, tuple(whole), device)


class ChunkedGenerator:
    """Draws Dask arrays of accelpy chunks, each element the one
    ``accelpy.random.default_rng(seed)`` would give at its position, for any chunking.

    Make one with :func:`default_rng`. Successive draws advance the stream as the same
    sequence of draws on ``accelpy.random.default_rng(seed)`` does."""

    def __init__(self, seed=None):
        self._key = key_of(seed_sequence(seed))
        self._offset = 0

    def _array(self, draw, size, chunks, device):
        whole = _shape(size)
        base = self._offset
        self._offset += -(-math.prod(whole) // draw.per_block)
        chunks = da.core.normalize_chunks(chunks, whole, dtype=draw.dtype)
        meta = _core.empty((0,) * len(whole), dtype=draw.dtype, device=device or "cpu")
        return da.map_blocks(_chunk, draw, self._key, base, whole, device, chunks=chunks,
                             dtype=draw.dtype, meta=meta)

    def random(self, size, dtype=np.float64, *, chunks="auto", device=None):
        """Uniform floats in [0, 1), as ``accelpy.random.Generator.random``."""
        return self._array(_Draw("random", dtype), size, chunks, device)

    def uniform(self, low=0.0, high=1.0, size=None, *, dtype=np.float64, chunks="auto",
                device=None):
        return (low + (high - low) * self.random(size, dtype, chunks=chunks, device=device)
                ).astype(dtype, copy=False)

    def standard_normal(self, size, dtype=np.float64, *, chunks="auto", device=None):
        return self._array(_Draw("standard_normal", dtype), size, chunks, device)

    def normal(self, loc=0.0, scale=1.0, size=None, *, dtype=np.float64, chunks="auto",
               device=None):
        if np.any(np.asarray(scale) < 0):
            raise ValueError("normal: scale < 0")
        z = self.standard_normal(size, dtype, chunks=chunks, device=device)
        return (loc + scale * z).astype(dtype, copy=False)

    def standard_exponential(self, size, dtype=np.float64, *, chunks="auto", device=None):
        return self._array(_Draw("standard_exponential", dtype), size, chunks, device)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False, *,
                 chunks="auto", device=None):
        """Integers in [low, high), as ``accelpy.random.Generator.integers``."""
        if high is None:
            low, high = 0, low
        draw = _Draw("integers", dtype, (int(low), int(high), bool(endpoint)))
        return self._array(draw, size, chunks, device)


def default_rng(seed=None):
    """A :class:`ChunkedGenerator` seeded as ``accelpy.random.default_rng(seed)``."""
    return ChunkedGenerator(seed)
