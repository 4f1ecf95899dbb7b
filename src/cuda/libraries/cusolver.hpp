// cuSOLVER (dense), opened with dlopen like the other CUDA libraries (loader.hpp): the
// declarations of cusolverDn.h accelpy uses (its 64-bit "X" API; checked against the header by
// tests/cpp/cuda/cusolver_api_test.cpp where a toolkit is installed) and the loaded entry points.
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/cuda/driver/loader.hpp"

struct cusolverDnContext;
struct cusolverDnParams;

namespace accel::cuda {

namespace api {
// cudaDataType, cublasOperation_t and their values come from api.hpp.
using cusolverStatus_t = int;
using cusolverDnHandle_t = cusolverDnContext*;
using cusolverDnParams_t = cusolverDnParams*;
using cublasFillMode_t = int;
using cusolverEigMode_t = int;
inline constexpr cusolverStatus_t CUSOLVER_STATUS_SUCCESS = 0;
inline constexpr cusolverStatus_t CUSOLVER_STATUS_ALLOC_FAILED = 2;
inline constexpr cublasFillMode_t CUBLAS_FILL_MODE_LOWER = 0;
inline constexpr cublasFillMode_t CUBLAS_FILL_MODE_UPPER = 1;
inline constexpr cusolverEigMode_t CUSOLVER_EIG_MODE_NOVECTOR = 0;
inline constexpr cusolverEigMode_t CUSOLVER_EIG_MODE_VECTOR = 1;

using PFN_cusolverGetVersion = cusolverStatus_t (*)(int*);
using PFN_cusolverDnCreate = cusolverStatus_t (*)(cusolverDnHandle_t*);
using PFN_cusolverDnDestroy = cusolverStatus_t (*)(cusolverDnHandle_t);
using PFN_cusolverDnSetStream = cusolverStatus_t (*)(cusolverDnHandle_t, CUstream);
using PFN_cusolverDnCreateParams = cusolverStatus_t (*)(cusolverDnParams_t*);
using PFN_cusolverDnDestroyParams = cusolverStatus_t (*)(cusolverDnParams_t);
using PFN_cusolverDnXgetrf_bufferSize = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                             int64_t, int64_t, cudaDataType,
                                                             const void*, int64_t, cudaDataType,
                                                             size_t*, size_t*);
using PFN_cusolverDnXgetrf = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t, int64_t,
                                                  int64_t, cudaDataType, void*, int64_t, int64_t*,
                                                  cudaDataType, void*, size_t, void*, size_t, int*);
using PFN_cusolverDnXgetrs = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  cublasOperation_t, int64_t, int64_t, cudaDataType,
                                                  const void*, int64_t, const int64_t*,
                                                  cudaDataType, void*, int64_t, int*);
using PFN_cusolverDnXpotrf_bufferSize = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                             cublasFillMode_t, int64_t,
                                                             cudaDataType, const void*, int64_t,
                                                             cudaDataType, size_t*, size_t*);
using PFN_cusolverDnXpotrf = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  cublasFillMode_t, int64_t, cudaDataType, void*,
                                                  int64_t, cudaDataType, void*, size_t, void*,
                                                  size_t, int*);
using PFN_cusolverDnXsyevd_bufferSize = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                             cusolverEigMode_t, cublasFillMode_t,
                                                             int64_t, cudaDataType, const void*,
                                                             int64_t, cudaDataType, const void*,
                                                             cudaDataType, size_t*, size_t*);
using PFN_cusolverDnXsyevd = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  cusolverEigMode_t, cublasFillMode_t, int64_t,
                                                  cudaDataType, void*, int64_t, cudaDataType, void*,
                                                  cudaDataType, void*, size_t, void*, size_t, int*);
using PFN_cusolverDnXgesvd_bufferSize = cusolverStatus_t (*)(
    cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char, int64_t, int64_t,
    cudaDataType, const void*, int64_t, cudaDataType, const void*, cudaDataType, const void*,
    int64_t, cudaDataType, const void*, int64_t, cudaDataType, size_t*, size_t*);
using PFN_cusolverDnXgesvd = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  signed char, signed char, int64_t, int64_t,
                                                  cudaDataType, void*, int64_t, cudaDataType, void*,
                                                  cudaDataType, void*, int64_t, cudaDataType, void*,
                                                  int64_t, cudaDataType, void*, size_t, void*,
                                                  size_t, int*);
using PFN_cusolverDnXgeqrf_bufferSize = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                             int64_t, int64_t, cudaDataType,
                                                             const void*, int64_t, cudaDataType,
                                                             const void*, cudaDataType, size_t*,
                                                             size_t*);
using PFN_cusolverDnXgeqrf = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t, int64_t,
                                                  int64_t, cudaDataType, void*, int64_t,
                                                  cudaDataType, void*, cudaDataType, void*, size_t,
                                                  void*, size_t, int*);
using PFN_cusolverDnXgeev_bufferSize = cusolverStatus_t (*)(
    cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t,
    cudaDataType, const void*, int64_t, cudaDataType, const void*, cudaDataType, const void*,
    int64_t, cudaDataType, const void*, int64_t, cudaDataType, size_t*, size_t*);
using PFN_cusolverDnXgeev = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverDnParams_t,
                                                 cusolverEigMode_t, cusolverEigMode_t, int64_t,
                                                 cudaDataType, void*, int64_t, cudaDataType, void*,
                                                 cudaDataType, void*, int64_t, cudaDataType, void*,
                                                 int64_t, cudaDataType, void*, size_t, void*,
                                                 size_t, int*);
// orgqr/ungqr have no 64-bit form: the legacy per-type API (32-bit sizes).
using PFN_cusolverDnOrgqr_bufferSize = cusolverStatus_t (*)(cusolverDnHandle_t, int, int, int,
                                                            const void*, int, const void*, int*);
using PFN_cusolverDnOrgqr = cusolverStatus_t (*)(cusolverDnHandle_t, int, int, int, void*, int,
                                                 const void*, void*, int, int*);
// gesvdj (one-sided Jacobi SVD), likewise per type; it returns V, not V^H.
using gesvdjInfo_t = struct gesvdjInfo*;
using PFN_cusolverDnCreateGesvdjInfo = cusolverStatus_t (*)(gesvdjInfo_t*);
using PFN_cusolverDnDestroyGesvdjInfo = cusolverStatus_t (*)(gesvdjInfo_t);
using PFN_cusolverDnGesvdj_bufferSize = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverEigMode_t,
                                                             int, int, int, const void*, int,
                                                             const void*, const void*, int,
                                                             const void*, int, int*, gesvdjInfo_t);
using PFN_cusolverDnGesvdj = cusolverStatus_t (*)(cusolverDnHandle_t, cusolverEigMode_t, int, int,
                                                  int, void*, int, void*, void*, int, void*, int,
                                                  void*, int, int*, gesvdjInfo_t);
}  // namespace api

struct Cusolver {
  int version = 0;  // cusolverGetVersion: 12004 for cuSOLVER 12.0.4 (CUDA 13)
#define ACCEL_CUSOLVER_FN(name) api::PFN_##name name = nullptr;
#define ACCEL_CUSOLVER_OPTIONAL_FN(name) api::PFN_##name name = nullptr;
#include "src/cuda/libraries/cusolver_fns.def"
#undef ACCEL_CUSOLVER_FN
#undef ACCEL_CUSOLVER_OPTIONAL_FN
  // S, D, C, Z: {S,D}orgqr and {C,Z}ungqr.
  api::PFN_cusolverDnOrgqr_bufferSize orgqr_bufferSize[4] = {};
  api::PFN_cusolverDnOrgqr orgqr[4] = {};
  // S, D, C, Z gesvdj.
  api::PFN_cusolverDnGesvdj_bufferSize gesvdj_bufferSize[4] = {};
  api::PFN_cusolverDnGesvdj gesvdj[4] = {};
};

// Loaded once, on first call; a library newer than the driver is skipped (cuSOLVER's major
// version is CUDA's minus one). Null when unusable; the status says why.
const Cusolver* cusolver();
const LoadStatus& cusolver_status();

}  // namespace accel::cuda
