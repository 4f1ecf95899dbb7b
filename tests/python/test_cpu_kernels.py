"""Users' CUDA C kernels on the CPU device (src/cpu/user_kernels/): compiled with the machine's
C++ compiler, blocks across the cores, a block's threads as fibers where the kernel has
barriers or warp primitives. Kernels in the style of the CUDA samples and tutorials (reductions
with shared memory, warp shuffles, atomic histograms, tiled matrix multiply, scans, stencils,
bitonic sort), each checked against NumPy, plus the launch path's checks."""

import shutil

import numpy as np
import pytest

import accelpy as ap

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("c++", "g++", "clang++")), reason="no C++ compiler")


def cpu(x):
    return ap.asarray(x, device="cpu")


def run(code, name, grid, block, args, shared_mem=0, **kw):
    k = ap.RawKernel(code, name, **kw)
    k(grid, block, args, shared_mem=shared_mem)
    return k


ADD = r"""
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


def test_add_matches_numpy(rng):
    n = 1000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = cpu(np.zeros(n, np.float32))
    run(ADD, "add", ((n + 255) // 256,), (256,), (cpu(a), cpu(b), c, np.int32(n)))
    np.testing.assert_array_equal(ap.asnumpy(c), a + b)


# Reduction with shared memory and __syncthreads (CUDA samples, reduction kernel 3; BSD-3).
REDUCE = r"""
extern "C" __global__ void reduce(const float* in, float* out, unsigned n) {
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float s = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n) s += in[i + blockDim.x];
    sdata[tid] = s;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (tid < k) sdata[tid] = s = s + sdata[tid + k];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s;
}
"""


def test_shared_memory_reduction_needs_its_barriers(rng):
    n, block = 10000, 128
    x = rng.integers(0, 10, n).astype(np.float32)
    blocks = (n + 2 * block - 1) // (2 * block)
    out = cpu(np.zeros(blocks, np.float32))
    run(REDUCE, "reduce", (blocks,), (block,), (cpu(x), out, np.uint32(n)),
        shared_mem=block * 4)
    assert ap.asnumpy(out).sum() == x.sum()


# Warp-shuffle reduction (NVIDIA blog "Faster Parallel Reductions on Kepler"; public).
WARP = r"""
__inline__ __device__ int warp_sum(int v) {
    for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}
extern "C" __global__ void block_sum(const int* in, int* out, int n) {
    static __shared__ int shared[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
    int v = warp_sum(i < n ? in[i] : 0);
    if (lane == 0) shared[wid] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / warpSize ? shared[lane] : 0;
    if (wid == 0) v = warp_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
}
"""


def test_warp_shuffle_reduction(rng):
    n = 5000
    x = rng.integers(-100, 100, n).astype(np.int32)
    out = cpu(np.zeros(1, np.int32))
    run(WARP, "block_sum", ((n + 255) // 256,), (256,), (cpu(x), out, np.int32(n)))
    assert int(ap.asnumpy(out)[0]) == int(x.sum())


# Histogram with shared-memory atomics (CUDA by Example, ch. 9; public sample code).
HIST = r"""
extern "C" __global__ void histo(const unsigned char* buf, long size, unsigned* histo) {
    __shared__ unsigned temp[256];
    temp[threadIdx.x] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x, stride = blockDim.x * gridDim.x;
    while (i < size) { atomicAdd(&temp[buf[i]], 1u); i += stride; }
    __syncthreads();
    atomicAdd(&histo[threadIdx.x], temp[threadIdx.x]);
}
"""


def test_atomic_histogram(rng):
    data = rng.integers(0, 256, 100000).astype(np.uint8)
    h = cpu(np.zeros(256, np.uint32))
    run(HIST, "histo", (8,), (256,), (cpu(data), np.int64(data.size), h))
    np.testing.assert_array_equal(ap.asnumpy(h), np.bincount(data, minlength=256))


# Tiled matrix multiply (CUDA C Programming Guide, "Shared Memory"; public).
MATMUL = r"""
#define TILE 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < n && ac < n ? A[row * n + ac] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = br < n && col < n ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}
"""


def test_tiled_matmul(rng):
    n = 70
    a = rng.integers(-3, 4, (n, n)).astype(np.float32)
    b = rng.integers(-3, 4, (n, n)).astype(np.float32)
    c = cpu(np.zeros((n, n), np.float32))
    g = (n + 15) // 16
    run(MATMUL, "matmul", (g, g), (16, 16), (cpu(a), cpu(b), c, np.int32(n)))
    np.testing.assert_array_equal(ap.asnumpy(c), a @ b)


# Hillis-Steele inclusive scan in one block (GPU Gems 3, ch. 39; public).
SCAN = r"""
extern "C" __global__ void scan(const int* in, int* out, int n) {
    extern __shared__ int temp[];
    int t = threadIdx.x, pout = 0, pin = 1;
    temp[t] = t < n ? in[t] : 0;
    __syncthreads();
    for (int off = 1; off < n; off *= 2) {
        pout = 1 - pout; pin = 1 - pout;
        temp[pout * n + t] = temp[pin * n + t] + (t >= off ? temp[pin * n + t - off] : 0);
        __syncthreads();
    }
    if (t < n) out[t] = temp[pout * n + t];
}
"""


def test_scan(rng):
    n = 512
    x = rng.integers(-5, 5, n).astype(np.int32)
    out = cpu(np.zeros(n, np.int32))
    run(SCAN, "scan", (1,), (n,), (cpu(x), out, np.int32(n)), shared_mem=2 * n * 4)
    np.testing.assert_array_equal(ap.asnumpy(out), np.cumsum(x))


# 1-D stencil with halo in shared memory (NVIDIA "CUDA C/C++ Basics" slides; public).
STENCIL = r"""
#define RADIUS 3
#define BLOCK 128
extern "C" __global__ void stencil(const int* in, int* out, int n) {
    __shared__ int temp[BLOCK + 2 * RADIUS];
    int g = threadIdx.x + blockIdx.x * blockDim.x, l = threadIdx.x + RADIUS;
    temp[l] = g < n ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        temp[l - RADIUS] = g >= RADIUS && g - RADIUS < n ? in[g - RADIUS] : 0;
        temp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
    }
    __syncthreads();
    int r = 0;
    for (int o = -RADIUS; o <= RADIUS; ++o) r += temp[l + o];
    if (g < n) out[g] = r;
}
"""


def test_stencil(rng):
    n = 1000
    x = rng.integers(0, 100, n).astype(np.int32)
    out = cpu(np.zeros(n, np.int32))
    run(STENCIL, "stencil", ((n + 127) // 128,), (128,), (cpu(x), out, np.int32(n)))
    want = np.convolve(x, np.ones(7, np.int32), mode="same")
    np.testing.assert_array_equal(ap.asnumpy(out), want)


# Bitonic sort in one block (CUDA samples, sortingNetworks; BSD-3).
BITONIC = r"""
extern "C" __global__ void bitonic(int* data, int n) {
    extern __shared__ int s[];
    unsigned t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    for (unsigned k = 2; k <= n; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned p = t ^ j;
            if (p > t) {
                bool up = (t & k) == 0;
                if ((s[t] > s[p]) == up) { int x = s[t]; s[t] = s[p]; s[p] = x; }
            }
            __syncthreads();
        }
    }
    data[t] = s[t];
}
"""


def test_bitonic_sort(rng):
    n = 1024
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    d = cpu(x.copy())
    run(BITONIC, "bitonic", (1,), (n,), (d, np.int32(n)), shared_mem=n * 4)
    np.testing.assert_array_equal(ap.asnumpy(d), np.sort(x))


def test_ballot_any_all_and_shuffle_xor():
    code = r"""
    extern "C" __global__ void k(const int* in, unsigned* ballot, int* anyall, int* bfly) {
        int t = threadIdx.x;
        unsigned b = __ballot_sync(0xffffffff, in[t] > 0);
        int a = __any_sync(0xffffffff, in[t] > 5), l = __all_sync(0xffffffff, in[t] >= 0);
        int v = in[t];
        for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
        if (t % 32 == 0) {
            ballot[t / 32] = b; anyall[2 * (t / 32)] = a; anyall[2 * (t / 32) + 1] = l;
        }
        bfly[t] = v;
    }
    """
    x = np.zeros(64, np.int32)
    x[[1, 3, 40]] = [2, 7, 1]
    ballot = cpu(np.zeros(2, np.uint32))
    anyall = cpu(np.zeros(4, np.int32))
    bfly = cpu(np.zeros(64, np.int32))
    run(code, "k", (1,), (64,), (cpu(x), ballot, anyall, bfly))
    assert list(ap.asnumpy(ballot)) == [0b1010, 1 << 8]
    assert list(ap.asnumpy(anyall)) == [1, 1, 0, 1]
    assert list(ap.asnumpy(bfly)) == [9] * 32 + [1] * 32


def test_math_intrinsics_and_vector_types():
    code = r"""
    extern "C" __global__ void k(float* out) {
        float4 v = make_float4(1.0f, 4.0f, 9.0f, 16.0f);
        out[0] = rsqrtf(v.y); out[1] = __fdividef(v.z, 3.0f); out[2] = fmaf(v.x, 2.0f, 1.0f);
        out[3] = (float)__float2int_rn(2.5f); out[4] = (float)__popc(0xF0u);
        out[5] = min(3, 7) + max(2.0f, 1.0f); out[6] = __saturatef(1.5f);
        out[7] = (float)(blockDim.x * gridDim.x);
    }
    """
    out = cpu(np.zeros(8, np.float32))
    run(code, "k", (1,), (1,), (out,))
    np.testing.assert_allclose(ap.asnumpy(out), [0.5, 3, 3, 2, 4, 5, 1, 1])


def test_templates_through_name_expressions_and_globals():
    code = r"""
    template <typename T> __global__ void scale(T* x, T f, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] = x[i] * f;
    }
    __device__ int table[3] = {1, 2, 3};
    extern "C" __global__ void read_table(int* out) { out[threadIdx.x] = table[threadIdx.x]; }
    """
    mod = ap.RawModule(code=code, name_expressions=["scale<float>", "scale<double>"])
    x = cpu(np.arange(5, dtype=np.float64))
    mod.get_function("scale<double>")((1,), (32,), (x, np.float64(2), np.int32(5)))
    np.testing.assert_array_equal(ap.asnumpy(x), np.arange(5) * 2.0)
    out = cpu(np.zeros(3, np.int32))
    mod.get_function("read_table")((1,), (3,), (out,))
    assert list(ap.asnumpy(out)) == [1, 2, 3]
    g = mod.get_global("table")
    assert g.size == 12


def test_bad_arguments_and_launches_raise_as_on_a_gpu():
    k = ap.RawKernel(ADD, "add")
    a = cpu(np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="takes 4 arguments"):
        k((1,), (4,), (a, a, a))
    with pytest.raises(TypeError, match="parameter 3 'n'"):
        k((1,), (4,), (a, a, a, np.int64(4)))
    with pytest.raises(TypeError, match="expected an accelpy CUDA array"):
        k((1,), (4,), (a, a, np.zeros(4, np.float32), np.int32(4)))
    with pytest.raises(ValueError, match="block dimension x is 2048"):
        k((1,), (2048,), (a, a, a, np.int32(4)))
    with pytest.raises(ValueError, match="too large"):
        k((1,), (32, 32, 2), (a, a, a, np.int32(4)))
    with pytest.raises(ValueError, match="grid dimension x is 0"):
        k((0,), (4,), (a, a, a, np.int32(4)))


def test_compile_error_carries_the_compilers_log_and_lines():
    code = "extern \"C\" __global__ void bad(float* x) {\n    x[0] = undefined_name;\n}\n"
    with pytest.raises(ap.CompileError) as info:
        ap.RawKernel(code, "bad").compile()
    e = info.value
    assert "undefined_name" in e.log and e.name == "bad"
    assert ">" in e.source_lines and "x[0] = undefined_name;" in e.source_lines


def test_assert_in_a_kernel_raises_after_the_launch():
    code = r"""
    extern "C" __global__ void k(const int* x) { assert(x[threadIdx.x] >= 0); }
    """
    x = cpu(np.array([1, 2, -1, 4], np.int32))
    with pytest.raises(RuntimeError, match="Assertion `x\\[threadIdx.x\\] >= 0` failed"):
        run(code, "k", (1,), (4,), (x,))


def test_barrier_divergence_is_reported_in_the_checked_mode(monkeypatch):
    code = r"""
    extern "C" __global__ void k(int* x) {
        if (threadIdx.x % 2) { __syncthreads(); x[threadIdx.x] = 1; }
        else { __syncthreads(); x[threadIdx.x] = 2; }
    }
    """
    x = cpu(np.zeros(4, np.int32))
    run(code, "k", (1,), (4,), (x,))  # unchecked: runs
    monkeypatch.setenv("ACCELPY_KERNEL_CHECK", "1")
    with pytest.raises(RuntimeError, match="barrier divergence"):
        run(code, "k", (1,), (4,), (x,))


def test_disk_cache_hit_in_a_new_module(tmp_path):
    code = ADD.replace("add", "add_cached")
    k = ap.RawKernel(code, "add_cached", cache_dir=str(tmp_path))
    k.compile()
    assert list((tmp_path / "kernels").iterdir())
