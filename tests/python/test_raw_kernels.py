"""RawKernel and RawModule (CuPy's signatures): compilation, compile errors, argument and
launch checks, templates through name expressions, globals, streams and device faults.

Compiling needs only NVRTC (sm_90 without a GPU), so those tests run everywhere; launching
tests run on every device (the CPU device always), those of GPU-only behaviour are marked
`cuda`.
"""

import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accelpy as ap
from accelpy._kernels import _parameter_names

ADD = r"""
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

TEMPLATES = r"""
template <typename T>
__global__ void scale(T* x, T factor, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * factor;
}
__device__ float counter[4];
__constant__ int table[3] = {1, 2, 3};
extern "C" __global__ void read_table(int* out) { out[threadIdx.x] = table[threadIdx.x]; }
"""

nvrtc_available = any(lib["name"] == "nvrtc" and lib["found"] for lib in ap.cuda._c.libraries())
needs_nvrtc = pytest.mark.skipif(not nvrtc_available, reason="NVRTC not found")


def test_parameter_names_are_parsed_from_the_source():
    assert _parameter_names(ADD, "add") == ["a", "b", "c", "n"]
    assert _parameter_names(TEMPLATES, "scale<float>") == ["x", "factor", "n"]
    src = "extern \"C\" __global__ void __launch_bounds__(256) k(const int *__restrict__ p, " \
          "float v[4]) {}"
    assert _parameter_names(src, "k") == ["p", "v"]
    assert _parameter_names(ADD, "missing") == []


@needs_nvrtc
def test_compile_only_works_without_a_device(tmp_path):
    k = ap.RawKernel(ADD, "add", cache_dir=str(tmp_path))
    k.module.compile()
    mod = ap.RawModule(code=TEMPLATES, name_expressions=["scale<float>", "scale<double>"],
                       cache_dir=str(tmp_path))
    mod.compile()
    low = mod.get_lowered_name("scale<float>")
    assert low.startswith("_Z") and "scale" in low
    assert mod.get_lowered_name("scale<double>") != low
    with pytest.raises(ValueError, match="name_expressions"):
        mod.get_lowered_name("scale<int>")


@needs_nvrtc
def test_compile_error_carries_log_name_and_lines(tmp_path):
    bad = "extern \"C\" __global__ void broken(float* x) {\n  x[0] = 1.0f\n  x[1] = y;\n}\n"
    mod = ap.RawModule(code=bad, name="broken", cache_dir=str(tmp_path))
    with pytest.raises(ap.CompileError) as info:
        mod.compile()
    e = info.value
    assert isinstance(e, RuntimeError)
    assert e.name == "broken"
    assert "error" in e.log and "broken.cu" in e.log
    assert "x[1] = y;" in e.source_lines or "x[0] = 1.0f" in e.source_lines
    assert ">" in e.source_lines  # the offending line is marked
    msg = str(e)
    assert "broken" in msg and "error" in msg and "in the source" in msg


@needs_nvrtc
def test_compile_error_reports_bad_options(tmp_path):
    with pytest.raises(ap.CompileError, match="--no-such-option"):
        ap.RawModule(code=ADD, options=("--no-such-option",), cache_dir=str(tmp_path)).compile()


def test_offending_lines_marks_error_lines():
    src = "\n".join(f"line {i}" for i in range(1, 11))
    log = "k.cu(5): error: identifier \"y\" is undefined\nk.cu(9): warning: unused\n"
    out = ap._kernels._raw.offending_lines(src, log)
    assert ">    5 | line 5" in out
    assert "     4 | line 4" in out and "     6 | line 6" in out
    assert "line 9" not in out  # warnings are not errors
    assert ap._kernels._raw.offending_lines(src, "no line numbers here") == ""


def test_constructor_argument_errors():
    with pytest.raises(ValueError, match="nvrtc"):
        ap.RawKernel(ADD, "add", backend="nvcc")
    with pytest.raises(TypeError, match="name"):
        ap.RawKernel(ADD, 3)
    with pytest.raises(TypeError, match="exactly one"):
        ap.RawModule()
    with pytest.raises(TypeError, match="options"):
        ap.RawModule(code=ADD, options=(1,))
    with pytest.raises(ValueError, match="cooperative"):
        ap.RawModule(code=ADD, enable_cooperative_groups=True)


@needs_nvrtc
def test_disk_cache_is_used_by_a_new_module(tmp_path):
    before = ap.cuda.kernel_cache_stats()
    ap.RawModule(code=ADD + "// a", cache_dir=str(tmp_path)).compile()
    mid = ap.cuda.kernel_cache_stats()
    assert mid["compiled"] == before["compiled"] + 1
    again = ap.RawModule(code=ADD + "// a", cache_dir=str(tmp_path))
    again.compile()  # the same definition: the module in memory, nothing loaded
    assert ap.cuda.kernel_cache_stats() == mid
    # Another module object (another name) with the same program: from the disk cache.
    ap.RawModule(code=ADD + "// a", cache_dir=str(tmp_path), name="other").compile()
    after = ap.cuda.kernel_cache_stats()
    assert after["compiled"] == mid["compiled"]
    assert after["disk_hits"] == mid["disk_hits"] + 1
    assert any(f.endswith(".bin") for f in os.listdir(tmp_path / "kernels"))


def test_launch_without_gpu_says_why():
    if ap.cuda.is_available():
        pytest.skip("a GPU is present")
    if ap._kernels._raw.kernels_on_cpu():
        pytest.skip("kernels run on the CPU device (tests/python/test_cpu_kernels.py)")
    k = ap.RawKernel(ADD, "add")
    with pytest.raises(RuntimeError, match="CUDA|cuda"):
        k((1,), (32,), (np.float32(1),))


# ---- launching (every device; GPU-only behaviour is marked cuda) ---------------------------


def test_add_matches_numpy(rng, device):
    n = 10_001
    a_np = rng.standard_normal(n).astype(np.float32)
    b_np = rng.standard_normal(n).astype(np.float32)
    a, b = ap.asarray(a_np, device=device), ap.asarray(b_np, device=device)
    c = ap.empty(n, dtype=np.float32, device=device)
    k = ap.RawKernel(ADD, "add")
    k(((n + 255) // 256,), (256,), (a, b, c, np.int32(n)))
    np.testing.assert_array_equal(ap.asnumpy(c), a_np + b_np)
    # A Python int takes the parameter's size (int: 4 bytes).
    c2 = ap.empty(n, dtype=np.float32, device=device)
    k((n + 127) // 128, 128, [a, b, c2, n])
    np.testing.assert_array_equal(ap.asnumpy(c2), a_np + b_np)
    # The CPU device has no registers to report (its attributes are its limits).
    assert k.max_threads_per_block >= 256 and (k.num_regs > 0 or not ap.cuda.is_available())


def test_pending_inputs_are_computed_and_readers_run_before_the_write(rng, device):
    x_np = rng.standard_normal(300).astype(np.float32)
    old_np = rng.standard_normal(300).astype(np.float32)
    x = ap.array(x_np, device=device)  # a copy: on cpu, asarray shares NumPy's memory
    a = x * 2.0  # pending: the kernel must see its values
    b = ap.zeros(300, dtype=np.float32, device=device)
    out = ap.array(old_np, device=device)
    reader = out + 1.0  # pending reader of `out`: must see the values before the kernel
    ap.RawKernel(ADD, "add")((2,), (256,), (a, b, out, np.int32(300)))
    np.testing.assert_array_equal(ap.asnumpy(out), x_np * 2)
    np.testing.assert_array_equal(ap.asnumpy(reader), old_np + np.float32(1))


def test_templates_globals_and_constants(rng, device):
    mod = ap.RawModule(code=TEMPLATES, name_expressions=["scale<float>", "scale<double>"])
    for dt, name in ((np.float32, "scale<float>"), (np.float64, "scale<double>")):
        x_np = rng.standard_normal(1000).astype(dt)
        x = ap.array(x_np, device=device)  # a copy: on cpu, asarray shares memory
        mod.get_function(name)((4,), (256,), (x, dt(3.0), np.int64(1000)))
        np.testing.assert_allclose(ap.asnumpy(x), x_np * dt(3.0), rtol=0)
    g = mod.get_global("counter")
    assert g.size == 16 and int(g) == g.ptr != 0
    out = ap.zeros(3, dtype=np.int32, device=device)
    mod.get_function("read_table")((1,), (3,), (out,))
    np.testing.assert_array_equal(ap.asnumpy(out), [1, 2, 3])


# The driver answers CUDA_ERROR_NOT_FOUND for a missing name: a failed call, as the user asked.
@pytest.mark.faults_device
def test_missing_kernel_and_global_names_raise(device):
    mod = ap.RawModule(code=TEMPLATES, name_expressions=["scale<float>", "scale<double>"])
    with pytest.raises(ValueError, match="no kernel named 'nope'"):
        mod.get_function("nope")((1,), (1,), ())
    with pytest.raises(ValueError, match="no __device__"):
        mod.get_global("nope")


@pytest.mark.cuda
def test_cuda_array_interface_arguments(rng):
    x_np = rng.standard_normal(64).astype(np.float32)
    a = ap.asarray(x_np, device="cuda")

    class Foreign:
        def __init__(self, arr):
            self.__cuda_array_interface__ = arr.__cuda_array_interface__
            self._keep = arr

    c = ap.empty(64, dtype=np.float32, device="cuda")
    ap.RawKernel(ADD, "add")((1,), (64,), (Foreign(a), Foreign(a), Foreign(c), np.int32(64)))
    np.testing.assert_array_equal(ap.asnumpy(c), x_np + x_np)


@pytest.mark.parametrize("args, match", [
    ((1, 2, 3), "takes 4 arguments \\(a, b, c, n\\), 3 given"),
    (("A", "B", "C", np.float64(5)), "parameter 3 'n' \\(4 bytes\\).*float64|NumPy scalar"),
    (("A", "B", "C", 2.5), "parameter 3 'n' \\(4 bytes\\).*float64"),
    (("A", "B", "C", np.int64(5)), "parameter 3 'n' \\(4 bytes\\)"),
    (("A", "B", np.float32(1), np.int32(5)), "parameter 2 'c' \\(8 bytes\\)"),
])
def test_bad_arguments_raise_type_error_naming_the_parameter(args, match, device):
    k = ap.RawKernel(ADD, "add")
    if device == "cuda" and k.param_sizes is None:
        pytest.skip("the driver predates CUDA 12.4: no parameter information")
    arrs = {"A": ap.zeros(4, dtype=np.float32, device=device),
            "B": ap.zeros(4, dtype=np.float32, device=device),
            "C": ap.zeros(4, dtype=np.float32, device=device)}
    real = tuple(arrs.get(a, a) if isinstance(a, str) else a for a in args)
    with pytest.raises(TypeError, match=match):
        k((1,), (4,), real)


@pytest.mark.cuda
def test_unsupported_argument_types():
    k = ap.RawKernel(ADD, "add")
    a = ap.zeros(4, dtype=np.float32, device="cuda")
    with pytest.raises(TypeError, match="NumPy arrays"):
        k((1,), (4,), (np.zeros(4, np.float32), a, a, np.int32(4)))
    with pytest.raises(TypeError, match="args must be a tuple"):
        k((1,), (4,), a)
    with pytest.raises(ValueError, match="is an array on cpu"):
        k((1,), (4,), (ap.zeros(4, dtype=np.float32, device="cpu"), a, a, np.int32(4)))
    with pytest.raises(OverflowError, match="cannot hold"):
        k((1,), (4,), (a, a, a, 2**40))


@pytest.mark.parametrize("grid, block, shared, match", [
    ((1,), (2048,), 0, "block dimension x is 2048; the device allows at most 1024"),
    ((1,), (32, 32, 2), 0, "2048 threads is too large.*at most 1024"),
    ((1,), (1, 1, 128), 0, "block dimension z is 128; the device allows at most 64"),
    ((1, 70000), (32,), 0, "grid dimension y is 70000; the device allows at most 65535"),
    ((0,), (32,), 0, "grid dimension x is 0"),
    ((1,), (32,), 1 << 30, "shared memory of 1073741824 bytes.*at most"),
    ((1, 1, 1, 1), (32,), 0, "1 to 3 dimensions"),
    ((-1,), (32,), 0, "between 1 and"),
])
def test_bad_launch_configuration_raises_value_error(grid, block, shared, match, device):
    k = ap.RawKernel(ADD, "add")
    a = ap.zeros(4, dtype=np.float32, device=device)
    with pytest.raises(ValueError, match=match):
        k(grid, block, (a, a, a, np.int32(4)), shared_mem=shared)


@pytest.mark.cuda
def test_register_bound_kernel_limit_comes_from_the_kernel():
    code = ('extern "C" __global__ void __launch_bounds__(128) small(float* x) '
            '{ x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }')
    k = ap.RawKernel(code, "small")
    a = ap.zeros(256, dtype=np.float32, device="cuda")
    assert k.max_threads_per_block == 128
    with pytest.raises(ValueError, match="at most 128 threads per block"):
        k((1,), (256,), (a,))
    k((2,), (128,), (a,))
    np.testing.assert_array_equal(ap.asnumpy(a), np.ones(256, np.float32))


def test_dynamic_shared_memory_above_48k(rng, device):
    code = r"""
    extern "C" __global__ void rev(const float* x, float* y, int n) {
        extern __shared__ float buf[];
        for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = x[i];
        __syncthreads();
        for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = buf[n - 1 - i];
    }"""
    n = 16384  # 64 KiB of shared memory: needs the opt-in attribute
    x_np = rng.standard_normal(n).astype(np.float32)
    x = ap.asarray(x_np, device=device)
    y = ap.empty(n, dtype=np.float32, device=device)
    k = ap.RawKernel(code, "rev")
    k((1,), (256,), (x, y, np.int32(n)), shared_mem=n * 4)
    np.testing.assert_array_equal(ap.asnumpy(y), x_np[::-1])


@pytest.mark.cuda
def test_stream_argument_orders_work(rng):
    x_np = rng.standard_normal(4096).astype(np.float32)
    s = ap.cuda.Stream()
    with s:  # made (and computed) on s: the kernel on s is ordered after them
        a = ap.asarray(x_np, device="cuda")
        c = ap.zeros(4096, dtype=np.float32, device="cuda")
        ap.eval(a, c)
    k = ap.RawKernel(ADD, "add")
    k((16,), (256,), (a, a, c, np.int32(4096)), stream=s)
    s.synchronize()
    with s:
        np.testing.assert_array_equal(ap.asnumpy(c), 2 * x_np)


def test_struct_and_complex_arguments(rng, device):
    code = r"""
    struct Affine { float scale; float shift; };
    extern "C" __global__ void affine(float* x, Affine p, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] = x[i] * p.scale + p.shift;
    }"""
    x_np = rng.standard_normal(100).astype(np.float32)
    x = ap.array(x_np, device=device)  # a copy: on cpu, asarray shares memory
    params = np.array([(2.0, 0.5)], dtype=[("scale", "<f4"), ("shift", "<f4")])
    ap.RawKernel(code, "affine")((1,), (128,), (x, params.tobytes(), 100))
    np.testing.assert_allclose(ap.asnumpy(x), x_np * 2 + 0.5, rtol=1e-6)


def _run(code):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=env, timeout=300)


@pytest.mark.cuda
@pytest.mark.faults_device
@pytest.mark.parametrize("body, error", [
    ("p[threadIdx.x + 1000000] = 1;", "CUDA_ERROR_ILLEGAL_ADDRESS"),
    ("if (p == nullptr) __trap();", "CUDA_ERROR"),
])
def test_device_fault_names_the_kernel_at_the_next_synchronization(body, error):
    r = _run(f"""
        import accelpy as ap
        k = ap.RawKernel('extern "C" __global__ void faulty(int* p) {{ {body} }}', "faulty")
        k((1,), (32,), (0,))  # a null pointer
        try:
            ap.cuda.synchronize()
        except RuntimeError as e:
            print("RAISED", e)
    """)
    assert r.returncode == 0, r.stderr
    assert "RAISED" in r.stdout
    assert error in r.stdout
    assert "faulty (user kernel)" in r.stdout
    assert "restart the process" in r.stdout


@pytest.mark.cuda
def test_compile_log_stream_and_attributes():
    code = 'extern "C" __global__ void w(float* x) { int unused; x[0] = 1.0f; }'
    log = io.StringIO()
    k = ap.RawKernel(code, "w").compile(log_stream=log)
    attrs = k.attributes
    assert attrs["binary_version"] >= 70
    assert set(attrs) >= {"num_regs", "shared_size_bytes", "max_threads_per_block"}
    sizes = k.param_sizes
    assert sizes is None or sizes == [(0, 8)]
