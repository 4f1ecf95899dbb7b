"""accelpy.distributed: random Dask arrays independent of the chunking, the worker layout of
LocalCluster, and a real cluster of two worker processes computing with accelpy chunks
(elementwise chains, reductions over every axis, matmul, rechunk, map_overlap, map_blocks,
sorting, random numbers, and a worker that dies mid-computation)."""

import os

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches

da = pytest.importorskip("dask.array", reason="dask is not installed (pip install dask)")
distributed = pytest.importorskip("distributed")

import accelpy.distributed as apd  # noqa: E402  (needs distributed)

CHUNKINGS = ["auto", (3, 20), (7, 2), ((1, 4, 5), (2, 8, 1, 9)), (10, 1)]


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("method,dtype", [("random", "f8"), ("random", "f4"),
                                          ("standard_normal", "f8"),
                                          ("standard_normal", "f4"),
                                          ("standard_exponential", "f4")])
def test_random_is_independent_of_the_chunking(method, dtype, chunks, device):
    whole = getattr(ap.random.default_rng(7), method)((10, 20), dtype=dtype)
    d = getattr(apd.default_rng(7), method)((10, 20), dtype=dtype, chunks=chunks)
    assert_matches(d.compute(), whole, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["i8", "i4", "u1"])
def test_random_integers_are_independent_of_the_chunking(dtype, device):
    whole = ap.random.default_rng(3).integers(-5 if dtype[0] == "i" else 0, 100, (9, 11),
                                              dtype=dtype)
    for chunks in ((2, 11), (9, 3), (4, 5)):
        d = apd.default_rng(3).integers(-5 if dtype[0] == "i" else 0, 100, (9, 11),
                                        dtype=dtype, chunks=chunks)
        assert_matches(d.compute(), whole, rtol=0, atol=0)


def test_random_stream_advances_like_the_generator(device):
    g, c = ap.random.default_rng(11), apd.default_rng(11)
    for shape in ((5,), (3, 7), (2, 3, 4)):
        assert_matches(c.random(shape, chunks=2).compute(), g.random(shape), rtol=0, atol=0)
    assert_matches(c.normal(1.0, 2.0, (6, 5), chunks=(4, 2)).compute(),
                   g.normal(1.0, 2.0, (6, 5)), rtol=0, atol=0)


def test_random_narrow_chunks_of_a_wide_array(device):
    # Runs of 3 positions in rows of 40: drawn run by run, not as a covering draw.
    whole = ap.random.default_rng(5).random((4, 6, 40))
    d = apd.default_rng(5).random((4, 6, 40), chunks=(3, 4, 3))
    assert_matches(d.compute(), whole, rtol=0, atol=0)


def test_worker_specs_cpu():
    specs = apd.worker_specs(3, device="cpu", threads=1)
    assert len(specs) == 3
    for s in specs.values():
        assert s["options"]["nthreads"] == 1
        assert s["options"]["env"]["ACCELPY_DEFAULT_DEVICE"] == "cpu"
    with pytest.raises(ValueError, match="n_workers"):
        apd.worker_specs(0, device="cpu")
    with pytest.raises(ValueError, match="device"):
        apd.worker_specs(1, device="tpu")


def test_worker_specs_one_gpu_each(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,5")
    specs = apd.worker_specs(device="cuda")
    envs = [s["options"]["env"] for s in specs.values()]
    assert [e["CUDA_VISIBLE_DEVICES"] for e in envs] == ["2", "5"]
    assert all(e["ACCELPY_DEFAULT_DEVICE"] == "cuda:0" for e in envs)
    with pytest.raises(ValueError, match="2 GPU"):
        apd.worker_specs(3, device="cuda")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    with pytest.raises(RuntimeError, match="no GPU"):
        apd.worker_specs(device="cuda")


@pytest.fixture(scope="module")
def client():
    """Two worker processes of one thread each, on the CPU (the GPU run of scripts/gpu-check
    uses one per GPU when there are several)."""
    with apd.LocalCluster(2, device="cpu", threads=1) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def _cluster_array(rng, shape, chunks, dtype=np.float64):
    n = rng.standard_normal(shape).astype(dtype)
    return n, da.from_array(ap.asarray(n, device="cpu"), chunks=chunks)


def _chunk_info(b):
    return type(b).__module__.split(".")[0], str(b.device), os.getpid()


def test_cluster_workers_hold_accelpy_chunks(client, rng):
    _, d = _cluster_array(rng, (12, 10), (5, 4))
    futures = distributed.futures_of(client.persist(d * 2))
    infos = client.gather([client.submit(_chunk_info, f) for f in futures])
    assert {(m, dev) for m, dev, _ in infos} == {("accelpy", "cpu")}
    pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids
    assert {pid for _, _, pid in infos} <= pids


def test_cluster_elementwise_and_reductions(client, rng):
    n, d = _cluster_array(rng, (40, 30), (16, 7))
    m, e = _cluster_array(rng, (40, 30), (16, 7))
    chain = ((d - e) ** 2 / (1 + abs(e)) + da.exp(-d)).astype("f4")
    got = client.compute(chain).result()
    assert isinstance(got, ap.ndarray)
    assert_matches(got, ((n - m) ** 2 / (1 + abs(m)) + np.exp(-n)).astype("f4"), ulps=8)
    for axis in (None, 0, 1, (0, 1)):
        for name in ("sum", "max", "mean", "std"):
            res = client.compute(getattr(d, name)(axis=axis)).result()
            exp = getattr(n, name)(axis=axis)
            assert_matches(res, exp, rtol=1e-12, atol=1e-12)


def test_cluster_matmul_and_rechunk(client, rng):
    n, d = _cluster_array(rng, (30, 20), (8, 6))
    m, e = _cluster_array(rng, (20, 25), (6, 9))
    assert_matches(client.compute(d @ e).result(), n @ m, rtol=1e-12, atol=1e-12)
    r = d.rechunk((30, 5)) * 3
    assert_matches(client.compute(r).result(), n * 3)


def test_cluster_map_overlap_stencil(client, rng):
    n, d = _cluster_array(rng, (48, 36), (16, 12))

    def step(b):
        return b[1:-1, 1:-1] + 0.1 * (b[:-2, 1:-1] + b[2:, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:]
                                      - 4 * b[1:-1, 1:-1])

    def padded_step(b):
        out = b.copy()
        out[1:-1, 1:-1] = step(b)
        return out

    got = client.compute(d.map_overlap(padded_step, depth=1, boundary="none")).result()
    exp = n.copy()
    exp[1:-1, 1:-1] = step(n)
    assert_matches(got, exp, rtol=1e-12, atol=1e-12)


def test_cluster_map_blocks_and_sorting(client, rng):
    n, d = _cluster_array(rng, (20, 30), (5, 30))
    got = client.compute(d.map_blocks(ap.sort, axis=1, dtype=d.dtype)).result()
    assert_matches(got, np.sort(n, axis=1), rtol=0, atol=0)
    flat = d.ravel()
    top = client.compute(da.topk(flat, 7)).result()
    assert_matches(top, np.sort(n.ravel())[::-1][:7], rtol=0, atol=0)
    arg = client.compute(da.argtopk(flat, -5)).result()
    assert_matches(ap.asarray(n.ravel())[arg], np.sort(n.ravel())[:5], rtol=0, atol=0)


def test_cluster_random_is_the_same_on_any_chunking(client):
    whole = ap.random.default_rng(21).standard_normal((30, 40), dtype="f4")
    for chunks in ((7, 40), (30, 3), (11, 13)):
        d = apd.default_rng(21).standard_normal((30, 40), dtype="f4", chunks=chunks)
        assert_matches(client.compute(d).result(), whole, rtol=0, atol=0)


def test_cluster_survives_a_worker_dying(client, rng, tmp_path):
    flag = str(tmp_path / "died-once")
    n, d = _cluster_array(rng, (16, 8), (4, 8))

    def die_once(b):
        if not os.path.exists(flag):
            open(flag, "w").close()
            os._exit(1)  # the worker process dies mid-computation; its nanny restarts it
        return b * 2

    # meta given: Dask would otherwise call die_once here, in the client, to infer it.
    got = client.compute(d.map_blocks(die_once, dtype=d.dtype, meta=ap.empty((0, 0))))
    got = got.result(timeout=120)
    assert os.path.exists(flag)
    assert_matches(got, n * 2)
    client.wait_for_workers(2, timeout=60)
