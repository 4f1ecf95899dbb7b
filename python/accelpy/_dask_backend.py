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

import numpy as np
from dask import config
from dask.array import backends as _backends
from dask.array import dispatch as _dispatch
from dask.utils import Dispatch

from . import random as _random
from ._core import ndarray
from ._creation import asarray, empty
from ._indexing import take
from ._interop import asnumpy
from ._linear_algebra import einsum, tensordot
from ._logic import isnan
from ._manipulation import concatenate
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


def _with_accelpy_meta(name, *args, meta=None, **kwargs):
    import dask.array as da

    # One dimension, not 0-d: Dask takes x[()] of a 0-d meta, which on the CPU is NumPy's scalar.
    meta = empty((0,), dtype=kwargs.get("dtype") or np.float64) if meta is None else meta
    with config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


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
    def ones(*args, **kwargs):
        return _with_accelpy_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_accelpy_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_accelpy_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_accelpy_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        import dask.array as da

        like = empty((0,)) if like is None else like  # not 0-d: see _with_accelpy_meta
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)
