"""The checked mode of users' kernels on the CPU (ACCELPY_KERNEL_CHECK=1, or the option
-DACCELPY_KERNEL_CHECK): an access through a kernel's pointer argument outside its array raises
IndexError naming the kernel, the argument and the index, instead of corrupting memory; kernels
that stay in bounds give the same results as unchecked."""

import inspect
import shutil

import numpy as np
import pytest
import test_cpu_kernels
import test_kernel_corpus

import accelpy as ap

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("c++", "g++", "clang++")), reason="no C++ compiler")


@pytest.fixture
def checked(monkeypatch):
    monkeypatch.setenv("ACCELPY_KERNEL_CHECK", "1")


def cpu(x):
    return ap.asarray(x, device="cpu")


COPY = r"""
extern "C" __global__ void copy(const float* __restrict__ src, float *dst, int shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dst[i] = src[i + shift];
}
"""


@pytest.mark.parametrize("n", [1, 100, 1000])
def test_a_read_past_the_end_names_kernel_argument_and_index(checked, rng, n):
    src = cpu(rng.standard_normal(n).astype(np.float32))
    dst = cpu(np.zeros(n + 5, np.float32))
    with pytest.raises(IndexError, match=rf"kernel 'copy': argument 0 \('src'\): index {n} is out "
                                         rf"of bounds for its {n} elements"):
        ap.RawKernel(COPY, "copy")((1,), (n + 1,), (src, dst, np.int32(0)))


def test_a_write_before_the_start_is_caught(checked, rng):
    src = cpu(rng.standard_normal(64).astype(np.float32))
    dst = cpu(np.zeros(64, np.float32))
    # dst[i] with i = -1 for thread 0: a shift of -1 reads src[-1] first.
    with pytest.raises(IndexError, match=r"argument 0 \('src'\): index -1 is out of bounds"):
        ap.RawKernel(COPY, "copy")((1,), (64,), (src, dst, np.int32(-1)))
    with pytest.raises(IndexError, match=r"argument 1 \('dst'\): index 64 is out of bounds for "
                                         r"its 64 elements"):
        ap.RawKernel(COPY, "copy")((1,), (65,), (cpu(np.zeros(80, np.float32)), dst,
                                                  np.int32(0)))


def test_in_bounds_kernels_give_the_unchecked_results(rng, monkeypatch):
    n = 768  # a whole number of blocks: COPY has no guard
    a = rng.standard_normal(n + 3).astype(np.float32)
    out = {}
    for mode in ("0", "1"):
        monkeypatch.setenv("ACCELPY_KERNEL_CHECK", mode)
        dst = cpu(np.zeros(n, np.float32))
        ap.RawKernel(COPY, "copy")((n // 128,), (128,), (cpu(a), dst, np.int32(3)))
        out[mode] = ap.asnumpy(dst)
    np.testing.assert_array_equal(out["0"], a[3:3 + n])
    np.testing.assert_array_equal(out["1"], out["0"])


ROWS = r"""
extern "C" __global__ void row_sums(const double* m, double* out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    double s = 0;
    for (int c = 0; c <= cols; ++c) s += *(m + r * cols + c);  // one too far: the next row's
    out[r] = s;
}
"""


def test_pointer_arithmetic_keeps_the_bounds(checked, rng):
    m = rng.standard_normal((8, 5))
    out = cpu(np.zeros(8))
    # Every row but the last reads into the next row (inside the array); the last leaves it.
    with pytest.raises(IndexError, match=r"kernel 'row_sums': argument 0 \('m'\): index 40 is out "
                                         r"of bounds for its 40 elements"):
        ap.RawKernel(ROWS, "row_sums")((1,), (8,), (cpu(m), out, np.int32(8), np.int32(5)))


HISTOGRAM = r"""
extern "C" __global__ void histogram(const int* values, unsigned int* bins, int n) {
    __shared__ unsigned int local[16];
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[values[i]], 1u);
    __syncthreads();
}
"""


def test_atomics_on_a_bad_address_and_kernels_with_barriers(checked, rng):
    v = rng.integers(0, 16, 500).astype(np.int32)
    bins = cpu(np.zeros(16, np.uint32))
    k = ap.RawKernel(HISTOGRAM, "histogram")
    k((4,), (128,), (cpu(v), bins, np.int32(500)))
    np.testing.assert_array_equal(ap.asnumpy(bins), np.bincount(v, minlength=16))
    v[123] = 16
    with pytest.raises(IndexError, match=r"argument 1 \('bins'\): index 16 is out of bounds for "
                                         r"its 16 elements \(thread \(123,0,0\) of block "
                                         r"\(0,0,0\)\)"):
        k((4,), (128,), (cpu(v), cpu(np.zeros(16, np.uint32)), np.int32(500)))
    # The launcher is left in order: the next launch runs.
    bins = cpu(np.zeros(16, np.uint32))
    k((4,), (128,), (cpu(v[:100]), bins, np.int32(100)))
    np.testing.assert_array_equal(ap.asnumpy(bins), np.bincount(v[:100], minlength=16))


def test_the_option_turns_it_on_without_the_environment(rng, monkeypatch):
    monkeypatch.delenv("ACCELPY_KERNEL_CHECK", raising=False)
    src = cpu(np.ones(10, np.float32))
    with pytest.raises(IndexError, match="index 10 is out of bounds for its 10 elements"):
        ap.RawKernel(COPY, "copy", options=("-DACCELPY_KERNEL_CHECK",))(
            (1,), (11,), (src, cpu(np.zeros(11, np.float32)), np.int32(0)))


def test_struct_and_vector_pointers(checked):
    code = r"""
    extern "C" __global__ void swap_xy(float2* p, int n) {
        int i = threadIdx.x;
        if (i <= n) { float t = p[i].x; p[i].x = p[i].y; p->y += 0.0f; p[i].y = t; }
    }
    """
    a = np.arange(8, dtype=np.float32)
    x = cpu(a.copy())
    ap.RawKernel(code, "swap_xy")((1,), (3,), (x, np.int32(2)))
    np.testing.assert_array_equal(ap.asnumpy(x), [1, 0, 3, 2, 5, 4, 6, 7])
    with pytest.raises(IndexError, match=r"argument 0 \('p'\): index 4 is out of bounds for its "
                                         r"4 elements"):
        ap.RawKernel(code, "swap_xy")((1,), (5,), (cpu(a), np.int32(4)))


def _corpus():
    """Every CPU corpus test that takes only rng (and device): they must compile and pass
    with every pointer parameter checked."""
    out = []
    for mod in (test_kernel_corpus, test_cpu_kernels):
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            params = set(inspect.signature(fn).parameters)
            marks = {m.name for m in getattr(fn, "pytestmark", [])}
            if (name.startswith("test_") and params <= {"rng", "device"} and "rng" in params
                    and "cuda" not in marks):
                out.append(pytest.param(fn, id=f"{mod.__name__}.{name}"))
    return out


@pytest.mark.parametrize("case", _corpus())
def test_the_corpus_passes_checked(checked, rng, case):
    kwargs = {"rng": rng}
    if "device" in inspect.signature(case).parameters:
        kwargs["device"] = ap.device("cpu")
    with ap.device("cpu"):
        case(**kwargs)
