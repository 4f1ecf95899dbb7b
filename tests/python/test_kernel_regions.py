"""Region-based execution of users' kernels on the CPU device (src/cpu/user_kernels/
cuda_regions.h): a kernel whose only barrier is __syncthreads, used in its own body, is compiled
as a C++ coroutine and its block runs as a loop over the threads per region between barriers;
anything else (warp primitives, __syncthreads in a __device__ function, lambdas, the checked
mode) keeps the fibers. Both give NumPy's results; which one ran is seen in the compiler's flags
(-fcoroutines), through a CXX wrapper in a fresh process."""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accelpy as ap

gxx = shutil.which("g++")
pytestmark = pytest.mark.skipif(gxx is None, reason="regions need GCC (g++)")


def cpu(x):
    return ap.asarray(x, device="cpu")


# Shared-memory tree reduction with an early return before the barriers' loop ends for some
# threads (CUDA samples, reduction "reduce0"; BSD-3-Clause, NVIDIA).
REDUCE = r"""
extern "C" __global__ void reduce0(const int* g_idata, int* g_odata, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid != 0) return;
    g_odata[blockIdx.x] = sdata[0];
}
"""

# The same reduction written so that the scanner cannot make it a coroutine: the barrier is in a
# __device__ function.
REDUCE_IN_HELPER = r"""
__device__ void wait_block() { __syncthreads(); }
extern "C" __global__ void reduce0(const int* g_idata, int* g_odata, unsigned n) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? g_idata[i] : 0;
    wait_block();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        wait_block();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
"""

# A local struct's `return` must stay a `return`: the coroutine rewrite does not compile, and the
# same source is built again with fibers.
REDUCE_WITH_LOCAL_STRUCT = r"""
extern "C" __global__ void reduce0(const int* g_idata, int* g_odata, unsigned n) {
    struct Pick {
        static int at(const int* p, unsigned i, unsigned n) { return i < n ? p[i] : 0; }
    };
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = Pick::at(g_idata, i, n);
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
"""

# 3-D blocks, a scalar __shared__ and a prototype before the definition, inside extern "C" { }.
BLOCK_SUM_3D = r"""
extern "C" {
__global__ void block_sum(const int* x, int* out);
__global__ void block_sum(const int* x, int* out) {
    __shared__ int total;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
    if (t == 0) total = 0;
    __syncthreads();
    atomicAdd(&total, x[b * blockDim.x * blockDim.y * blockDim.z + t]);
    __syncthreads();
    if (t == 0) out[b] = total;
}
}
"""

_PROBE = r"""
import json, sys, numpy as np, accelpy as ap
code, name = sys.argv[1], sys.argv[2]
x = np.arange(1000, dtype=np.int32) % 17 - 8
out = ap.zeros(4, dtype=np.int32, device="cpu")
ap.RawKernel(code, name)((4,), (256,), (ap.asarray(x, device="cpu"), out, np.uint32(1000)),
                          shared_mem=1024)
print(json.dumps(ap.asnumpy(out).tolist()))
"""


def _run_probe(tmp_path, code, name, **env_extra):
    """(the kernel's four block sums, for each compile of the process whether it was of
    coroutines)."""
    log = tmp_path / "cxx.log"
    wrapper = tmp_path / "cxx.sh"
    wrapper.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        echo "$@" >> '{log}'
        exec '{gxx}' "$@"
        """))
    wrapper.chmod(0o755)
    env = dict(os.environ, CXX=str(wrapper), ACCELPY_CACHE_DIR=str(tmp_path / "cache"),
               **env_extra)
    out = subprocess.run([sys.executable, "-c", _PROBE, code, name], env=env, check=True,
                         capture_output=True, text=True).stdout
    compiles = [line for line in log.read_text().splitlines() if "-shared" in line]
    return json.loads(out), ["-fcoroutines" in line.split() for line in compiles]


def _block_sums():
    x = np.arange(1000, dtype=np.int32) % 17 - 8
    return [int(x[b * 256:(b + 1) * 256].sum()) for b in range(4)]


@pytest.mark.parametrize(("code", "compiles"), [
    (REDUCE, [True]),
    (REDUCE_IN_HELPER, [False]),
    (REDUCE_WITH_LOCAL_STRUCT, [True, False]),  # tried, then fibers
])
def test_the_kernels_that_can_run_by_regions_do_and_all_match_numpy(tmp_path, code, compiles):
    sums, coroutines = _run_probe(tmp_path, code, "reduce0")
    assert sums == _block_sums()
    assert coroutines == compiles


def test_regions_can_be_turned_off(tmp_path):
    sums, coroutines = _run_probe(tmp_path, REDUCE, "reduce0", ACCELPY_KERNEL_REGIONS="0")
    assert sums == _block_sums()
    assert coroutines == [False]


def test_the_checked_mode_keeps_the_fibers(tmp_path):
    sums, coroutines = _run_probe(tmp_path, REDUCE, "reduce0", ACCELPY_KERNEL_CHECK="1")
    assert sums == _block_sums()
    assert coroutines == [False]


def test_three_dimensional_blocks_and_a_declared_kernel(rng):
    x = rng.integers(-50, 50, 6 * 4 * 4 * 8).astype(np.int32)
    out = cpu(np.zeros(6, np.int32))
    ap.RawKernel(BLOCK_SUM_3D, "block_sum")((3, 2), (4, 4, 8), (cpu(x), out))
    np.testing.assert_array_equal(ap.asnumpy(out), x.reshape(6, -1).sum(axis=1))


def test_a_trap_in_a_region_raises_after_the_launch():
    code = r"""
    extern "C" __global__ void k(int* x) {
        __shared__ int s[64];
        s[threadIdx.x] = x[threadIdx.x];
        __syncthreads();
        assert(s[63 - threadIdx.x] >= 0);
        x[threadIdx.x] = s[63 - threadIdx.x];
    }
    """
    x = cpu(np.arange(64, dtype=np.int32) - 1)
    with pytest.raises(RuntimeError, match=r"Assertion `s\[63 - threadIdx.x\] >= 0` failed"):
        ap.RawKernel(code, "k")((1,), (64,), (x,))
    y = cpu(np.arange(64, dtype=np.int32))
    ap.RawKernel(code, "k")((1,), (64,), (y,))  # the module still works after the trap
    np.testing.assert_array_equal(ap.asnumpy(y), np.arange(64)[::-1])


def test_many_blocks_of_the_largest_size(rng):
    """1024 threads a block, more frames than the first block's arena: every block's sum."""
    x = rng.integers(-9, 9, 64 * 1024).astype(np.int32)
    out = cpu(np.zeros(64, np.int32))
    ap.RawKernel(REDUCE, "reduce0")((64,), (1024,), (cpu(x), out, np.uint32(x.size)),
                                    shared_mem=4096)
    np.testing.assert_array_equal(ap.asnumpy(out), x.reshape(64, -1).sum(axis=1))
