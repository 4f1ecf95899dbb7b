"""CuPy's plumbing names (get_array_module, cuda.Device, Stream.null, cuda.runtime, the memory
pools, asnumpy(stream=), fuse, synchronize), against CuPy's documented behaviour: on the GPU
where one is present (marked `cuda`), and without one, where they must import and either work
(Stream.null.synchronize, synchronize, the pools' counts) or raise CUDARuntimeError as CuPy."""

import numpy as np
import pytest

import accelpy as ap
from accelpy import cuda

NO_GPU = not cuda.is_available()


def test_get_array_module(device, rng):
    x = ap.asarray(rng.standard_normal(4))
    assert ap.get_array_module(x) is ap
    assert ap.get_array_module(np.ones(2), x) is ap
    assert ap.get_array_module(np.ones(2)) is np
    assert ap.get_array_module() is np
    assert ap.get_array_module(1.0, [1, 2]) is np


def test_synchronize_works_on_every_device(device, rng):
    x = ap.asarray(rng.standard_normal(8)) * 2
    ap.eval(x)
    ap.synchronize()
    cuda.Stream.null.synchronize()
    assert cuda.Stream.null.query()
    ap.synchronize("cpu")


def test_fuse_with_and_without_arguments(device, rng):
    a = rng.standard_normal(16)

    @ap.fuse
    def f(x, y):
        return x * y + 1

    @ap.fuse()
    def g(x):
        return ap.sqrt(x * x)

    @ap.fuse(kernel_name="squared_diff")
    def h(x, y):
        return (x - y) * (x - y)

    x = ap.asarray(a)
    np.testing.assert_allclose(ap.asnumpy(f(x, x)), a * a + 1)
    np.testing.assert_allclose(ap.asnumpy(g(x)), np.abs(a))
    np.testing.assert_allclose(ap.asnumpy(h(x, 1.0)), (a - 1) ** 2)
    assert f(2.0, 3.0) == 7.0  # plain Python numbers too, as CuPy's fused functions take them
    with pytest.raises(TypeError, match="kernel_name"):
        ap.fuse(kernel_name=3)
    with pytest.raises(TypeError, match="fuse"):
        ap.fuse(1, 2)


def test_asnumpy_stream_order_out(device, rng):
    a = rng.standard_normal((3, 4)).astype(np.float32)
    x = ap.asarray(a)
    stream = cuda.Stream() if device.type == "cuda" else None
    host = ap.asnumpy(x, stream=stream)
    np.testing.assert_array_equal(host, a)
    f = ap.asnumpy(x, order="F")
    assert f.flags.f_contiguous and np.array_equal(f, a)
    out = np.empty((3, 4), np.float32)
    assert ap.asnumpy(x, out=out) is out and np.array_equal(out, a)
    assert ap.asnumpy([1, 2]).tolist() == [1, 2]
    with pytest.raises(ValueError, match="order"):
        ap.asnumpy(x, order="X")
    with pytest.raises(ValueError, match="out has shape"):
        ap.asnumpy(x, out=np.empty(3, np.float32))
    with pytest.raises(TypeError, match="out must be a NumPy array"):
        ap.asnumpy(x, out=[0] * 12)
    with pytest.raises(TypeError, match="stream"):
        ap.asnumpy(x, stream=5)


def test_ndarray_get_set(device, rng):
    a = rng.standard_normal((2, 5)).astype(np.float32)
    x = ap.zeros((2, 5), dtype=np.float32)
    stream = cuda.Stream() if device.type == "cuda" else None
    x.set(a, stream=stream)
    np.testing.assert_array_equal(x.get(), a)
    out = np.empty_like(a)
    assert x.get(out=out) is out and np.array_equal(out, a)
    assert x.get(order="F").flags.f_contiguous
    with pytest.raises(ValueError, match="arr has shape"):
        x.set(a[:1])
    with pytest.raises(TypeError, match="arr has dtype"):
        x.set(a.astype(np.float64))
    with pytest.raises(TypeError, match="arr must be a NumPy array"):
        x.set([1, 2])


def test_memory_pool_api(device, rng):
    pool = ap.get_default_memory_pool()
    assert pool is ap.get_default_memory_pool() and isinstance(pool, cuda.MemoryPool)
    pinned = ap.get_default_pinned_memory_pool()
    assert isinstance(pinned, cuda.PinnedMemoryPool)
    for p in (pool, pinned):
        for n in (p.used_bytes(), p.total_bytes(), p.free_bytes(), p.n_free_blocks()):
            assert isinstance(n, int) and n >= 0
        p.free_all_blocks()
    assert pool.total_bytes() >= pool.used_bytes()
    with pytest.raises(ValueError, match="size or fraction"):
        pool.set_limit(size=10, fraction=0.5)
    with pytest.raises(ValueError, match="fraction"):
        pool.set_limit(fraction=2.0)
    with pytest.raises(ValueError, match="size"):
        pool.set_limit(size=-1)
    cuda.set_allocator(cuda.MemoryPool().malloc)  # CuPy programs do this: accepted, a no-op
    cuda.set_allocator(None)
    cuda.set_pinned_memory_allocator(pinned.malloc)
    with pytest.raises(NotImplementedError, match="set_allocator"):
        cuda.set_allocator(lambda n: 0)
    with pytest.raises(NotImplementedError, match="set_pinned_memory_allocator"):
        cuda.set_pinned_memory_allocator(pool.malloc)
    with pytest.raises(NotImplementedError, match="allocates its arrays itself"):
        pool.malloc(16)


@pytest.mark.skipif(not NO_GPU, reason="a GPU is present")
def test_without_gpu_cupy_names_say_why():
    assert ap.get_default_memory_pool().used_bytes() == 0
    assert ap.get_default_memory_pool().get_limit() == 0
    d = cuda.Device(0)  # constructing touches no GPU, as CuPy's
    assert d.id == 0 and int(d) == 0 and repr(d) == "<CUDA Device 0>"
    assert cuda.Device() == d and cuda.Device(d) == d
    for call in (d.use, d.synchronize, lambda: d.compute_capability, lambda: d.mem_info,
                 d.__enter__, cuda.runtime.getDeviceCount, cuda.runtime.deviceSynchronize,
                 cuda.runtime.memGetInfo, lambda: cuda.runtime.getDeviceProperties(0),
                 cuda.get_current_stream, lambda: cuda.get_current_stream(0)):
        with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorNoDevice") as e:
            call()
        assert e.value.status == 100 and isinstance(e.value, RuntimeError)
    assert ap.get_default_device() == ap.device("cpu")
    with pytest.raises(cuda.CUDARuntimeError):
        with cuda.Stream.null:
            pass


def test_device_argument_checks():
    with pytest.raises(TypeError, match="device must be an int"):
        cuda.Device("cuda:0")
    with pytest.raises(TypeError, match="device must be an int"):
        cuda.Device(True)
    with pytest.raises(ValueError, match="device must not be negative"):
        cuda.Device(-1)
    assert cuda.Device(np.int64(1)).id == 1
    assert cuda.runtime.is_hip is False


@pytest.mark.cuda
def test_device_on_gpu():
    n = cuda.runtime.getDeviceCount()
    assert n == cuda.device_count() >= 1
    d = cuda.Device(0)
    props = cuda.runtime.getDeviceProperties(0)
    for key in ("name", "totalGlobalMem", "multiProcessorCount", "major", "minor", "warpSize",
                "l2CacheSize", "maxThreadsPerBlock"):
        assert key in props
    assert isinstance(props["name"], bytes) and props["totalGlobalMem"] > 0
    assert d.compute_capability == f"{props['major']}{props['minor']}"
    free, total = d.mem_info
    assert 0 < free <= total == props["totalGlobalMem"]
    assert cuda.runtime.memGetInfo()[1] == total
    before = ap.get_default_device()
    with cuda.Device(0) as dev:
        assert dev is not None and ap.get_default_device() == ap.device("cuda:0")
        x = ap.ones(10)
        assert x.device == ap.device("cuda:0")
        dev.synchronize()
    assert ap.get_default_device() == before
    with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorInvalidDevice"):
        cuda.Device(n).use()
    with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorInvalidDevice"):
        cuda.runtime.getDeviceProperties(n)
    cuda.runtime.deviceSynchronize()
    assert cuda.runtime.driverGetVersion() > 0
    with cuda.Stream.null as s:
        assert s == cuda.default_stream(0)
    assert cuda.get_current_stream() == cuda.current_stream("cuda:0")
    with cuda.Stream() as s:
        assert cuda.get_current_stream(0) == s
    with pytest.raises(cuda.CUDARuntimeError, match="cudaErrorInvalidDevice"):
        cuda.get_current_stream(n)


@pytest.mark.cuda
def test_memory_pool_follows_the_allocator():
    with ap.device("cuda:0"):
        pool = ap.get_default_memory_pool()
        pool.free_all_blocks()
        used = pool.used_bytes()
        x = ap.zeros(1 << 20, dtype=np.float32)
        ap.eval(x)
        assert pool.used_bytes() >= used + (4 << 20)
        assert pool.total_bytes() >= pool.used_bytes()
        small = [ap.zeros(16) for _ in range(8)]
        ap.eval(*small)
        del small
        cuda.Stream.null.synchronize()
        assert pool.n_free_blocks() >= 1
        pool.free_all_blocks()
        assert pool.n_free_blocks() == 0
        del x
        pool.set_limit(size=1 << 30)
        assert pool.get_limit() == 1 << 30
        pool.set_limit(fraction=0.5)
        assert pool.get_limit() == cuda.Device(0).mem_info[1] // 2
        pool.set_limit(size=0)
        assert pool.get_limit() == 0
