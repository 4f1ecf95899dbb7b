"""Kernels from public CUDA samples and tutorials, on every device (the CPU device always, the
GPU in scripts/gpu-check), each checked against NumPy: bit-identical for integer kernels and for
float kernels whose values are exact (small integers), and a GPU-vs-CPU comparison where a GPU
is present. With the eight kernels of test_cpu_kernels.py they make a corpus of twenty-five.

Each kernel names where it comes from and that source's licence; they are written again in the
source's structure (names, indexing, barriers), trimmed to one kernel."""

import shutil

import numpy as np
import pytest

import accelpy as ap

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("c++", "g++", "clang++")), reason="no C++ compiler")


def launch(code, name, grid, block, args, shared_mem=0):
    ap.RawKernel(code, name)(grid, block, args, shared_mem=shared_mem)


# 1. CUDA samples, 0_Introduction/vectorAdd (BSD-3-Clause, NVIDIA).
VECTOR_ADD = r"""
extern "C" __global__ void vectorAdd(const float *A, const float *B, float *C, int numElements) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements) C[i] = A[i] + B[i];
}
"""


def test_vector_add(rng, device):
    n = 50000
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    c = ap.zeros(n, dtype=np.float32, device=device)
    launch(VECTOR_ADD, "vectorAdd", ((n + 255) // 256,), (256,),
           (ap.array(a, device=device), ap.array(b, device=device), c, np.int32(n)))
    np.testing.assert_array_equal(ap.asnumpy(c), a + b)


# 2. NVIDIA developer blog, "An Easy Introduction to CUDA C and C++" saxpy (BSD-3-Clause,
#    NVIDIA-developer-blog/code-samples). Integer-valued data: exact with or without an FMA.
SAXPY = r"""
extern "C" __global__ void saxpy(int n, float a, float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def test_saxpy(rng, device):
    n = 10000
    x = rng.integers(-1000, 1000, n).astype(np.float32)
    y = rng.integers(-1000, 1000, n).astype(np.float32)
    yd = ap.array(y, device=device)
    launch(SAXPY, "saxpy", ((n + 255) // 256,), (256,),
           (np.int32(n), np.float32(2), ap.array(x, device=device), yd))
    np.testing.assert_array_equal(ap.asnumpy(yd), 2 * x + y)


# 3. NVIDIA developer blog, "An Efficient Matrix Transpose in CUDA C/C++", transposeNoBankConflicts
#    (BSD-3-Clause, NVIDIA-developer-blog/code-samples).
TRANSPOSE = r"""
#define TILE_DIM 32
#define BLOCK_ROWS 8
extern "C" __global__ void transposeNoBankConflicts(int *odata, const int *idata) {
    __shared__ int tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}
"""


def test_transpose(rng, device):
    a = rng.integers(-2**31, 2**31 - 1, (96, 96)).astype(np.int32)
    out = ap.zeros((96, 96), dtype=np.int32, device=device)
    launch(TRANSPOSE, "transposeNoBankConflicts", (3, 3), (32, 8),
           (out, ap.array(a, device=device)))
    np.testing.assert_array_equal(ap.asnumpy(out), a.T)


# 4. CUDA samples, 2_Concepts_and_Techniques/reduction, reduce0 (interleaved addressing;
#    BSD-3-Clause, NVIDIA).
REDUCE0 = r"""
extern "C" __global__ void reduce0(const int *g_idata, int *g_odata, unsigned int n) {
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
"""


def test_interleaved_reduction(rng, device):
    n, block = 7777, 256
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    blocks = (n + block - 1) // block
    out = ap.zeros(blocks, dtype=np.int32, device=device)
    launch(REDUCE0, "reduce0", (blocks,), (block,),
           (ap.array(x, device=device), out, np.uint32(n)), shared_mem=block * 4)
    want = np.add.reduceat(x, np.arange(0, n, block))
    np.testing.assert_array_equal(ap.asnumpy(out), want)


# 5. CUDA samples, 2_Concepts_and_Techniques/histogram, histogram256 with per-block shared
#    sub-histograms merged by atomics (BSD-3-Clause, NVIDIA), one sub-histogram per block.
HISTOGRAM = r"""
extern "C" __global__ void histogram256Kernel(unsigned int *d_Histogram,
                                              const unsigned char *d_Data, unsigned int dataCount) {
    __shared__ unsigned int s_Hist[256];
    for (unsigned int i = threadIdx.x; i < 256; i += blockDim.x) s_Hist[i] = 0;
    __syncthreads();
    for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount;
         pos += blockDim.x * gridDim.x)
        atomicAdd(&s_Hist[d_Data[pos]], 1u);
    __syncthreads();
    for (unsigned int i = threadIdx.x; i < 256; i += blockDim.x)
        atomicAdd(&d_Histogram[i], s_Hist[i]);
}
"""


def test_shared_histogram(rng, device):
    n = 100000
    data = rng.integers(0, 256, n).astype(np.uint8)
    hist = ap.zeros(256, dtype=np.uint32, device=device)
    launch(HISTOGRAM, "histogram256Kernel", (16,), (192,),
           (hist, ap.array(data, device=device), np.uint32(n)))
    np.testing.assert_array_equal(ap.asnumpy(hist), np.bincount(data, minlength=256))


# 6. GPU Gems 3, chapter 39 "Parallel Prefix Sum (Scan) with CUDA", the work-efficient
#    (Blelloch) exclusive scan of one block (NVIDIA, published free of charge).
BLELLOCH = r"""
extern "C" __global__ void prescan(int *g_odata, const int *g_idata, int n) {
    extern __shared__ int temp[];
    int thid = threadIdx.x;
    int offset = 1;
    temp[2 * thid] = g_idata[2 * thid];
    temp[2 * thid + 1] = g_idata[2 * thid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g_odata[2 * thid] = temp[2 * thid];
    g_odata[2 * thid + 1] = temp[2 * thid + 1];
}
"""


def test_blelloch_exclusive_scan(rng, device):
    n = 1024
    x = rng.integers(-100, 100, n).astype(np.int32)
    out = ap.zeros(n, dtype=np.int32, device=device)
    launch(BLELLOCH, "prescan", (1,), (n // 2,),
           (out, ap.array(x, device=device), np.int32(n)), shared_mem=n * 4)
    np.testing.assert_array_equal(ap.asnumpy(out), np.concatenate([[0], np.cumsum(x)[:-1]]))


# 7. Jacobi iteration of Laplace's equation, 5-point stencil (NVIDIA OpenACC/CUDA training
#    "Jacobi" example; public). Values are multiples of 4: the average is exact.
JACOBI = r"""
extern "C" __global__ void jacobi(const float *A, float *Anew, int n, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < n - 1 && j > 0 && j < m - 1)
        Anew[j * n + i] = 0.25f * (A[j * n + i + 1] + A[j * n + i - 1] +
                                   A[(j - 1) * n + i] + A[(j + 1) * n + i]);
}
"""


def test_jacobi_stencil(rng, device):
    m, n = 45, 70
    a = (rng.integers(-500, 500, (m, n)) * 4).astype(np.float32)
    out = ap.zeros((m, n), dtype=np.float32, device=device)
    launch(JACOBI, "jacobi", ((n + 15) // 16, (m + 15) // 16), (16, 16),
           (ap.array(a, device=device), out, np.int32(n), np.int32(m)))
    want = np.zeros_like(a)
    want[1:-1, 1:-1] = 0.25 * (a[1:-1, 2:] + a[1:-1, :-2] + a[:-2, 1:-1] + a[2:, 1:-1])
    np.testing.assert_array_equal(ap.asnumpy(out), want)


# 8. NVIDIA developer blog, "Using CUDA Warp-Level Primitives": butterfly reduction with
#    __shfl_xor_sync (BSD-3-Clause, NVIDIA-developer-blog/code-samples style).
BUTTERFLY = r"""
extern "C" __global__ void warp_allreduce(const int *in, int *out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int i = 16; i >= 1; i /= 2) v += __shfl_xor_sync(0xffffffff, v, i, 32);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
"""


def test_butterfly_warp_allreduce(rng, device):
    x = rng.integers(-10**6, 10**6, 8 * 64).astype(np.int32)
    out = ap.zeros(x.size, dtype=np.int32, device=device)
    launch(BUTTERFLY, "warp_allreduce", (8,), (64,), (ap.array(x, device=device), out))
    np.testing.assert_array_equal(ap.asnumpy(out), np.repeat(x.reshape(-1, 32).sum(1), 32))


# 9. NVIDIA developer blog, "CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics"
#    (BSD-3-Clause, NVIDIA-developer-blog/code-samples): stream compaction of positives.
FILTER = r"""
__device__ int atomicAggInc(int *ctr) {
    unsigned int active = __activemask();
    int leader = __ffs(active) - 1;
    int change = __popc(active);
    unsigned int rank = __popc(active & ((1u << (threadIdx.x % 32)) - 1));
    int warp_res;
    if (rank == 0) warp_res = atomicAdd(ctr, change);
    warp_res = __shfl_sync(active, warp_res, leader);
    return warp_res + rank;
}
extern "C" __global__ void filter_k(int *dst, int *nres, const int *src, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && src[i] > 0) dst[atomicAggInc(nres)] = src[i];
}
"""


def test_warp_aggregated_filter(rng, device):
    n = 5000
    x = rng.integers(-100, 100, n).astype(np.int32)
    dst = ap.zeros(n, dtype=np.int32, device=device)
    count = ap.zeros(1, dtype=np.int32, device=device)
    launch(FILTER, "filter_k", ((n + 127) // 128,), (128,),
           (dst, count, ap.array(x, device=device), np.int32(n)))
    k = int(ap.asnumpy(count)[0])
    assert k == int((x > 0).sum())
    np.testing.assert_array_equal(np.sort(ap.asnumpy(dst)[:k]), np.sort(x[x > 0]))


# 10. CUDA C Programming Guide, atomic functions: atomicMax/atomicMin over an array
#     (NVIDIA documentation example pattern; public).
MINMAX = r"""
extern "C" __global__ void minmax(const int *x, int n, int *lo, int *hi) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicMin(lo, x[i]);
        atomicMax(hi, x[i]);
    }
}
"""


def test_atomic_min_max(rng, device):
    x = rng.integers(-2**31, 2**31 - 1, 20000).astype(np.int32)
    lo = ap.array(np.array([2**31 - 1], np.int32), device=device)
    hi = ap.array(np.array([-2**31], np.int32), device=device)
    launch(MINMAX, "minmax", (8,), (128,), (ap.array(x, device=device), np.int32(x.size), lo, hi))
    assert ap.asnumpy(lo)[0] == x.min() and ap.asnumpy(hi)[0] == x.max()


# 11. Odd-even transposition sort of one block in shared memory (Kirk & Hwu, "Programming
#     Massively Parallel Processors", sorting exercises; textbook pattern, public).
ODD_EVEN = r"""
extern "C" __global__ void odd_even_sort(int *a, int n) {
    extern __shared__ int s[];
    int t = threadIdx.x;
    for (int i = t; i < n; i += blockDim.x) s[i] = a[i];
    for (int phase = 0; phase < n; ++phase) {
        __syncthreads();
        for (int i = 2 * t + (phase & 1); i + 1 < n; i += 2 * blockDim.x) {
            if (s[i] > s[i + 1]) { int tmp = s[i]; s[i] = s[i + 1]; s[i + 1] = tmp; }
        }
    }
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) a[i] = s[i];
}
"""


def test_odd_even_transposition_sort(rng, device):
    n = 300
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    a = ap.array(x, device=device)
    launch(ODD_EVEN, "odd_even_sort", (1,), (64,), (a, np.int32(n)), shared_mem=n * 4)
    np.testing.assert_array_equal(ap.asnumpy(a), np.sort(x))


# 12. Matrix-vector product, one thread per row (CUDA C Programming Guide style "MatVec"
#     tutorial kernel; public). Small integers: exact in float32.
MATVEC = r"""
extern "C" __global__ void matvec(const float *A, const float *x, float *y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c) s += A[r * cols + c] * x[c];
        y[r] = s;
    }
}
"""


def test_matvec(rng, device):
    a = rng.integers(-8, 8, (300, 129)).astype(np.float32)
    x = rng.integers(-8, 8, 129).astype(np.float32)
    y = ap.zeros(300, dtype=np.float32, device=device)
    launch(MATVEC, "matvec", (3,), (128,),
           (ap.array(a, device=device), ap.array(x, device=device), y, np.int32(300),
            np.int32(129)))
    np.testing.assert_array_equal(ap.asnumpy(y), a @ x)


# 13. CUDA samples, 2_Concepts_and_Techniques/sortingNetworks, bitonicSortShared (BSD-3-Clause,
# NVIDIA): two elements per thread, the comparator as in the sample.
BITONIC_SHARED = r"""
__device__ inline void Comparator(unsigned &keyA, unsigned &keyB, unsigned dir) {
    unsigned t;
    if ((keyA > keyB) == dir) { t = keyA; keyA = keyB; keyB = t; }
}
extern "C" __global__ void bitonicSortShared(unsigned *d_DstKey, const unsigned *d_SrcKey,
                                             unsigned arrayLength, unsigned dir) {
    extern __shared__ unsigned s_key[];
    d_SrcKey += blockIdx.x * arrayLength + threadIdx.x;
    d_DstKey += blockIdx.x * arrayLength + threadIdx.x;
    s_key[threadIdx.x + 0] = d_SrcKey[0];
    s_key[threadIdx.x + (arrayLength / 2)] = d_SrcKey[(arrayLength / 2)];
    for (unsigned size = 2; size < arrayLength; size <<= 1) {
        unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            Comparator(s_key[pos + 0], s_key[pos + stride], ddd);
        }
    }
    for (unsigned stride = arrayLength / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(s_key[pos + 0], s_key[pos + stride], dir);
    }
    __syncthreads();
    d_DstKey[0] = s_key[threadIdx.x + 0];
    d_DstKey[(arrayLength / 2)] = s_key[threadIdx.x + (arrayLength / 2)];
}
"""


@pytest.mark.parametrize("direction", [0, 1])
def test_bitonic_sort_shared(rng, device, direction):
    length, batches = 1024, 3
    keys = rng.integers(0, 2**32, (batches, length), dtype=np.uint64).astype(np.uint32)
    out = ap.zeros((batches, length), dtype=np.uint32, device=device)
    launch(BITONIC_SHARED, "bitonicSortShared", (batches,), (length // 2,),
           (out, ap.array(keys, device=device), np.uint32(length), np.uint32(direction)),
           shared_mem=length * 4)
    want = np.sort(keys, axis=1)
    np.testing.assert_array_equal(ap.asnumpy(out), want if direction else want[:, ::-1])


# 14. NVIDIA developer blog, "Faster Parallel Reductions on Kepler" (code-samples repository,
# BSD-3-Clause): warpReduceSum with __shfl_down_sync, blockReduceSum (a barrier inside a
# __device__ function), deviceReduceKernel over a grid-stride loop.
SHFL_REDUCE = r"""
__inline__ __device__ int warpReduceSum(int val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}
__inline__ __device__ int blockReduceSum(int val) {
    static __shared__ int shared[32];
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    val = warpReduceSum(val);
    if (lane == 0) shared[wid] = val;
    __syncthreads();
    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
    if (wid == 0) val = warpReduceSum(val);
    return val;
}
extern "C" __global__ void deviceReduceKernel(const int *in, int *out, int N) {
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
"""


def test_warp_shuffle_block_reduction(rng, device):
    n, blocks = 100_003, 8
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    partial = ap.zeros(blocks, dtype=np.int32, device=device)
    launch(SHFL_REDUCE, "deviceReduceKernel", (blocks,), (512,),
           (ap.array(x, device=device), partial, np.int32(n)))
    total = ap.zeros(1, dtype=np.int32, device=device)
    launch(SHFL_REDUCE, "deviceReduceKernel", (1,), (1024,), (partial, total, np.int32(blocks)))
    assert int(ap.asnumpy(total)[0]) == int(x.sum())
    block_of = np.arange(n) // 512 % blocks  # the grid-stride loop's block for each element
    want = np.array([x[block_of == b].sum() for b in range(blocks)])
    np.testing.assert_array_equal(ap.asnumpy(partial), want)


# 15. NVIDIA developer blog, "GPU Pro Tip: Fast Histograms Using Shared Atomics on Maxwell"
# (code-samples repository, BSD-3-Clause): histogram_gmem_atomics, one partial histogram per
# block in global memory, then histogram_final_accum adds them.
GMEM_HISTOGRAM = r"""
#define NUM_BINS 64
extern "C" __global__ void histogram_gmem_atomics(const unsigned char *in, int width,
                                                  int height, unsigned *out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int nx = blockDim.x * gridDim.x, ny = blockDim.y * gridDim.y;
    int t = threadIdx.x + threadIdx.y * blockDim.x;
    int nt = blockDim.x * blockDim.y;
    int g = blockIdx.x + blockIdx.y * gridDim.x;
    out += g * NUM_BINS;
    for (int i = t; i < NUM_BINS; i += nt) out[i] = 0;
    __syncthreads();
    for (int col = x; col < width; col += nx)
        for (int row = y; row < height; row += ny)
            atomicAdd(&out[in[row * width + col] % NUM_BINS], 1u);
}
extern "C" __global__ void histogram_final_accum(const unsigned *in, int n, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NUM_BINS) {
        unsigned total = 0;
        for (int j = 0; j < n; j++) total += in[i + NUM_BINS * j];
        out[i] = total;
    }
}
"""


def test_global_atomics_histogram(rng, device):
    height, width = 200, 300
    img = rng.integers(0, 256, (height, width)).astype(np.uint8)
    grid = (4, 3)
    partial = ap.zeros((12, 64), dtype=np.uint32, device=device)
    launch(GMEM_HISTOGRAM, "histogram_gmem_atomics", grid, (32, 4),
           (ap.array(img, device=device), np.int32(width), np.int32(height), partial))
    out = ap.zeros(64, dtype=np.uint32, device=device)
    launch(GMEM_HISTOGRAM, "histogram_final_accum", (1,), (64,), (partial, np.int32(12), out))
    np.testing.assert_array_equal(ap.asnumpy(out), np.bincount(img.ravel() % 64, minlength=64))
    assert int(ap.asnumpy(partial).sum()) == img.size


# 16. CUDA samples, 2_Concepts_and_Techniques/shfl_scan, shfl_scan_test (BSD-3-Clause, NVIDIA):
# an inclusive scan of each block with __shfl_up_sync, warp sums through shared memory.
SHFL_SCAN = r"""
extern "C" __global__ void shfl_scan_test(int *data, int width, int *partial_sums) {
    extern __shared__ int sums[];
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    int lane_id = id % warpSize;
    int warp_id = threadIdx.x / warpSize;
    int value = data[id];
    for (int i = 1; i <= width; i *= 2) {
        unsigned int mask = 0xffffffff;
        int n = __shfl_up_sync(mask, value, i, width);
        if (lane_id >= i) value += n;
    }
    if (threadIdx.x % warpSize == warpSize - 1) sums[warp_id] = value;
    __syncthreads();
    if (warp_id == 0 && lane_id < (blockDim.x / warpSize)) {
        int warp_sum = sums[lane_id];
        int mask = (1 << (blockDim.x / warpSize)) - 1;
        for (int i = 1; i <= (blockDim.x / warpSize); i *= 2) {
            int n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));
            if (lane_id >= i) warp_sum += n;
        }
        sums[lane_id] = warp_sum;
    }
    __syncthreads();
    int blockSum = 0;
    if (warp_id > 0) blockSum = sums[warp_id - 1];
    value += blockSum;
    data[id] = value;
    if (partial_sums != NULL && threadIdx.x == blockDim.x - 1) partial_sums[blockIdx.x] = value;
}
"""


def test_shuffle_scan(rng, device):
    blocks, threads = 6, 256
    x = rng.integers(-100, 100, blocks * threads).astype(np.int32)
    data = ap.array(x, device=device)
    partial = ap.zeros(blocks, dtype=np.int32, device=device)
    launch(SHFL_SCAN, "shfl_scan_test", (blocks,), (threads,), (data, np.int32(32), partial),
           shared_mem=threads // 32 * 4)
    want = np.cumsum(x.reshape(blocks, threads), axis=1)
    np.testing.assert_array_equal(ap.asnumpy(data).reshape(blocks, threads), want)
    np.testing.assert_array_equal(ap.asnumpy(partial), want[:, -1])


# 17. CUDA samples, 0_Introduction/matrixMul, MatrixMulCUDA (BSD-3-Clause, NVIDIA), its
# BLOCK_SIZE template parameter a macro: C = A * B with tiles in shared memory.
MATRIX_MUL = r"""
#define BLOCK_SIZE 16
extern "C" __global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
        for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}
"""


def test_matrix_mul_sample(rng, device):
    ha, wa, wb = 64, 96, 48
    a = rng.integers(-4, 5, (ha, wa)).astype(np.float32)
    b = rng.integers(-4, 5, (wa, wb)).astype(np.float32)
    c = ap.zeros((ha, wb), dtype=np.float32, device=device)
    launch(MATRIX_MUL, "MatrixMulCUDA", (wb // 16, ha // 16), (16, 16),
           (c, ap.array(a, device=device), ap.array(b, device=device), np.int32(wa),
            np.int32(wb)))
    np.testing.assert_array_equal(ap.asnumpy(c), a @ b)


@pytest.mark.cuda
def test_gpu_and_cpu_agree_bit_for_bit(rng):
    """The same integer kernels on both devices (scripts/gpu-check)."""
    x = rng.integers(-1000, 1000, 1024).astype(np.int32)
    results = []
    for dev in ("cuda", "cpu"):
        out = ap.zeros(1024, dtype=np.int32, device=dev)
        launch(BLELLOCH, "prescan", (1,), (512,), (out, ap.array(x, device=dev), np.int32(1024)),
               shared_mem=4096)
        hist = ap.zeros(256, dtype=np.uint32, device=dev)
        data = (x & 255).astype(np.uint8)
        launch(HISTOGRAM, "histogram256Kernel", (4,), (128,),
               (hist, ap.array(data, device=dev), np.uint32(data.size)))
        keys = ap.array((x & 0xFFFF).astype(np.uint32).reshape(1, 1024), device=dev)
        sorted_keys = ap.zeros((1, 1024), dtype=np.uint32, device=dev)
        launch(BITONIC_SHARED, "bitonicSortShared", (1,), (512,),
               (sorted_keys, keys, np.uint32(1024), np.uint32(1)), shared_mem=4096)
        scanned = ap.array(x, device=dev)
        launch(SHFL_SCAN, "shfl_scan_test", (4,), (256,),
               (scanned, np.int32(32), ap.zeros(4, dtype=np.int32, device=dev)), shared_mem=32)
        results.append((ap.asnumpy(out), ap.asnumpy(hist), ap.asnumpy(sorted_keys),
                        ap.asnumpy(scanned)))
    for g, c in zip(results[0], results[1], strict=True):
        np.testing.assert_array_equal(g, c)
