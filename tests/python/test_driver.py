"""The PyCUDA-compatible layer: accelpy.driver, accelpy.compiler.SourceModule, accelpy.autoinit,
on the device it targets: the GPU, or the CPU device without one (or with
ACCELPY_KERNELS_ON_CPU=1, which the last test uses to run the CPU device on a GPU machine)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import accelpy as ap
import accelpy.driver as cuda
from accelpy.compiler import SourceModule

ADD = """
__global__ void add(float *a, float *b, float *c, int N) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < N) c[idx] = a[idx] + b[idx];
}
__device__ int flag[2];
"""


ON_CPU = ap._kernels._raw.kernels_on_cpu()


def test_without_gpu_the_cpu_device_is_device_0():
    if not ON_CPU:
        pytest.skip("the driver layer targets the GPU")
    cuda.init()
    assert cuda.Device.count() == 1
    dev = cuda.Device(0)
    assert dev.name() == "cpu" and dev.get_attribute(cuda.device_attribute.WARP_SIZE) == 32
    with pytest.raises(ValueError, match="device 1 does not exist.*CPU device stands in"):
        cuda.Device(1)
    r = subprocess.run([sys.executable, "-c", "import accelpy.autoinit, accelpy as ap; "
                        "print(ap.get_default_device())"], capture_output=True, text=True,
                       env=dict(os.environ), timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "cpu", r.stderr


def test_prepare_rejects_unknown_type_codes():
    f = cuda.Function(None)
    with pytest.raises(ValueError, match="unknown argument type code 'z'"):
        f.prepare("PPz")
    f.prepare([np.intp, np.float32])
    with pytest.raises(TypeError, match="prepared for 2 arguments, 1 given"):
        f._prepared_args((1,))
    with pytest.raises(RuntimeError, match="prepare"):
        cuda.Function(None)._prepared_args(())


def test_in_out_wrap_numpy_arrays_only():
    with pytest.raises(TypeError, match="NumPy arrays"):
        cuda.In([1, 2, 3])


def test_device_and_context():
    cuda.init()
    dev = cuda.Device(0)
    if not ON_CPU:
        assert cuda.Device.count() == ap.cuda.device_count()
        assert dev.name() == ap.cuda.get_device_name(0)
        assert dev.compute_capability() >= (7, 0)
    assert dev.total_memory() > 0
    assert dev.get_attribute(cuda.device_attribute.WARP_SIZE) == 32
    assert dev.get_attribute(cuda.device_attribute.MAX_THREADS_PER_BLOCK) == 1024
    with pytest.raises(ValueError, match="unknown device attribute"):
        dev.get_attribute("nope")
    with pytest.raises(ValueError, match="does not exist"):
        cuda.Device(cuda.Device.count())
    ctx = dev.make_context()
    try:
        assert cuda.Context.get_current() is ctx
        assert cuda.Context.get_device() == dev
        assert ap.get_default_device() == ap.device("cpu" if ON_CPU else "cuda:0")
        cuda.Context.synchronize()
        free, total = cuda.mem_get_info()
        assert 0 < free <= total
    finally:
        cuda.Context.pop()
    assert cuda.Context.get_current() is None
    with pytest.raises(RuntimeError, match="empty"):
        cuda.Context.pop()
    ctx2 = dev.retain_primary_context()
    with ctx2:
        assert cuda.Context.get_current() is ctx2


def test_seed_flow_with_copies_streams_events_and_prepared_calls(rng):
    mod = SourceModule(ADD)
    add = mod.get_function("add")
    n = 5000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    a_gpu, b_gpu, c_gpu = cuda.mem_alloc(a.nbytes), cuda.mem_alloc(b.nbytes), cuda.mem_alloc(
        a.nbytes)
    cuda.memcpy_htod(a_gpu, a)
    cuda.memcpy_htod(b_gpu, b)
    grid = ((n + 255) // 256, 1)
    t = add(a_gpu, b_gpu, c_gpu, np.int32(n), block=(256, 1, 1), grid=grid, time_kernel=True)
    assert 0 < t < 1
    c = np.empty_like(a)
    cuda.memcpy_dtoh(c, c_gpu)
    np.testing.assert_array_equal(c, a + b)
    # dtod, async copies on a stream through page-locked memory, events
    d_gpu = cuda.mem_alloc(a.nbytes)
    cuda.memcpy_dtod(d_gpu, c_gpu, a.nbytes)
    s = cuda.Stream()
    host = cuda.pagelocked_zeros(n, np.float32)
    assert (host == 0).all()
    start, end = cuda.Event(), cuda.Event()
    start.record(s)
    cuda.memcpy_dtoh_async(host, d_gpu, s)
    end.record(s)
    end.synchronize()
    assert end.query() and s.is_done()
    assert start.time_till(end) >= 0 and end.time_since(start) >= 0
    np.testing.assert_array_equal(host, a + b)
    # prepared calls
    add.prepare("PPPi")
    e_gpu = cuda.mem_alloc(a.nbytes)
    add.prepared_call(grid, (256, 1, 1), a_gpu, a_gpu, e_gpu, n)
    np.testing.assert_array_equal(cuda.from_device_like(e_gpu, a), a + a)
    add.prepared_async_call(grid, (256, 1, 1), s, b_gpu, b_gpu, e_gpu, n)
    s.synchronize()
    np.testing.assert_array_equal(cuda.from_device(e_gpu, (n,), np.float32), b + b)
    elapsed = add.prepared_timed_call(grid, (256, 1, 1), a_gpu, b_gpu, e_gpu, n)
    assert elapsed() > 0
    assert (add.num_regs > 0 or ON_CPU) and add.max_threads_per_block >= 256
    assert add.get_attribute("num_regs") == add.num_regs
    # In / Out / InOut
    out = np.zeros_like(a)
    add(cuda.In(a), cuda.In(b), cuda.Out(out), np.int32(n), block=(256, 1, 1), grid=grid)
    np.testing.assert_array_equal(out, a + b)
    io = rng.standard_normal(n).astype(np.float32)
    add(cuda.In(a), cuda.In(b), cuda.InOut(io), np.int32(n), block=(256, 1, 1), grid=grid)
    np.testing.assert_array_equal(io, a + b)
    # accelpy arrays are pointers too
    where = "cpu" if ON_CPU else "cuda"
    x = ap.asarray(a, device=where)
    y = ap.empty(n, dtype=np.float32, device=where)
    add(x, x, y, np.int32(n), block=(256, 1, 1), grid=grid)
    np.testing.assert_array_equal(ap.asnumpy(y), a + a)
    # globals, as_buffer, free
    ptr, size = mod.get_global("flag")
    assert size == 8
    cuda.memcpy_htod(ptr, np.array([7, 9], np.int32))
    assert bytes(d_gpu.as_buffer(8)) == (a + b)[:2].tobytes()
    a_gpu.free()
    with pytest.raises(ValueError, match="freed"):
        int(a_gpu)


def test_bad_calls():
    add = SourceModule(ADD).get_function("add")
    x = cuda.mem_alloc(16)
    with pytest.raises(TypeError, match="block="):
        add(x, x, x, np.int32(4))
    with pytest.raises(ValueError, match="at most 1024"):
        add(x, x, x, np.int32(4), block=(2048, 1, 1))
    if add._kernel.param_sizes is not None:
        with pytest.raises(TypeError, match="parameter 3 'N'"):
            add(x, x, x, 4.0, block=(4, 1, 1))
    with pytest.raises(ap.CompileError, match="SourceModule"):
        SourceModule("__global__ void k() { this is not C }")
    with pytest.raises(ValueError, match="C-contiguous"):
        cuda.memcpy_htod(x, np.zeros((4, 4), np.float32)[:, ::2])
    with pytest.raises(TypeError, match="device memory"):
        cuda.memcpy_htod("x", np.zeros(4, np.float32))


def test_seed_flow_on_the_cpu_device_of_a_gpu_machine():
    """ACCELPY_KERNELS_ON_CPU=1 puts the whole layer on the CPU device (the flow above ran on
    the GPU there)."""
    if ON_CPU:
        pytest.skip("the tests above ran on the CPU device")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-p", "no:xdist", __file__, "-k", "seed_flow_with or bad_calls"],
                       capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, ACCELPY_KERNELS_ON_CPU="1"))
    assert r.returncode == 0 and "2 passed" in r.stdout, r.stdout + r.stderr
