"""The CUDA backend's host path, without a GPU.

bench/fake_cuda_driver.c is a driver whose calls succeed and do nothing ("device memory" is host
memory, launches are counted, not run). With it standing in for libcuda, everything accelpy does
on the host for a CUDA operation runs here: planning, the launch path's plan reuse, the kernel
caches (NVRTC compiles for real), parameter packing and the allocator's small-block cache.
Values are never checked (no kernel runs); the GPU suite checks them.
"""

import os
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

import accelpy as ap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CC = shutil.which(os.environ.get("CC", "cc"))
NVRTC = any(lib["name"] == "nvrtc" and lib["found"] for lib in ap.cuda._c.libraries())

pytestmark = [
    pytest.mark.skipif(CC is None, reason="no C compiler to build the fake driver"),
    pytest.mark.skipif(not NVRTC, reason="NVRTC not found (kernels are compiled for real)"),
]


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    d = tmp_path_factory.mktemp("fake_cuda")
    lib = str(d / "libcuda.so.1")
    subprocess.run([CC, "-O2", "-shared", "-fPIC", "-o", lib,
                    os.path.join(ROOT, "bench", "fake_cuda_driver.c")], check=True)
    return lib, str(d / "cache")


def run_fake(fake_driver, code, param_sizes=None, cache_dir=None, env=None):
    """Runs `code` in a new process on the fake driver; `param_sizes` ("8,8,4") is the parameter
    list the driver reports for every kernel (and makes it record each launch's arguments)."""
    lib, cache = fake_driver
    env = dict(os.environ, ACCELPY_CUDA_DRIVER=lib, ACCELPY_CACHE_DIR=cache_dir or cache,
               ACCELPY_DEFAULT_DEVICE="cuda", **(env or {}))
    env.pop("ACCELPY_CUDA_SMALL_BLOCK_CACHE", None)
    env.pop("FAKE_CUDA_PARAM_SIZES", None)
    if param_sizes is not None:
        env["FAKE_CUDA_PARAM_SIZES"] = param_sizes
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


# A program touching the planner's cases: contiguous, broadcast, strided, transposed and reversed
# operands, one element and none, reductions (one split over the device), a concatenation, and a
# group whose parameters pass by pointer (past 4 KB).
PROGRAM = """
    import numpy as np, accelpy as ap
    rng = np.random.default_rng(0)
    x = ap.asarray(rng.standard_normal((64, 48)).astype(np.float32))
    y = ap.asarray(rng.standard_normal(48).astype(np.float32))
    one = ap.asarray(np.float32([1.5]))

    flat = x.reshape(-1)

    def breaker():  # a group of its own structure
        ap.eval(ap.arange(5, dtype=np.int16) * 7)

    def program(between=lambda: None):
        # Each case twice in a row: the second reuses the launch path's plan (new addresses).
        for i in range(20):
            k = (i // 2) % 10
            r = [lambda: x + y, lambda: x[::2, ::3] * 2.0 + 1, lambda: (x.T - 1.0) * x.T,
                 lambda: ap.sqrt(ap.abs(x)) + y[::-1], lambda: x[5] + y, lambda: one + one,
                 lambda: ap.zeros(0) + 1, lambda: (one + one) * one - one,
                 lambda: flat[i % 2:] * 2.0, lambda: x[:, i % 2:] + 1.0][k]()
            ap.eval(r)
            between()
        for r in (x.sum(), x.sum(axis=0), x.sum(axis=1), (x * x).mean(),
                  ap.ones(1 << 22, dtype=np.float32).sum(), ap.concatenate([x, x * 2, x[:3]])):
            ap.eval(r)
            between()
        arrs = [x[:, ::2][:, ::-1] + float(j) for j in range(60)]
        acc = arrs[0]
        for a in arrs[1:]:
            acc = acc + a
        ap.eval(acc)
        between()
"""


def test_reused_plans_name_the_kernels_fresh_plans_name(fake_driver):
    # The launch path reuses its last plan for a group of the same signature. With another group
    # run between any two (so no plan is reused), every group gets the same kernel (names hash
    # the structural key); a second pass compiles nothing.
    out = run_fake(fake_driver, PROGRAM + """
    def names(between=lambda: None):
        with ap.fusion.debug_fusion(stream=None) as records:
            program(between)
        return [r["kernel"] for r in records]
    with ap.fusion.debug_fusion(stream=None) as records:
        breaker()
    breaker_kernel = records[0]["kernel"]
    reused = names()
    fresh = [k for k in names(breaker) if k != breaker_kernel]
    assert reused == fresh, (reused, fresh)
    stats = ap.cuda.kernel_cache_stats()
    assert names() == reused
    again = ap.cuda.kernel_cache_stats()
    assert again["compiled"] == stats["compiled"] and again["disk_hits"] == stats["disk_hits"]
    assert len(set(reused)) >= 12
    print("ok", len(reused))
    """)
    assert out.startswith("ok")


UPGRADES = """
    import os, sys, time
    import numpy as np, accelpy as ap
    x = ap.asarray(np.linspace(0, 1, 1000, dtype=np.float32))
    ap.eval(ap.sin(x) * 2.0 + x)
    first = ap.cuda.kernel_cache_stats()
    ap.eval(x.sum())
    if "exit" in sys.argv:
        sys.exit(0)  # the optimized build is still compiling: the worker stores it after
    assert ap.cuda.wait_for_optimized_kernels(timeout=300)
    s = ap.cuda.kernel_cache_stats()
    pid = os.fork()  # a child has no worker of its own: its exit must not wait for one
    if pid == 0:
        sys.exit(0)
    deadline = time.monotonic() + 60
    while os.waitpid(pid, os.WNOHANG) == (0, 0):
        assert time.monotonic() < deadline, "the forked child did not exit"
        time.sleep(0.05)
    print(first["compiled"], first["disk_hits"], s["compiled"], s["upgraded"],
          s["upgrades_pending"], s["upgrade_failures"])
"""


def test_new_elementwise_kernels_are_upgraded_by_the_compile_worker(fake_driver, tmp_path):
    # A new elementwise kernel is compiled quickly and launched; its optimized build comes from
    # the compile worker, which stores it on disk. A reduction compiles optimized at once.
    def counts(cache, code=UPGRADES, **env):
        return [int(v) for v in run_fake(fake_driver, code, cache_dir=str(tmp_path / cache),
                                         env=env).split()]
    assert counts("a") == [1, 0, 2, 1, 0, 0]
    assert counts("a") == [0, 1, 0, 0, 0, 0]  # the next process: both from the disk cache
    assert counts("b", ACCELPY_QUICK_COMPILE="0") == [1, 0, 2, 0, 0, 0]
    # A process that exits with the optimized build pending: a process started at once finds
    # the quick build on disk (or the optimized one, if the worker was done), and the worker
    # goes on and stores the optimized build, after which nothing is compiled or upgraded.
    run_fake(fake_driver, UPGRADES.replace('"exit" in sys.argv', "True"),
             cache_dir=str(tmp_path / "c"))
    assert counts("c")[:3] == [0, 1, 0]
    kernels = tmp_path / "c" / "kernels"
    deadline = time.monotonic() + 300
    while len(list(kernels.glob("*.bin"))) < 3:  # the two builds, and the reduction
        assert time.monotonic() < deadline, "the worker did not store the optimized build"
        time.sleep(0.05)
    assert counts("c") == [0, 1, 0, 0, 0, 0]


def test_a_compile_worker_that_dies_leaves_the_quick_builds_in_use(fake_driver, tmp_path):
    out = run_fake(fake_driver, """
    import os, signal, time
    import numpy as np, accelpy as ap
    x = ap.asarray(np.linspace(0, 1, 1000, dtype=np.float32))
    ap.eval(ap.sin(x) * 2.0 + x)
    assert ap.cuda.kernel_cache_stats()["upgrades_pending"] == 1
    # The worker is this process's only child.
    children = [int(p) for t in os.listdir("/proc/self/task")
                for p in open(f"/proc/self/task/{t}/children").read().split()]
    assert len(children) == 1, children
    os.kill(children[0], signal.SIGKILL)
    assert ap.cuda.wait_for_optimized_kernels(timeout=60)
    s = ap.cuda.kernel_cache_stats()
    assert (s["upgraded"], s["upgrade_failures"], s["upgrades_pending"]) in ((1, 0, 0), (0, 1, 0))
    ap.eval(ap.cos(x) - x)  # no worker now: compiled optimized at once
    s2 = ap.cuda.kernel_cache_stats()
    assert s2["compiled"] == 2 and s2["upgrades_pending"] == 0
    assert ap.cuda.wait_for_optimized_kernels(timeout=0)
    print("ok")
    """, cache_dir=str(tmp_path / "cache"))
    assert out.startswith("ok")


def test_small_block_cache_reuses_blocks_on_the_default_stream(fake_driver):
    out = run_fake(fake_driver, """
    import numpy as np, accelpy as ap
    addr = lambda a: a.__cuda_array_interface__["data"][0]
    a = ap.empty(100, dtype=np.float32)
    p = addr(a)
    del a
    with ap.cuda.Stream():
        other = ap.empty(100, dtype=np.float32)
        assert addr(other) != p
    b = ap.empty(120, dtype=np.float32)
    assert addr(b) == p
    del b
    ap.cuda.free_cache()
    before = ap.cuda.memory_stats()["allocated_bytes"]
    for _ in range(1000):
        ap.eval(ap.ones(3) + 1)
    assert ap.cuda.memory_stats()["allocated_bytes"] == before
    print("ok")
    """)
    assert out.startswith("ok")


# Users' kernels: the fake driver records each launch's configuration and argument bytes, so the
# launch path's packing is checked byte for byte. The kernel's parameters, as the driver reports
# them: float* a, const float* b, int n, double x, long long m, char flag, float f.
RAW_SIZES = "8,8,4,8,8,1,4"
RAW = """
    import ctypes, os, struct
    import numpy as np, accelpy as ap
    fake = ctypes.CDLL(os.environ["ACCELPY_CUDA_DRIVER"])
    CODE = r'''extern "C" __global__ void k(float* a, const float* b, int n, double x,
                                        long long m, char flag, float f) {}'''
    k = ap.RawKernel(CODE, "k")
    rng = np.random.default_rng()
    a = ap.asarray(rng.standard_normal(16).astype(np.float32))
    b = ap.asarray(rng.standard_normal(8).astype(np.float32))
    ptr = ap._core._data_ptr

    def launched(fmt="<QQidqbf"):
        config = (ctypes.c_uint * 7).in_dll(fake, "fake_cuda_last_config")
        raw = (ctypes.c_ubyte * struct.calcsize(fmt)).in_dll(fake, "fake_cuda_last_args")
        return tuple(config), struct.unpack(fmt, bytes(raw))

    def raises(exc, match, fn):
        try:
            fn()
        except exc as e:
            assert match in str(e), (match, str(e))
        else:
            raise AssertionError(f"no {exc.__name__} ({match})")
"""


def test_raw_kernel_arguments_are_packed_as_the_parameters_take_them(fake_driver):
    out = run_fake(fake_driver, RAW + """
    # Every argument kind, fresh values each launch: NumPy scalar types are read from the object
    # once their layout is known, and each launch must still see its own value.
    for _ in range(5):
        n, m = (int(v) for v in rng.integers(-2**31, 2**31, 2))
        m *= 3**15
        f = np.float32(rng.standard_normal())
        x = float(rng.standard_normal())
        k((3, 2), (32, 4, 2), (a, b, np.int32(n), x, m, True, f), shared_mem=128)
        assert launched() == ((3, 2, 1, 32, 4, 2, 128), (ptr(a), ptr(b), n, x, m, 1, f))
        k(grid=7, block=[64], args=[b, a, n, np.float64(x), np.int64(m), np.int8(-3), f])
        assert launched() == ((7, 1, 1, 64, 1, 1, 0), (ptr(b), ptr(a), n, x, m, -3, f))

        class Int32(np.int32):  # a subclass of a NumPy scalar type: its own layout
            pass

        c_int = ctypes.c_int(n)  # a buffer that is not a NumPy scalar: read through the buffer
        k(1, 1, (a, a, Int32(n), x, np.uint64(m % 2**64), np.bool_(False), f))
        assert launched()[1][2:6] == (n, x, m, 0)
        k(1, 1, (a, a, c_int, x, m, True, f))
        c_int.value = n // 2
        k(1, 1, (a, a, c_int, x, m, True, f))
        assert launched()[1][2] == n // 2
    print("ok")
    """, RAW_SIZES)
    assert out.startswith("ok")


def test_raw_kernel_bad_calls_raise_and_launch_nothing(fake_driver):
    out = run_fake(fake_driver, RAW + """
    count = ctypes.c_ulonglong.in_dll(fake, "fake_cuda_launches")
    ok = (a, b, np.int32(1), 1.0, 2, False, np.float32(1))
    k(1, 1, ok)
    before = count.value
    bad = [
        (TypeError, "takes 7 arguments (a, b, n, x, m, flag, f), 6 given", (1,), (1,), ok[:6], {}),
        (TypeError, "parameter 2 'n' (4 bytes) was given a float64", 1, 1,
         ok[:2] + (2.5,) + ok[3:], {}),
        (TypeError, "parameter 6 'f' (4 bytes) was given a float64", 1, 1, ok[:6] + (1.0,), {}),
        (TypeError, "parameter 1 'b' (8 bytes) was given a NumPy scalar (4 bytes)", 1, 1,
         (a, np.float32(1)) + ok[2:], {}),
        (OverflowError, "parameter 2 'n' (4 bytes) cannot hold the Python int 8589934592", 1, 1,
         ok[:2] + (2**33,) + ok[3:], {}),
        (OverflowError, "argument 4 does not fit in 64 bits", 1, 1, ok[:4] + (2**64,) + ok[5:],
         {}),
        (TypeError, "Copy NumPy arrays to the GPU first", 1, 1,
         (np.zeros(4, np.float32),) + ok[1:], {}),
        (TypeError, "args must be a tuple or list", 1, 1, a, {}),
        (ValueError, "is an array on cpu", 1, 1, (ap.zeros(4, device="cpu"),) + ok[1:], {}),
        (ValueError, "grid dimension x is 0", (0,), (32,), ok, {}),
        (ValueError, "block dimension x is 2048; the device allows at most 1024", 1, 2048, ok,
         {}),
        (ValueError, "grid must have 1 to 3 dimensions, got 4", (1, 1, 1, 1), 1, ok, {}),
        (ValueError, "grid dimension x is -1; it must be between 1 and", (-1,), 1, ok, {}),
        (ValueError, "block dimension y is 36893488147419103232", (1,), (1, 2**65), ok, {}),
        (TypeError, "block must be an int or a tuple of up to 3 ints, got float", 1, 1.0, ok, {}),
        (ValueError, "shared memory of 1073741824 bytes", 1, 1, ok, {"shared_mem": 1 << 30}),
        (ValueError, "shared_mem is -1 bytes", 1, 1, ok, {"shared_mem": -1}),
        (TypeError, "shared_mem must be an int", 1, 1, ok, {"shared_mem": 1.5}),
        (TypeError, "unexpected keyword argument 'shared'", 1, 1, ok, {"shared": 0}),
        (TypeError, "multiple values for argument 'grid'", 1, 1, ok, {"grid": 1}),
        (TypeError, "stream must be None, a stream", 1, 1, ok, {"stream": "s"}),
    ]
    for exc, match, grid, block, args, kw in bad:
        raises(exc, match, lambda: k(grid, block, args, **kw))
    raises(TypeError, "never initialized", lambda: k(1, 1, (ap.ndarray.__new__(ap.ndarray),)))
    raises(TypeError, "missing argument 'args'", lambda: k(1, 1))
    raises(TypeError, "takes 3 positional arguments", lambda: k(1, 1, ok, 0))
    assert count.value == before
    print("ok")
    """, RAW_SIZES)
    assert out.startswith("ok")


def test_raw_kernel_arrays_are_computed_and_their_readers_run_first(fake_driver):
    out = run_fake(fake_driver, RAW + """
    pending = a + 1.0          # computed before the launch
    reader = b * 2.0           # pending work reading b: runs before the kernel may write b
    assert pending._is_pending() and reader._is_pending()
    k(1, 1, (pending, b, 1, 1.0, 2, False, np.float32(1)))
    assert not pending._is_pending() and not reader._is_pending()
    assert launched()[1][:2] == (ptr(pending), ptr(b))
    print("ok")
    """, RAW_SIZES)
    assert out.startswith("ok")


def test_driver_function_calls_pack_like_raw_kernels(fake_driver):
    out = run_fake(fake_driver, RAW + """
    import accelpy.driver as drv
    from accelpy.compiler import SourceModule
    fn = SourceModule(CODE, no_extern_c=True).get_function("k")
    alloc = drv.mem_alloc(64)
    n, m = (int(v) for v in rng.integers(-2**31, 2**31, 2))
    fn(a, alloc, np.int32(n), np.float64(0.5), np.int64(m), np.int8(1), np.float32(0.25),
       block=(32, 2, 1), grid=(4, 1))
    assert launched() == ((4, 1, 1, 32, 2, 1, 0), (ptr(a), int(alloc), n, 0.5, m, 1, 0.25))
    fn.prepare("PPidqbf")
    fn.prepared_call((2, 3), (8, 1, 1), b, int(alloc), n, 0.75, m, 0, 1.5, shared_size=64)
    assert launched() == ((2, 3, 1, 8, 1, 1, 64), (ptr(b), int(alloc), n, 0.75, m, 0, 1.5))
    fn.prepare([np.uintp, np.uintp, np.int32, np.float64, np.int64, np.int8, np.float32])
    fn.prepared_call((1, 1), (1, 1, 1), alloc, a, np.int64(n), 2, m, True, 3)
    assert launched()[1] == (int(alloc), ptr(a), n, 2.0, m, 1, 3.0)
    raises(TypeError, "prepared for 7 arguments, 6 given",
           lambda: fn.prepared_call((1, 1), (1, 1, 1), a, a, 1, 1.0, 2, 0))
    print("ok")
    """, RAW_SIZES)
    assert out.startswith("ok")


def test_gpu_bench_fusion_cases_run_on_the_host_path(fake_driver, tmp_path):
    # bench/gpu.py's fusion cases and first use of a fused expression (issue 4's targets) run as
    # far as the host goes, so an error in the benchmark shows here rather than in a GPU session's
    # one full run. The fake driver's events report a fixed time: figures are not checked, only
    # that every case ran and printed.
    out = run_fake(fake_driver, f"""
    import sys
    sys.path.insert(0, {os.path.join(ROOT, "bench")!r})
    sys.modules["torch"] = sys.modules["cupy"] = None  # on a GPU machine they would run for real
    import gpu
    names = [case[0] for case in gpu.FUSION_CASES]
    sys.argv = ["gpu.py", "--quick", "--out", {str(tmp_path)!r}, "--only", "first_use_fused"]
    for name in names:
        sys.argv += ["--only", name]
    gpu.main()
    print("names:", "|".join(names))
    """)
    assert "FAILED" not in out and "Traceback" not in out, out
    names = out.splitlines()[-1].removeprefix("names: ").split("|")
    assert len(names) >= 4
    assert "new fused expr, empty cache" in out and "new fused expr, disk hit" in out, out
    table = out[out.index("fusion (ms)"):]
    for name in names:
        assert f"case {name} (" in out, name
        row = next(line for line in table.splitlines() if line.startswith(name))
        # The host's microseconds per call, alone and queued, end the row.
        alone, queued = (float(v) for v in row.split(";")[1].split()[:2])
        assert alone > 0 and queued > 0, row


def test_cuda_in_a_forked_child_raises_naming_fork_and_spawn(fake_driver):
    # CUDA does not survive fork: a child of a process that initialized it must get an error
    # that says so (not a hang in the driver); the parent keeps working.
    out = run_fake(fake_driver, """
        import os, accelpy as ap
        x = ap.ones(8)
        ap.eval(x + 1)  # the parent has initialized CUDA
        pid = os.fork()
        if pid == 0:
            try:
                ap.eval(x * 3)
                os._exit(3)
            except RuntimeError as e:
                os._exit(0 if "fork" in str(e) and "spawn" in str(e) else 4)
            except BaseException:
                os._exit(5)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        ap.eval(x * 3)
        print("parent ok")
    """)
    assert out.split() == ["child", "0", "parent", "ok"]


ROW_PROGRAMS = """
    import json, sys
    import numpy as np, accelpy as ap
    rng = np.random.default_rng(0)

    def a(*shape, dtype=np.float32):
        return ap.asarray(rng.standard_normal(shape).astype(dtype))

    def softmax(x, axis=-1):
        e = ap.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    def layer_norm(x, g, b, eps=1e-5):
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / ap.sqrt(var + eps) * g + b

    def logsumexp(x):
        m = x.max(axis=1)
        return ap.log(ap.exp(x - m[:, None]).sum(axis=1)) + m

    def softmax_parts(x):
        # The result, the row max, the exponentials and their row sums: four outputs.
        m = x.max(axis=1, keepdims=True)
        e = ap.exp(x - m)
        s = e.sum(axis=1)
        return e / s[:, None], m, e, s

    def row_adam(p, g, m, v, lr=1e-3, b1=0.9, b2=0.999):
        # Adam over gradients scaled by their row's RMS: three outputs of one row group.
        g = g / ap.sqrt((g * g).mean(axis=1, keepdims=True) + 1e-12)
        m2 = b1 * m + (1 - b1) * g
        v2 = b2 * v + (1 - b2) * g * g
        return p - lr * m2 / (ap.sqrt(v2) + 1e-8), m2, v2

    cases = {
        "softmax": lambda: softmax(a(64, 96)),
        "layer_norm": lambda: layer_norm(a(64, 4096), a(4096), a(4096)),
        "logsumexp": lambda: logsumexp(a(33, 500)),
        "row_adam": lambda: row_adam(a(128, 256), a(128, 256), a(128, 256), ap.abs(a(128, 256))),
        "axis0": lambda: (lambda x: x - x.max(axis=0))(a(1000, 300)),
        "middle_axis": lambda: softmax(a(16, 8, 700), 1),
        "long_rows": lambda: softmax(a(256, 16500)),
        "outputs": lambda: softmax_parts(a(50, 70)),
        "int32": lambda: (lambda x: x * 2 - x.max(axis=1, keepdims=True))(
            ap.asarray(rng.integers(0, 50, (40, 30)).astype(np.int32))),
        "float16": lambda: softmax(a(20, 64, dtype=np.float16)),
        "float64_two_axes": lambda: (lambda x: x - x.mean(axis=(0, 2), keepdims=True))(
            a(4, 5, 6, dtype=np.float64)),
        "complex64": lambda: (lambda x: x / x.sum(axis=1, keepdims=True))(
            a(20, 64, dtype=np.complex64)),
        "argmax": lambda: (lambda x: x - x.argmax(axis=1)[:, None])(a(20, 64)),
        "any": lambda: (lambda x: (x > 0) & (x > 0).any(axis=1, keepdims=True))(a(20, 64)),
        "short_rows": lambda: softmax(a(1000, 5)),
        "one_row": lambda: (lambda x: x - x.sum())(a(4, 5, 6)),
    }
    out = {}
    for name in sys.argv[1:] or cases:
        with ap.debug_fusion(stream=None) as log:
            r = cases[name]()
            ap.eval(*(r if isinstance(r, tuple) else (r,)))
        out[name] = [(e["kind"], e["kernel"], e["cache"], len(e["outputs"])) for e in log]
    print(json.dumps(out))
"""


def test_cuda_runs_row_groups_as_one_generated_kernel(fake_driver, tmp_path):
    """Softmax, layer norm, logsumexp, a three-output Adam step, reductions over axis 0 and a
    middle axis, long rows (the looping form), per-row outputs and other dtypes plan as one Rows
    group on CUDA, and NVRTC compiles each generated row kernel (the fake driver loads and
    launches nothing: the GPU suite checks values). The dumped sources show the mapping: rows
    kept in registers, rows looped over, and column teams where a kept axis is fastest."""
    import json
    dump = tmp_path / "dump"
    out = run_fake(fake_driver, ROW_PROGRAMS, cache_dir=str(tmp_path / "cache"),
                   env={"ACCELPY_DUMP_KERNELS": str(dump)})
    runs = json.loads(out.splitlines()[-1])
    assert len(runs) == 16
    for name, log in runs.items():
        assert [e[0] for e in log] == ["rows"], (name, log)
        kind, kernel, cache, outputs = log[0]
        assert kernel.startswith("accel_rows_") and cache in ("compiled", "memory hit"), (name, log)
    assert runs["row_adam"][0][3] == 3 and runs["outputs"][0][3] == 4

    def source(name):
        return (dump / (runs[name][0][1] + ".cu")).read_text()

    assert "xc0[EPT]" in source("softmax") and "accel_row_allreduce" in source("softmax")
    assert "for (IDX r = lane; r < R; r += TPO)" in source("long_rows")
    assert "xc0[EPT]" not in source("long_rows")
    for name in ("axis0", "middle_axis"):
        assert "accel_col_allreduce" in source(name), name
    assert "accel_row_allreduce" in source("layer_norm")


def test_cuda_splits_few_long_rows_and_the_plan_cache_tells_them_apart(fake_driver):
    """Rows longer than a team holds in registers take a block each: with fewer rows than fill
    the device (BackendLimits::long_row_min_rows) the groups stay split, the reduction spread
    over the device. The decision depends on sizes, so the plan cache (which keys shape classes)
    must not replay one size's plan for the other."""
    out = run_fake(fake_driver, """
    import numpy as np, accelpy as ap
    def softmax(x):
        e = ap.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
    for rows in (3, 300, 3, 300):
        x = ap.asarray(np.ones((rows, 20000), np.float32))
        with ap.debug_fusion(stream=None) as log:
            ap.eval(softmax(x))
        print(rows, ",".join(r["kind"] for r in log))
    """)
    lines = out.splitlines()[-4:]
    assert lines[0] == lines[2] == "3 reduction,elementwise,reduction,elementwise", lines
    assert lines[1] == lines[3] == "300 rows", lines


def test_cuda_groups_and_bytes_match_the_cpu(fake_driver):
    """test_fusion_traffic.py's programs plan as the same groups, reading and writing the same
    bytes, on CUDA as on the CPU (the GPU suite checks their values)."""
    out = run_fake(fake_driver, f"""
    import sys
    import numpy as np, accelpy as ap
    ap.fusion.set_eager_elements(0)  # the CPU's groups as the planner makes them, as CUDA's
    sys.path.insert(0, {os.path.join(ROOT, "tests", "python")!r})
    from test_fusion_traffic import CASES
    for name, program, make, *_ in CASES:
        args = make(np.random.default_rng(0))
        per_device = []
        for device in ("cpu", "cuda"):
            with ap.debug_fusion(stream=None) as log:
                got = program(ap, *(ap.asarray(a.copy(), device=device) for a in args))
                ap.eval(*(got if isinstance(got, tuple) else (got,)))
            per_device.append(sorted((r["kind"], len(r["ops"]), r["bytes_read"],
                                      r["bytes_written"]) for r in log))
        print(name, per_device[0] == per_device[1], per_device)
    """)
    lines = [line for line in out.splitlines() if " True " in line or " False " in line]
    assert len(lines) == 14, out
    for line in lines:
        assert " True " in line, line


# Results NumPy lays out other than in C order (D68): reductions of a transposed input (kept
# axes, keepdims), mean/var converted in place, concatenate/stack in the inputs' memory order.
LAYOUT_PROGRAM = """
    import json
    import numpy as np, accelpy as ap
    b = np.arange(120.0, dtype=np.float32).reshape(6, 5, 4)
    x_np, x = b.transpose(2, 1, 0), ap.asarray(b).transpose(2, 1, 0)
    cases = [lambda m, a: a.sum(axis=0), lambda m, a: a.sum(axis=-1, keepdims=True),
             lambda m, a: m.mean(a, axis=0, keepdims=True), lambda m, a: a.var(axis=1),
             lambda m, a: a.max(axis=1, keepdims=True), lambda m, a: (a * 2).sum(axis=(0, 2)),
             lambda m, a: m.concatenate([a, a * 2], axis=0), lambda m, a: m.stack([a, a], -1)]
    out = []
    for f in cases:
        r = f(ap, x)
        ap.eval(r)
        out.append([list(r.strides), list(f(np, x_np).strides)])
    print(json.dumps(out))
"""


def test_cuda_results_take_numpys_layouts(fake_driver, tmp_path):
    """On CUDA the same results get NumPy's strides, and the kernels that write them (strided
    reduction outputs, concatenation slabs) plan and compile through NVRTC; the GPU suite
    (test_result_layouts.py) checks their values."""
    import json
    out = run_fake(fake_driver, LAYOUT_PROGRAM, cache_dir=str(tmp_path / "cache"))
    for got, expected in json.loads(out.splitlines()[-1]):
        assert got == expected
