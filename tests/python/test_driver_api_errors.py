"""accelpy's normal operation makes no driver call that fails. Each failed call is a report in
compute-sanitizer's output (and in any API-error check a user runs over their own program), so
a probe that ends at an error (a parameter query past the last parameter, a pointer query on
host memory, an event's time asked before it is done) is noise there. The fake driver
(bench/fake_cuda_driver.c) counts the calls that returned an error; the GPU run checks the same
with compute-sanitizer (scripts/gpu-check sanitize)."""

from test_cuda_host_path import RAW, RAW_SIZES, fake_driver, pytestmark, run_fake  # noqa: F401

FAILED = """
    def failed_calls():
        n = ctypes.c_ulonglong.in_dll(fake, "fake_cuda_failed_calls").value
        return n, ctypes.c_char_p(ctypes.addressof(
            ctypes.c_char.in_dll(fake, "fake_cuda_failed_log"))).value.decode()
"""

# Fused elementwise work and reductions over views, a structure evaluated often enough to be
# replayed as a CUDA graph, uploads and downloads on both sides of the staging threshold (1 MiB),
# pinned buffers, streams and events, users' kernels (RawKernel, RawModule as PTX, the PyCUDA
# layer) with every argument kind, and imports through the CUDA array interface and DLPack.
WORKLOAD = (
    RAW
    + FAILED
    + """
    assert failed_calls() == (0, ""), failed_calls()
    x_np = rng.standard_normal((300, 200)).astype(np.float32)
    x = ap.asarray(x_np)
    for i in range(8):  # one structure, new scalars: recorded, then replayed as a graph
        ap.eval(ap.sqrt(ap.abs(x * float(i))) + x.T.T[::-1], (x - 1.0).sum(axis=1))
    e = ap.exp(x - x.max(axis=1, keepdims=True))
    assert ap.asnumpy(e / e.sum(axis=1, keepdims=True)).shape == (300, 200)
    big = rng.standard_normal(3 << 18).astype(np.float32)  # 3 MiB: the staged path
    assert ap.asnumpy(ap.asarray(big) + 1).shape == big.shape
    pinned = ap.cuda.pinned_empty(1000, np.float32)
    pinned[:] = 1
    p = ap.asarray(pinned)
    out = ap.cuda.pinned_empty(1000, np.float32)
    ap.cuda.copy_to_host_async(p, out)
    ap.cuda.synchronize()

    for i in range(3):
        n = int(rng.integers(1, 2**31))
        k((2,), (64,), (a, b, np.int32(n), float(i), n * 3, True, np.float32(0.5)), shared_mem=64)
        k(1, 32, [b, a, n, np.float64(i), np.int64(n), np.int8(-1), np.float32(1.5)])
    ptx = ap.RawModule(code=CODE, options=("-arch=compute_90",))
    ptx.get_function("k")((1,), (32,), (a, b, 1, 1.0, 2, False, np.float32(1)))
    raises(TypeError, "takes 7 arguments", lambda: k(1, 1, (a, b, 1)))

    import accelpy.driver as drv
    from accelpy.compiler import SourceModule
    fn = SourceModule(CODE, no_extern_c=True).get_function("k")
    alloc = drv.mem_alloc(64)
    host = np.arange(16, dtype=np.float32)
    drv.memcpy_htod(alloc, host)
    back = np.empty_like(host)
    drv.memcpy_dtoh(back, alloc)
    fn(a, alloc, np.int32(1), np.float64(0.5), np.int64(2), np.int8(1), np.float32(0.25),
       block=(32, 1, 1), grid=(1, 1))

    class Foreign:  # another library's array, seen through its protocols only
        def __init__(self, arr):
            self.__cuda_array_interface__ = arr.__cuda_array_interface__
            self._arr = arr

        def __dlpack__(self, **kw):
            return self._arr.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self._arr.__dlpack_device__()

    y = ap.asarray(Foreign(a))
    z = ap.from_dlpack(Foreign(b))
    ap.eval(y * 2 + z[:1])

    s = ap.cuda.Stream()
    start, end = ap.cuda.Event(), ap.cuda.Event()
    start.record(s)
    with s:
        ap.eval(x * 3)
    end.record(s)
    assert start.elapsed_time(end) >= 0  # asked at once: the events may still be pending
    s.synchronize()
    ap.cuda.synchronize()
    print("failed", *failed_calls())
"""
)


def test_a_workload_makes_no_failing_driver_call(fake_driver):  # noqa: F811 - the fixture
    # FAKE_CUDA_EVENTS_PENDING: events stay pending until waited for, as right after a record.
    out = run_fake(fake_driver, WORKLOAD, RAW_SIZES, env={"FAKE_CUDA_EVENTS_PENDING": "1"})
    assert out.splitlines()[-1].strip() == "failed 0", out


def test_the_parameter_count_from_a_cuda_13_2_driver(fake_driver):  # noqa: F811 - the fixture
    # cuFuncGetParamCount answers the count; the argument checks work as before.
    out = run_fake(fake_driver, WORKLOAD, RAW_SIZES, env={"FAKE_CUDA_VERSION": "13020"})
    assert out.splitlines()[-1].strip() == "failed 0", out


def test_a_contradicting_driver_is_asked_until_it_fails(fake_driver):  # noqa: F811 - the fixture
    # The driver's list (two 8-byte parameters) is shorter than the kernel's image says (seven):
    # the driver is believed, its failure at the third ends the list. One failed call, which
    # also shows that the counter sees them.
    out = run_fake(
        fake_driver,
        RAW
        + FAILED
        + """
    k(1, 1, (a, b))
    n, log = failed_calls()
    print("failed", n, log)
    """,
        "8,8",
    )
    assert out.splitlines()[-1].startswith("failed 1 cuFuncGetParamInfo=1"), out
