"""Dask's array backend named ``accelpy`` (the entry point ``dask.array.backends``, as CuPy's).

    import dask, dask.array as da
    with dask.config.set({"array.backend": "accelpy"}):
        x = da.ones((40_000, 40_000), chunks=10_000)   # accelpy chunks on each worker's device
    y = (x * 2 + 1).sum().compute()                     # an accelpy array

Dask finds this class through the package's entry point; nothing here runs until Dask selects
the backend (or ``accelpy.distributed`` is imported), so ``import accelpy`` never imports Dask.
The chunks of ``da.ones``, ``zeros``, ``empty``, ``full``, ``arange`` and ``da.random`` are made
on the default device of the process that computes them: each worker's own GPU, or the CPU.
"""

from functools import partial

import numpy as np
from dask import config
from dask.array import backends as _backends
from dask.array import dispatch as _dispatch
from dask.array.core import Array, normalize_chunks
from dask.base import tokenize
from dask.blockwise import blockwise as core_blockwise
from dask.layers import ArrayChunkShapeDep
from dask.utils import Dispatch

from . import random as _random
from ._core import ndarray
from ._creation import arange, asarray, empty, full
from ._indexing import take
from ._interop import asnumpy
from ._linear_algebra import einsum, tensordot
from ._logic import isnan
from ._manipulation import broadcast_to, concatenate
from ._math import divide
from ._math import sum as _sum

# What ``Array.to_backend("accelpy")`` applies to each chunk.
to_accelpy_dispatch = Dispatch("to_accelpy")


@to_accelpy_dispatch.register(object)
def _to_accelpy(data, **kwargs):
    return asarray(data, **kwargs)


def _to_numpy(data, **kwargs):
    return asnumpy(data)


def _numel(x, **kwargs):
    # Dask's own helper for arrays whose counts stay of the array's type (CuPy's choice).
    return _backends._numel_arraylike(x, **kwargs)


def _nannumel(x, **kwargs):
    return _sum(~isnan(x), **kwargs)


def _divide(a, b, dtype=None):
    # Dask's mean passes the result dtype (NumPy's ufunc keyword).
    q = divide(a, b)
    return q if dtype is None else q.astype(dtype, copy=False)


def _percentile(a, q, method="linear"):
    return _backends.percentile(a, q, method)


_registered = False


def register_dispatch():
    """Tells Dask's per-type lookups (concatenate, take, tensordot, einsum, empty, numel,
    percentile, to_numpy) to use accelpy's functions for accelpy chunks. Idempotent."""
    global _registered
    if _registered:
        return
    t = ndarray
    _dispatch.concatenate_lookup.register(t, concatenate)
    _dispatch.take_lookup.register(t, take)
    _dispatch.tensordot_lookup.register(t, tensordot)
    _dispatch.einsum_lookup.register(t, einsum)
    _dispatch.empty_lookup.register(t, empty)
    _dispatch.divide_lookup.register(t, _divide)
    _dispatch.numel_lookup.register(t, _numel)
    _dispatch.nannumel_lookup.register(t, _nannumel)
    _dispatch.percentile_lookup.register(t, _percentile)
    _dispatch.to_numpy_dispatch.register(t, _to_numpy)
    _registered = True


def _with_numpy_backend(func_name, *args, **kwargs):
    import dask.array as da

    with config.set({"array.backend": "numpy"}):
        return getattr(da, func_name)(*args, **kwargs)


def _meta(dtype, ndim):
    # 0-size, on the client's default device: only Dask's type inference on the client reads it,
    # no task makes a chunk from it. Never 0-d: Dask takes x[()] of a 0-d meta (NumPy's scalar).
    return empty((0,) * max(ndim, 1), dtype=dtype)


def _filled_chunk(shape, fill_value, dtype):
    # Runs in the task, so the chunk is on the default device of the process that computes it
    # (a worker's own GPU, or the CPU), whatever device the client made the graph on. Dask's
    # broadcast trick: one element seen at every position (Dask never writes into a chunk).
    one = empty((), dtype=dtype) if fill_value is None else full((), fill_value, dtype=dtype)
    return broadcast_to(one, shape)


def _arange_chunk(start, stop, step, length, dtype):
    return arange(start, stop, step, dtype=dtype)[:length]  # as dask.array.chunk.arange


def _filled(kind, shape, fill_value, dtype, chunks="auto", name=None, meta=None, order="C"):
    """da.ones/zeros/empty/full (`kind`) with accelpy chunks made in their tasks
    (dask.array.wrap's graph with a function of accelpy's)."""
    if meta is not None and not isinstance(meta, ndarray):  # another library's chunks asked for
        extra = (fill_value,) if kind == "full" else ()
        return _with_numpy_backend(kind, shape, *extra, dtype=dtype, chunks=chunks, name=name,
                                   meta=meta, order=order)
    if isinstance(shape, Array):
        raise TypeError("Dask array input not supported. "
                        "Please use tuple, list, or a 1D numpy array instead.")
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', got {order!r}")
    shape = tuple(int(n) for n in (shape.tolist() if isinstance(shape, np.ndarray) else
                                   shape if isinstance(shape, (tuple, list)) else (shape,)))
    if isinstance(fill_value, ndarray):  # a task carries its value to the worker, not the array
        fill_value = asnumpy(fill_value)[()]
    dtype = np.asarray(fill_value).dtype if dtype is None else np.dtype(dtype)
    chunks = normalize_chunks(chunks, shape, dtype=dtype)
    func = partial(_filled_chunk, fill_value=fill_value, dtype=dtype)
    name = name or f"accelpy-{kind}-" + tokenize(shape, chunks, fill_value, dtype)
    ind = tuple(range(len(shape)))
    graph = core_blockwise(func, name, ind, ArrayChunkShapeDep(chunks), ind, numblocks={})
    return Array(graph, name, chunks, dtype=dtype, meta=_meta(dtype, len(shape)))


def _arange(start=None, /, stop=None, step=1, *, chunks="auto", like=None, dtype=None):
    """da.arange with accelpy chunks made in their tasks (dask.array.creation.arange's graph)."""
    if like is not None and not isinstance(like, ndarray):
        return _with_numpy_backend("arange", start, stop, step, chunks=chunks, like=like,
                                   dtype=dtype)
    if start is None and stop is None:
        raise TypeError("arange() requires stop to be specified.")
    if start is None:
        start = 0
    elif stop is None:
        start, stop = 0, start
    # Dask's guard against losing precision in the chunks' bounds for a huge start.
    if start != 0 and not np.isclose(start + step - start, step, atol=0):
        return _arange(0, stop - start, step, chunks=chunks, like=like, dtype=dtype) + start
    num = int(max(np.ceil((stop - start) / step), 0))
    if dtype is None:
        dtype = np.arange(type(start)(0), type(stop)(0), step).dtype
    dtype = np.dtype(dtype)
    chunks = normalize_chunks(chunks, (num,), dtype=dtype)
    name = "accelpy-arange-" + tokenize((start, stop, step, chunks, dtype))
    dsk, done = {}, 0
    for i, n in enumerate(chunks[0]):
        dsk[(name, i)] = (_arange_chunk, start + done * step, start + (done + n) * step, step, n,
                          dtype)
        done += n
    return Array(dsk, name, chunks, dtype=dtype, meta=_meta(dtype, 1))


class AccelpyBackendEntrypoint(_backends.ArrayBackendEntrypoint):
    """The ``accelpy`` array backend of Dask (``dask.config.set({"array.backend": "accelpy"})``)."""

    def __init__(self):
        register_dispatch()

    @classmethod
    def to_backend_dispatch(cls):
        return to_accelpy_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, ndarray):
            return data
        return data.map_blocks(to_accelpy_dispatch, **kwargs)

    @property
    def RandomState(self):
        return _random.RandomState

    @property
    def default_bit_generator(self):
        return _random.Philox

    @staticmethod
    def ones(shape, *, dtype=None, meta=None, **kwargs):
        return _filled("ones", shape, 1, "f8" if dtype is None else dtype, meta=meta, **kwargs)

    @staticmethod
    def zeros(shape, *, dtype=None, meta=None, **kwargs):
        return _filled("zeros", shape, 0, "f8" if dtype is None else dtype, meta=meta, **kwargs)

    @staticmethod
    def empty(shape, *, dtype=None, meta=None, **kwargs):
        return _filled("empty", shape, None, "f8" if dtype is None else dtype, meta=meta, **kwargs)

    @staticmethod
    def full(shape, fill_value, *, dtype=None, meta=None, **kwargs):
        # da.full has set dtype from fill_value when none was given (dask.array.wrap.full).
        return _filled("full", shape, fill_value, dtype, meta=meta, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        return _arange(*args, like=like, **kwargs)
