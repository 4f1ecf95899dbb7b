"""CuPy's plumbing on the CUDA host path, without a GPU: the fake driver
(bench/fake_cuda_driver.c, one "device" whose memory is host memory) stands in for libcuda, so
cuda.Device, cuda.runtime and the memory pool run their CUDA branches here. Values the fake
driver makes up (names, sizes) are only checked for their form."""

from test_cuda_host_path import fake_driver, pytestmark, run_fake  # noqa: F401 - fixture

PROGRAM = """
    import numpy as np, accelpy as ap
    from accelpy import cuda
    assert cuda.runtime.getDeviceCount() == 1 and cuda.runtime.getDevice() == 0
    props = cuda.runtime.getDeviceProperties(0)
    assert isinstance(props["name"], bytes) and props["totalGlobalMem"] > 0
    assert {"multiProcessorCount", "major", "minor", "warpSize"} <= set(props)
    d = cuda.Device(0)
    assert d.compute_capability == f"{props['major']}{props['minor']}"
    free, total = d.mem_info
    assert 0 < free <= total and cuda.runtime.memGetInfo() == (free, total)
    ap.set_default_device("cpu")
    with cuda.Device(0) as dev:
        assert ap.get_default_device() == ap.device("cuda:0") and ap.ones(3).device.type == "cuda"
        dev.synchronize()
    assert ap.get_default_device() == ap.device("cpu")
    cuda.Device(0).use()
    assert ap.get_default_device() == ap.device("cuda:0")
    try:
        cuda.Device(1).use()
        raise SystemExit("Device(1).use() did not raise")
    except cuda.CUDARuntimeError as e:
        assert "cudaErrorInvalidDevice" in str(e) and e.status == 101
    pool = ap.get_default_memory_pool()
    pool.free_all_blocks()
    base = pool.used_bytes()
    x = ap.zeros(1 << 16, dtype=np.float32)
    ap.eval(x)
    assert pool.used_bytes() >= base + (1 << 18), (pool.used_bytes(), base)
    small = [ap.zeros(8) + i for i in range(4)]
    ap.eval(*small)
    del small
    assert pool.n_free_blocks() >= 1, pool.n_free_blocks()
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0
    pool.set_limit(size=1 << 30)
    assert pool.get_limit() == 1 << 30
    pool.set_limit(fraction=0.25)
    assert pool.get_limit() == int(0.25 * total)
    pool.set_limit(size=0)
    cuda.Stream.null.synchronize()
    ap.synchronize()
    cuda.runtime.deviceSynchronize()
    with cuda.Stream.null as s:
        assert s == cuda.default_stream(0)
    start = cuda.Stream.null.record()
    end = cuda.Stream.null.record()
    end.synchronize()
    cuda.Stream.null.wait_event(start)
    assert isinstance(cuda.get_elapsed_time(start, end), float)
    s = cuda.Stream()
    assert s.use() is s and cuda.get_current_stream() == s
    assert cuda.Stream.null.use() == cuda.default_stream(0)
    assert cuda.get_current_stream() == cuda.default_stream(0)
    y = ap.asnumpy(x, stream=s)
    assert y.shape == x.shape
    mem = cuda.alloc_pinned_memory(64)
    pinned = np.frombuffer(mem, np.float32, 16)
    pinned[...] = 2.0
    z = ap.empty(16, dtype=np.float32)
    z.set(pinned, stream=s)
    z.get(out=pinned, stream=s)
    s.synchronize()
    try:
        cuda.alloc_pinned_memory(-1)
        raise SystemExit("alloc_pinned_memory(-1) did not raise")
    except ValueError as e:
        assert "nbytes" in str(e)
    print("ok")
"""


def test_cupy_plumbing_on_the_host_path(fake_driver):  # noqa: F811 - the fixture
    assert run_fake(fake_driver, PROGRAM).startswith("ok")


def test_elapsed_time_waits_for_an_event_still_pending(fake_driver):  # noqa: F811 - the fixture
    """CuPy's stream example records its end event and times it at once; CUDA then answers
    NOT_READY while the event is in flight (the fake driver keeps a recorded event pending until
    it is synchronised or queried, FAKE_CUDA_EVENTS_PENDING). The time waits for both events."""
    out = run_fake(fake_driver, """
        from accelpy import cuda
        s = cuda.Stream()
        start = s.record()
        end = s.record()
        assert cuda.get_elapsed_time(start, end) > 0
        end = s.record()
        assert not end.query() and end.query()  # pending, then done: the driver's model
        end = s.record()
        assert start.elapsed_time(end) > 0
        print("ok")
    """, env=dict(FAKE_CUDA_EVENTS_PENDING="1"))
    assert out.startswith("ok")
