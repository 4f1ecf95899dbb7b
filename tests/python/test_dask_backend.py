"""Dask's array backend "accelpy" (python/accelpy/_dask_backend.py): creation functions make
accelpy chunks, to_backend converts, Dask's per-type lookups use accelpy's functions; and the
serializers of python/accelpy/_dask_serialize.py (host frames, no copy of a CPU chunk)."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches

da = pytest.importorskip("dask.array", reason="dask is not installed (pip install dask)")
dask = pytest.importorskip("dask")
protocol = pytest.importorskip("distributed.protocol")

from accelpy import _dask_serialize  # noqa: E402  (needs distributed)

# accelpy was imported before distributed here: register as accelpy.distributed's import does.
_dask_serialize.register_serializers()


def _accelpy_backend():
    return dask.config.set({"array.backend": "accelpy"})


@pytest.mark.parametrize("make,expect", [
    (lambda: da.ones((7, 9), chunks=(3, 4), dtype="f4"), lambda: np.ones((7, 9), "f4")),
    (lambda: da.zeros((5, 6), chunks=2, dtype="i8"), lambda: np.zeros((5, 6), "i8")),
    (lambda: da.full((4, 5), 2.5, chunks=3), lambda: np.full((4, 5), 2.5)),
    (lambda: da.arange(3, 40, 3, chunks=4), lambda: np.arange(3, 40, 3)),
    (lambda: da.ones((0, 3), chunks=2), lambda: np.ones((0, 3))),
])
def test_creation_makes_accelpy_chunks(make, expect, device):
    with _accelpy_backend():
        d = make()
    assert isinstance(d._meta, ap.ndarray)
    out = (d * 2 + 1).compute()
    assert isinstance(out, ap.ndarray) and out.device == device
    assert_matches(out, expect() * 2 + 1)


def test_empty_has_the_shape_and_dtype(device):
    with _accelpy_backend():
        d = da.empty((6, 4), chunks=(4, 4), dtype="f8")
    out = d.compute()
    assert isinstance(out, ap.ndarray) and out.shape == (6, 4) and out.dtype == np.float64


def test_to_backend_converts_numpy_chunks(rng, device):
    n = rng.standard_normal((9, 5))
    d = da.from_array(n, chunks=(4, 5)).to_backend("accelpy")
    assert isinstance(d._meta, ap.ndarray)
    out = d.sum(axis=0).compute()
    assert isinstance(out, ap.ndarray)
    assert_matches(out, n.sum(axis=0), rtol=1e-12, atol=1e-12)
    back = d.to_backend("numpy").compute()
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(back, n)


def test_lookups_dispatch_to_accelpy(rng, device):
    n = rng.standard_normal((8, 6))
    d = da.from_array(ap.asarray(n), chunks=(3, 4))
    assert_matches(da.concatenate([d, d], axis=0).compute(), np.concatenate([n, n]))
    assert_matches(d[[5, 0, 7]].compute(), n[[5, 0, 7]])
    assert_matches(da.tensordot(d, d.T, axes=1).compute(), n @ n.T, rtol=1e-12, atol=1e-12)
    assert_matches(da.einsum("ij,ij->i", d, d).compute(), np.einsum("ij,ij->i", n, n),
                   rtol=1e-12, atol=1e-12)
    m = np.where(n > 0.5, np.nan, n)
    dm = da.from_array(ap.asarray(m), chunks=(3, 4))
    assert_matches(da.nanmean(dm, axis=0).compute(), np.nanmean(m, axis=0), rtol=1e-12,
                   atol=1e-12)


@pytest.mark.parametrize("dtype", ["f4", "f8", "i1", "u8", "c16", "?"])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4)])
def test_host_frames_roundtrip(dtype, shape, rng, device):
    n = (rng.standard_normal(shape) * 50).astype(dtype)
    x = ap.asarray(n)
    header, frames = protocol.serialize(x, serializers=("dask",))
    assert header["serializer"] == "dask"
    y = protocol.deserialize(header, frames)
    assert isinstance(y, ap.ndarray) and y.device == device
    assert_matches(y, n, rtol=0, atol=0)


def test_host_frame_of_a_cpu_chunk_is_its_memory(rng):
    x = ap.asarray(rng.standard_normal((64, 32)), device="cpu")
    _, frames = _dask_serialize.serialize_host(x)
    assert np.shares_memory(np.frombuffer(frames[0], np.float64), np.asarray(x))


def test_non_contiguous_chunks_travel_in_c_order(rng, device):
    n = rng.standard_normal((6, 8))
    x = ap.asarray(n)[::-2, 1::3].T
    header, frames = protocol.serialize(x, serializers=("dask",))
    assert_matches(protocol.deserialize(header, frames), n[::-2, 1::3].T, rtol=0, atol=0)


@pytest.mark.parametrize("sent_from", ["cpu", "cuda"])
@pytest.mark.parametrize("receiver", ["cpu", "cuda"])
def test_host_frames_land_on_the_receivers_default_device(rng, sent_from, receiver):
    # A CPU worker on a machine with GPUs gets what the client made on its GPU (a creation
    # function's prototype): it must land beside the worker's own chunks, and the reverse.
    if receiver == "cuda" and not ap.cuda.is_available():
        pytest.skip("needs a GPU")
    n = rng.standard_normal((3, 4))
    header, frames = _dask_serialize.serialize_host(ap.asarray(n, device="cpu"))
    before = ap.get_default_device()
    ap.set_default_device(receiver)
    try:
        y = _dask_serialize.deserialize_host(dict(header, device=sent_from), frames)
    finally:
        ap.set_default_device(before)
    assert y.device.type == receiver
    assert_matches(y, n, rtol=0, atol=0)


def test_cuda_family_refuses_cpu_arrays():
    with pytest.raises(TypeError, match="CUDA arrays"):
        _dask_serialize.serialize_device(ap.ones(3, device="cpu"))


@pytest.mark.cuda
def test_cuda_family_roundtrip_stays_on_the_gpu(rng):
    n = rng.standard_normal((5, 7)).astype(np.float32)
    x = ap.asarray(n, device="cuda")
    header, frames = _dask_serialize.serialize_device(x)
    assert hasattr(frames[0], "__cuda_array_interface__")
    y = _dask_serialize.deserialize_device(header, frames)
    assert y.device.type == "cuda"
    assert_matches(y, n, rtol=0, atol=0)


def test_dask_random_makes_accelpy_chunks(device):
    with _accelpy_backend():
        legacy = da.random.RandomState(5).standard_normal((20, 30), chunks=(7, 11))
        again = da.random.RandomState(5).standard_normal((20, 30), chunks=(7, 11))
        new = da.random.default_rng(5).random((20, 30), chunks=(7, 11))
    for d in (legacy, new):
        assert isinstance(d._meta, ap.ndarray)
        out = d.compute()
        assert isinstance(out, ap.ndarray) and out.device == device and out.shape == (20, 30)
    assert_matches(legacy.compute(), again.compute(), rtol=0, atol=0)  # reproducible per seed
    u = ap.asnumpy(new.compute())
    assert 0 <= u.min() and u.max() < 1 and 0.4 < u.mean() < 0.6
