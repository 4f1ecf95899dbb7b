// cuFFT, opened with dlopen like the other CUDA libraries (loader.hpp): the declarations
// accelpy uses (values and signatures of cufft.h, checked against it by
// tests/cpp/cuda/runtime_test.cpp where a toolkit is installed) and the loaded entry points.
#pragma once

#include <cstddef>

#include "src/cuda/driver/loader.hpp"

namespace accel::cuda {

namespace api {
using cufftResult = int;
using cufftHandle = int;
using cufftType = int;
inline constexpr cufftResult CUFFT_SUCCESS = 0;
inline constexpr cufftResult CUFFT_ALLOC_FAILED = 2;
inline constexpr cufftType CUFFT_R2C = 0x2a;
inline constexpr cufftType CUFFT_C2R = 0x2c;
inline constexpr cufftType CUFFT_C2C = 0x29;
inline constexpr cufftType CUFFT_D2Z = 0x6a;
inline constexpr cufftType CUFFT_Z2D = 0x6c;
inline constexpr cufftType CUFFT_Z2Z = 0x69;
inline constexpr int CUFFT_FORWARD = -1;
inline constexpr int CUFFT_INVERSE = 1;

// cufftComplex, cufftDoubleComplex: interleaved (re, im) pairs, here as void*.
using PFN_cufftCreate = cufftResult (*)(cufftHandle*);
using PFN_cufftDestroy = cufftResult (*)(cufftHandle);
using PFN_cufftGetVersion = cufftResult (*)(int*);
using PFN_cufftSetAutoAllocation = cufftResult (*)(cufftHandle, int);
using PFN_cufftMakePlanMany64 = cufftResult (*)(cufftHandle, int, long long*, long long*, long long,
                                                long long, long long*, long long, long long,
                                                cufftType, long long, size_t*);
using PFN_cufftSetWorkArea = cufftResult (*)(cufftHandle, void*);
using PFN_cufftSetStream = cufftResult (*)(cufftHandle, CUstream);
using PFN_cufftExecC2C = cufftResult (*)(cufftHandle, void*, void*, int);
using PFN_cufftExecR2C = cufftResult (*)(cufftHandle, void*, void*);
using PFN_cufftExecC2R = cufftResult (*)(cufftHandle, void*, void*);
}  // namespace api

struct Cufft {
  int version = 0;  // cufftGetVersion: 12000 for cuFFT 12.0 (CUDA 13)
#define ACCEL_CUFFT_FN(symbol, type) api::type symbol = nullptr;
#include "src/cuda/libraries/cufft_fns.def"
#undef ACCEL_CUFFT_FN
};

// Loaded once, on first call. cuFFT's major version is CUDA's minus one (cuFFT 12 ships with
// CUDA 13); a library newer than the driver is skipped. Null when unusable; the status says why.
const Cufft* cufft();
const LoadStatus& cufft_status();
// cuFFT's error name ("CUFFT_INVALID_SIZE").
const char* cufft_error_name(api::cufftResult r);

}  // namespace accel::cuda
