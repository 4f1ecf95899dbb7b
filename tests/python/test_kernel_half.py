"""__half and __nv_bfloat16 (cuda_fp16.h, cuda_bf16.h) in users' kernels, on every device (the
CPU device always, the GPU in scripts/gpu-check), checked against NumPy's float16 and
ml_dtypes' bfloat16: conversions and the arithmetic CUDA rounds once (add, mul, fma, max/min,
abs, neg) bit for bit, library functions within an ulp. The sources compile with NVRTC too.

The kernels follow public samples: haxpy and its half2 form from the NVIDIA developer blog's
"Mixed-Precision Programming with CUDA 8" (BSD-3-Clause, NVIDIA-developer-blog/code-samples);
the others are the conversions and intrinsics of CUDA's half and bfloat16 math API."""

import os
import shutil
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import accelpy as ap

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("c++", "g++", "clang++")), reason="no C++ compiler")

nvrtc_available = any(lib["name"] == "nvrtc" and lib["found"] for lib in ap.cuda._c.libraries())

BF16 = ml_dtypes.bfloat16

HAXPY = r"""
#include <cuda_fp16.h>
extern "C" __global__ void haxpy(int n, half a, const half *x, half *y) {
    int start = threadIdx.x + blockDim.x * blockIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = start; i < n; i += stride) y[i] = __hfma(a, x[i], y[i]);
}
extern "C" __global__ void haxpy2(int n, half a, const __half2 *x, __half2 *y) {
    int start = threadIdx.x + blockDim.x * blockIdx.x;
    int stride = blockDim.x * gridDim.x;
    __half2 a2 = __half2half2(a);
    for (int i = start; i < n / 2; i += stride) y[i] = __hfma2(a2, x[i], y[i]);
}
"""

CONVERT = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void to_16(const float* x, unsigned short* h, unsigned short* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    h[i] = __half_as_ushort(__float2half_rn(x[i]));
    b[i] = __bfloat16_as_ushort(__float2bfloat16_rn(x[i]));
}
extern "C" __global__ void from_16(const unsigned short* h, const unsigned short* b, float* hf,
                                   float* bf, int* hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    hf[i] = __half2float(__ushort_as_half(h[i]));
    bf[i] = __bfloat162float(__ushort_as_bfloat16(b[i]));
    hi[i] = __half2int_rn(__ushort_as_half(h[i]));
}
"""

ARITH = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <class H>
__device__ void arith(const H* a, const H* b, H* out, int n, int i) {
    out[0 * n + i] = __hadd(a[i], b[i]);
    out[1 * n + i] = __hsub(a[i], b[i]);
    out[2 * n + i] = __hmul(a[i], b[i]);
    out[3 * n + i] = __hmax(a[i], b[i]);
    out[4 * n + i] = __hmin(a[i], b[i]);
    out[5 * n + i] = __habs(a[i]);
    out[6 * n + i] = __hneg(b[i]);
    H s = a[i];
    s += b[i];
    s *= b[i];
    out[7 * n + i] = s;
    out[8 * n + i] = __hlt(a[i], b[i]) ? a[i] : b[i];
    out[9 * n + i] = hsqrt(__habs(a[i]));
    out[10 * n + i] = hexp(__hmul(a[i], H(0.25f)));
}
extern "C" __global__ void arith_half(const __half* a, const __half* b, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) arith(a, b, out, n, i);
}
extern "C" __global__ void arith_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                      __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) arith(a, b, out, n, i);
}
"""

HALF_HISTOGRAM = r"""
#include <cuda_fp16.h>
extern "C" __global__ void weights(const int* bins, const __half* w, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&out[bins[i]], w[i]);
}
"""


def _f16(rng, n):
    return (rng.standard_normal(n) * 4).astype(np.float16)


def test_haxpy(rng, device):
    n = 1000
    x, y = _f16(rng, n), _f16(rng, n)
    a = np.float16(1.75)
    want = (np.float32(a) * x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)
    for name in ("haxpy", "haxpy2"):
        yd = ap.array(y, device=device)  # a copy: on the CPU asarray shares y
        ap.RawKernel(HAXPY, name)((4,), (128,), (np.int32(n), a, ap.asarray(x, device=device),
                                                 yd))
        np.testing.assert_array_equal(ap.asnumpy(yd).view(np.uint16), want.view(np.uint16))


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")
def test_conversions_round_as_numpy_and_ml_dtypes(rng, device):
    n = 4096
    x = np.concatenate([rng.standard_normal(n - 8).astype(np.float32) * 1e3,
                        np.array([0.0, -0.0, np.inf, -np.inf, 65520.0, 1e-8, 3e38, -6e-5],
                                 np.float32)])
    h = ap.zeros(n, dtype=np.uint16, device=device)
    b = ap.zeros(n, dtype=np.uint16, device=device)
    ap.RawKernel(CONVERT, "to_16")((n // 256,), (256,), (ap.asarray(x, device=device), h, b,
                                                          np.int32(n)))
    np.testing.assert_array_equal(ap.asnumpy(h), x.astype(np.float16).view(np.uint16))
    np.testing.assert_array_equal(ap.asnumpy(b), x.astype(BF16).view(np.uint16))
    hf = ap.zeros(n, dtype=np.float32, device=device)
    bf = ap.zeros(n, dtype=np.float32, device=device)
    hi = ap.zeros(n, dtype=np.int32, device=device)
    finite = np.isfinite(x.astype(np.float16))
    ap.RawKernel(CONVERT, "from_16")((n // 256,), (256,), (h, b, hf, bf, hi, np.int32(n)))
    np.testing.assert_array_equal(ap.asnumpy(hf), x.astype(np.float16).astype(np.float32))
    np.testing.assert_array_equal(ap.asnumpy(bf), x.astype(BF16).astype(np.float32))
    np.testing.assert_array_equal(ap.asnumpy(hi)[finite],
                                  np.rint(x.astype(np.float16)[finite]).astype(np.int32))


@pytest.mark.parametrize("kind", ["half", "bf16"])
def test_arithmetic_matches_numpy(rng, device, kind):
    n = 1000
    dt = np.float16 if kind == "half" else BF16
    a = (rng.standard_normal(n) * 3).astype(dt)
    b = (rng.standard_normal(n) * 3).astype(dt)
    a[:3] = [np.nan, 1.0, np.nan]
    b[:3] = [2.0, np.nan, np.nan]
    out = ap.zeros(11 * n, dtype=dt, device=device)
    ap.RawKernel(ARITH, f"arith_{kind}")((4,), (256,), (ap.asarray(a, device=device),
                                                        ap.asarray(b, device=device), out,
                                                        np.int32(n)))
    got = ap.asnumpy(out).reshape(11, n)
    f = np.float32
    with np.errstate(invalid="ignore"):
        exact = [(a.astype(f) + b.astype(f)).astype(dt), (a.astype(f) - b.astype(f)).astype(dt),
                 (a.astype(f) * b.astype(f)).astype(dt), np.fmax(a, b), np.fmin(a, b), np.abs(a),
                 -b, ((a.astype(f) + b.astype(f)).astype(dt).astype(f) * b.astype(f)).astype(dt),
                 np.where(a < b, a, b)]
        close = [np.sqrt(np.abs(a).astype(f)).astype(dt),
                 np.exp((a.astype(f) * f(0.25)).astype(dt).astype(f)).astype(dt)]
    for k, want in enumerate(exact):
        nan = np.isnan(want.astype(f))  # a NaN's payload may differ (the GPU's is canonical)
        assert np.isnan(got[k].astype(f))[nan].all(), f"row {k}"
        np.testing.assert_array_equal(got[k].view(np.uint16)[~nan], want.view(np.uint16)[~nan],
                                      f"row {k}")
    for k, want in enumerate(close, start=len(exact)):
        np.testing.assert_array_max_ulp(got[k].astype(np.float32)[3:],
                                        want.astype(np.float32)[3:], maxulp=1 << 13)
        assert np.isnan(got[k][[0, 2]]).all()


def test_half_atomics(rng, device):
    n = 2000
    bins = rng.integers(0, 8, n).astype(np.int32)
    w = rng.integers(-3, 4, n).astype(np.float16)  # small integers: every order sums exactly
    out = ap.zeros(8, dtype=np.float16, device=device)
    ap.RawKernel(HALF_HISTOGRAM, "weights")((8,), (256,), (ap.asarray(bins, device=device),
                                                           ap.asarray(w, device=device), out,
                                                           np.int32(n)))
    want = np.bincount(bins, weights=w.astype(np.float64), minlength=8).astype(np.float16)
    np.testing.assert_array_equal(ap.asnumpy(out), want)


@pytest.mark.skipif(not nvrtc_available, reason="NVRTC not found")
@pytest.mark.parametrize("code", [HAXPY, CONVERT, ARITH, HALF_HISTOGRAM])
def test_the_sources_are_cuda_that_nvrtc_compiles(code, tmp_path):
    ap.RawModule(code=code, cache_dir=str(tmp_path)).compile()


_NVRTC_PROBE = r"""
import accelpy as ap
code = '''#include <cuda_fp16.h>
#ifndef ACCELPY_FAKE_FP16
#error not the cuda_fp16.h of ACCELPY_CUDA_INCLUDE
#endif
extern "C" __global__ void k(int* x) { x[0] = ACCELPY_FAKE_FP16; }'''
ap.RawModule(code=code)._m.compile()  # NVRTC, also without a GPU
print("compiled")
"""


@pytest.mark.skipif(not nvrtc_available, reason="NVRTC not found")
def test_nvrtc_takes_cuda_headers_from_accelpy_cuda_include(tmp_path):
    """The directory search (src/cuda/user_kernels/include_search.cpp; its order is tested on fake
    trees in tests/cpp/cuda/user_kernels/include_search_test.cpp) hands NVRTC its result."""
    fake = tmp_path / "include"
    fake.mkdir()
    (fake / "cuda_fp16.h").write_text("#define ACCELPY_FAKE_FP16 7\n")
    env = dict(os.environ, ACCELPY_CUDA_INCLUDE=str(fake), ACCELPY_CACHE_DIR=str(tmp_path / "c"))
    out = subprocess.run([sys.executable, "-c", _NVRTC_PROBE], env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "compiled"
    env["ACCELPY_CUDA_INCLUDE"] = str(tmp_path)  # no cuda_fp16.h there: NVRTC's error
    out = subprocess.run([sys.executable, "-c", _NVRTC_PROBE], env=env, capture_output=True,
                         text=True)
    assert out.returncode != 0
    assert "CompileError" in out.stderr and "cuda_fp16.h" in out.stderr
