"""Plain programs of users' kernels (no barrier, no warp primitive): on the CPU device a block's
threads run as a loop that GCC vectorizes (src/cpu/user_kernels/cuda_prelude.h,
ACCEL_CPU_PLAIN). The coordinates every thread sees, in 3-D blocks and grids and past 2^20
blocks across (where the loop's general copy runs), on every device; and, on the CPU device,
which programs are plain and that many plain modules in one process stay right (glibc before
2.40 clobbered vector registers on a thread's first access to a module in dynamic TLS when
modules were built with TLS descriptors: a vectorized `x[i] * f` lost `f`)."""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import accelpy as ap

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("c++", "g++", "clang++")), reason="no C++ compiler")

COORDS = r"""
extern "C" __global__ void coords(unsigned* out, int n) {
    unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int i = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    if (i < n) out[i] = block * 10000u + threadIdx.z * 100u + threadIdx.y * 10u + threadIdx.x;
}
"""


def _coords_expected(grid, block, n):
    gx, gy, gz = grid
    bx, by, bz = block
    b = np.arange(gx * gy * gz, dtype=np.uint64)[:, None]
    t = np.arange(bx * by * bz)
    tx, ty, tz = t % bx, t // bx % by, t // (bx * by)
    want = (b * 10000 + tz * 100 + ty * 10 + tx).astype(np.uint32).ravel()
    return want[:n]


@pytest.mark.parametrize(("grid", "block", "n"), [
    ((3, 2, 2), (4, 3, 5), 12 * 60 - 7),   # 3-D; the last block partly out of range
    ((5, 1, 1), (1000, 1, 1), 4321),       # blocks that are no multiple of a vector
    ((1, 1, 1), (1, 1, 1), 1),
])
def test_every_thread_sees_its_coordinates(device, grid, block, n):
    out = ap.zeros(n + 3, dtype=np.uint32, device=device)
    ap.RawKernel(COORDS, "coords")(grid, block, (out, np.int32(n)))
    got = ap.asnumpy(out)
    np.testing.assert_array_equal(got[:n], _coords_expected(grid, block, n))
    assert not got[n:].any()  # nothing written past n


WIDE = r"""
extern "C" __global__ void wide(unsigned* out, float* y, const float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { out[i] = blockIdx.x; y[i] = a * x[i] + y[i]; }
}
"""


def test_grids_past_two_to_the_twenty_blocks_across(device, rng):
    # Blocks from 2^20 on run the loop's general copy (the index is not masked there).
    blocks, threads = (1 << 20) + 5, 2
    n = blocks * threads - 1
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = ap.zeros(n, dtype=np.uint32, device=device)
    y_dev = ap.array(y, device=device)
    ap.RawKernel(WIDE, "wide")((blocks,), (threads,),
                              (out, y_dev, ap.array(x, device=device), np.float32(1.5),
                               np.int32(n)))
    np.testing.assert_array_equal(ap.asnumpy(out), np.arange(n, dtype=np.uint32) // threads)
    # a * x + y may be one fused multiply-add on either device (GCC and NVRTC contract by
    # default): the product is exact in float64, so this is the fused result up to one rounding.
    fused = (1.5 * x.astype(np.float64) + y).astype(np.float32)
    np.testing.assert_array_max_ulp(ap.asnumpy(y_dev), fused, maxulp=1)


WHICH = r"""
extern "C" __global__ void which(int* out) {
#ifdef ACCEL_CPU_PLAIN
    out[0] = 1;
#else
    out[0] = 2;
#endif
%s
}
"""


@pytest.mark.parametrize(("extra", "env", "plain"), [
    ("", {}, True),
    ("__syncthreads();", {}, False),                      # regions
    ("__syncwarp();", {}, False),                         # fibers
    ("", {"ACCELPY_KERNEL_CHECK": "1"}, False),           # the checked mode reads __accel_self
])
def test_which_programs_are_plain(tmp_path, extra, env, plain):
    code = WHICH % extra
    probe = ("import sys, numpy as np, accelpy as ap\n"
             "out = ap.zeros(1, dtype=np.int32, device='cpu')\n"
             "ap.RawKernel(sys.argv[1], 'which')((1,), (32,), (out,))\n"
             "print(int(ap.asnumpy(out)[0]))\n")
    run_env = dict(os.environ, ACCELPY_CACHE_DIR=str(tmp_path / "cache"), **env)
    got = subprocess.run([sys.executable, "-c", probe, code], env=run_env, check=True,
                         capture_output=True, text=True).stdout
    assert int(got) == (1 if plain else 2)


_MANY_MODULES = r"""
import sys, numpy as np, accelpy as ap
code = r'''
template <typename T> __global__ void scale(T* x, T f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * f;
}
'''
bad = []
for m in range(int(sys.argv[1])):
    mod = ap.RawModule(code=code + "// module %d\n" % m, name_expressions=["scale<double>"])
    f = 1.0 + m / 8
    x = ap.asarray(np.arange(300, dtype=np.float64), device="cpu")
    mod.get_function("scale<double>")((3,), (128,), (x, np.float64(f), np.int32(300)))
    if not np.array_equal(ap.asnumpy(x), np.arange(300) * f):
        bad.append(m)
print(bad)
"""


def test_many_plain_modules_in_one_process_match_numpy(tmp_path):
    # Each module's first launch is each OS thread's first access to its thread-local storage;
    # past the first few modules that storage is dynamic (the static surplus is used up).
    env = dict(os.environ, ACCELPY_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", _MANY_MODULES, "24"], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "[]"
