"""Dask with accelpy chunks: from_array, map_blocks, elementwise chains, reductions and matmul
over chunked arrays compute the same values as NumPy and keep every chunk an accelpy array on
its device; chunks pickle (cluster workers) and report their size; the accelpy backend's
creation functions give NumPy's chunks, made on the computing process's device (a cluster of CPU
workers under a client on the fake CUDA driver). Local schedulers elsewhere;
docs/guide/interoperability.md shows a cluster."""

import itertools
import pickle

import numpy as np
import pytest
import test_cuda_host_path as fake
from test_cuda_host_path import fake_driver  # noqa: F401 - fixture

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


def _backend(name):
    return dask.config.set({"array.backend": name})


def _same_blocks(make, device):
    """`make()` under the accelpy backend has the NumPy backend's chunks, each block equal to
    NumPy's and an accelpy array on the test's device (made in its task); its meta is 0-size
    (Dask makes a 0-d array's one element)."""
    with _backend("numpy"):
        want = make()
    with _backend("accelpy"):
        got = make()
    assert isinstance(got._meta, ap.ndarray) and (got._meta.size == 0 or got.ndim == 0)
    assert got.chunks == want.chunks and got.dtype == want.dtype
    wanted = dask.compute(*want.to_delayed().ravel(), scheduler="synchronous")
    for b, w in zip(_blocks_on(got, device), wanted, strict=True):
        assert_matches(b, np.asarray(w))
    return got


CREATION_DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.uint8, np.bool_,
                   np.complex64, np.complex128]
CREATION_SHAPES = [((7, 9), (3, 4)), ((10,), 4), ((), ()), ((0, 3), 2), ((5, 0, 2), (2, 1, 1)),
                   ((4, 6), ((1, 3), (6,)))]


@pytest.mark.parametrize("shape,chunks", CREATION_SHAPES)
@pytest.mark.parametrize("dtype", CREATION_DTYPES)
def test_backend_creation_chunks_are_numpys(shape, chunks, dtype, device, rng):
    fill = rng.standard_normal() * 100 if np.dtype(dtype).kind in "fc" else rng.integers(0, 100)
    fill = np.asarray(fill).astype(dtype)[()]
    for make in (lambda: da.ones(shape, chunks=chunks, dtype=dtype),
                 lambda: da.zeros(shape, chunks=chunks, dtype=dtype),
                 lambda: da.full(shape, fill, chunks=chunks, dtype=dtype),
                 lambda: da.full(shape, fill, chunks=chunks)):  # the dtype of fill_value
        _same_blocks(make, device)
    with _backend("accelpy"):
        e = da.empty(shape, chunks=chunks, dtype=dtype)
    blocks = _blocks_on(e, device)
    assert [b.shape for b in blocks] == [tuple(s) for s in itertools.product(*e.chunks)]
    assert all(b.dtype == dtype for b in blocks)


@pytest.mark.parametrize("args,kwargs", [
    ((40,), {"chunks": 7}), ((3, 40, 3), {"chunks": 4}), ((10, -7, -2), {"chunks": 3}),
    ((0.5, 4.0, 0.25), {"chunks": 5}), ((5,), {"chunks": 2, "dtype": "f4"}),
    ((2, 2), {"chunks": 3}), ((1, 30), {"chunks": (5, 20, 4)}), ((2**62, 2**62 + 9, 1), {}),
    ((1e17, 1e17 + 40, 0.5), {"chunks": 16}),  # Dask's guard: arange(0, 40, 0.5) + 1e17
])
def test_backend_arange_chunks_are_numpys(args, kwargs, device):
    got = _same_blocks(lambda: da.arange(*args, **kwargs), device)
    assert_matches(got.compute(), np.arange(*args, dtype=kwargs.get("dtype")))


def test_backend_defaults_and_other_libraries_meta(device):
    with _backend("accelpy"):
        d = da.ones((3, 4), chunks=2)
        assert d.dtype == np.float64 and isinstance(da.ones_like(d).compute(), ap.ndarray)
        # A NumPy meta asks for NumPy chunks, as under Dask's own backend.
        n = da.zeros((5,), chunks=2, meta=np.empty((0,)))
        assert isinstance(n._meta, np.ndarray) and isinstance(n.compute(), np.ndarray)
        r = da.arange(6, chunks=4, like=np.empty(0))
        assert isinstance(r.compute(), np.ndarray)
        with pytest.raises(ValueError, match="fill_value must be scalar"):
            da.full((3,), [1, 2, 3], chunks=2)
        with pytest.raises(TypeError, match="Dask array input not supported"):
            da.ones(da.ones(2, chunks=1), chunks=1)
        # An accelpy fill value travels to the tasks as its value.
        assert_matches(da.full((3,), ap.asarray(2.5), chunks=2).compute(), np.full(3, 2.5))
    assert_matches(d.compute(), np.ones((3, 4)))


# The GPU machine's situation without a GPU: the client's default device is cuda:0 (the fake
# driver) and its CPU workers see that device too. Chunks must be made on each worker's own
# default device (the CPU), not on the client's device that Dask's meta was made on.
CLUSTER_PROGRAM = """
    import dask, dask.array as da
    from dask.distributed import Client
    import accelpy as ap
    import accelpy.distributed as apd

    def devices(x):
        blocks = x.to_delayed().ravel()
        return set(dask.compute(*[dask.delayed(lambda b: str(b.device))(b) for b in blocks]))

    if __name__ == "__main__":
        assert str(ap.get_default_device()) == "cuda:0"
        with apd.LocalCluster(2, device="cpu") as cluster, Client(cluster):
            with dask.config.set({"array.backend": "accelpy"}):
                made = [da.ones((400, 400), chunks=100), da.zeros((7, 9), chunks=(3, 4)),
                        da.full((5, 6), 2.5, chunks=4), da.empty((6,), chunks=4),
                        da.arange(3, 40, 3, chunks=4), da.random.random((6, 5), chunks=3)]
                made.append(da.ones_like(made[1]))
            for x in made:
                assert str(x._meta.device) == "cuda:0" and x._meta.size == 0, x._meta.device
                assert devices(x) == {"cpu"}, (x.name, devices(x))
            # docs/guide/interoperability.md's example
            y = apd.default_rng(0).standard_normal((400, 400), chunks=100)
            total = ((made[0] + y) ** 2).sum().compute()
            assert isinstance(total, ap.ndarray) and total.shape == (), total
        print("ok")
"""


@pytest.mark.skipif(fake.CC is None, reason="no C compiler to build the fake CUDA driver")
def test_cpu_workers_make_chunks_on_their_device_under_a_gpu_client(fake_driver):  # noqa: F811
    pytest.importorskip("distributed", reason="distributed is not installed")
    assert fake.run_fake(fake_driver, CLUSTER_PROGRAM).strip().endswith("ok")
