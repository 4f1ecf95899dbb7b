"""Dask with accelpy chunks: from_array, map_blocks, elementwise chains, reductions and matmul
over chunked arrays compute the same values as NumPy and keep every chunk an accelpy array on
its device; chunks pickle (cluster workers) and report their size. Local schedulers here;
docs/guide/interoperability.md shows a cluster."""

import pickle

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches

da = pytest.importorskip("dask.array", reason="dask is not installed (pip install dask)")
dask = pytest.importorskip("dask")

SCHEDULERS = ["synchronous", "threads"]


def _chunked(rng, device, shape=(12, 10), chunks=(5, 4), dtype=np.float32):
    n = rng.standard_normal(shape).astype(dtype)
    return n, da.from_array(ap.asarray(n, device=device), chunks=chunks)


def _blocks_on(d, device):
    """Every chunk of d, computed: all accelpy arrays on `device`."""
    blocks = dask.compute(*d.to_delayed().ravel(), scheduler="synchronous")
    assert blocks and all(isinstance(b, ap.ndarray) and b.device == device for b in blocks)
    return blocks


def test_from_array_keeps_accelpy_chunks(device, rng):
    n, d = _chunked(rng, device)
    assert isinstance(d._meta, ap.ndarray) and d.chunks == ((5, 5, 2), (4, 4, 2))
    blocks = _blocks_on(d, device)
    assert_matches(blocks[0], n[:5, :4])
    out = d.compute()
    assert isinstance(out, ap.ndarray) and out.device == device
    assert_matches(out, n)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_elementwise_chains(scheduler, device, rng):
    n, d = _chunked(rng, device)
    m, e = _chunked(rng, device)
    for build in (lambda x, y: x * 2 + y, lambda x, y: (x - y) ** 2 / (1 + abs(y)),
                  lambda x, y: da.where(x > 0, da.exp(-x), da.sqrt(abs(y))),
                  lambda x, y: x.T[:, :6] + 1.5, lambda x, y: (x[::2] * y[1::2]).astype("f8")):
        got = build(d, e)
        assert isinstance(got._meta, ap.ndarray)
        _blocks_on(got, device)
        res = got.compute(scheduler=scheduler)
        assert isinstance(res, ap.ndarray) and res.device == device
        assert_matches(res, build(n, m), ulps=8)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
@pytest.mark.parametrize("reduction", ["sum", "prod", "mean", "max", "min", "var", "std", "any"])
def test_reductions(reduction, scheduler, device, rng):
    n, d = _chunked(rng, device, dtype=np.float64)
    for axis in (None, 0, 1):
        got = getattr(d > 0 if reduction == "any" else d, reduction)(axis=axis)
        res = got.compute(scheduler=scheduler)
        assert isinstance(res, ap.ndarray) and res.device == device
        exp = getattr(n > 0 if reduction == "any" else n, reduction)(axis=axis)
        assert_matches(res, exp, rtol=1e-12, atol=1e-12)


def test_map_blocks_and_rechunk(device, rng):
    n, d = _chunked(rng, device)
    got = d.map_blocks(lambda b: ap.sin(b) * b.shape[0], dtype=d.dtype)
    _blocks_on(got, device)
    shapes = [5] * 2 + [2]
    exp = np.concatenate([np.sin(n[i * 5:i * 5 + s]) * s for i, s in enumerate(shapes)])
    assert_matches(got.compute(), exp)
    r = d.rechunk((3, 10)) - 1
    _blocks_on(r, device)
    assert_matches(r.compute(), n - 1)
    c = da.concatenate([d, d[:, :3]], axis=1).sum(axis=1)
    whole = np.concatenate([n, n[:, :3]], axis=1)
    # Summation order differs (per chunk, per device): bound the error by the terms' magnitude.
    atol = 16 * np.finfo(n.dtype).eps * np.abs(whole).sum(axis=1).max()
    assert_matches(c.compute(), whole.sum(axis=1), atol=atol)


def test_matmul(device, rng):
    if not hasattr(ap, "matmul"):
        pytest.skip("accelpy.matmul is not available yet (it comes with the matmul work of "
                    "issue 3); Dask's matmul needs it for the chunks")
    n, d = _chunked(rng, device, shape=(12, 10), chunks=(5, 4), dtype=np.float64)
    m, e = _chunked(rng, device, shape=(10, 7), chunks=(4, 3), dtype=np.float64)
    got = d @ e
    _blocks_on(got, device)
    assert_matches(got.compute(), n @ m, rtol=1e-12, atol=1e-12)


def test_chunks_pickle_and_report_their_size(device, rng):
    n, d = _chunked(rng, device)
    x = ap.asarray(n, device=device)[1:, ::2]
    y = pickle.loads(pickle.dumps(x, protocol=5))
    assert isinstance(y, ap.ndarray) and y.device == device
    assert_matches(y, n[1:, ::2])
    from dask.sizeof import sizeof

    assert x.nbytes <= sizeof(x) <= x.nbytes + 256  # the device bytes, not the handle
    assert dask.base.tokenize(x) != dask.base.tokenize(ap.asarray(n))  # never hashes the data
