// cuBLAS's vendored declarations (src/cuda/driver/api.hpp, the table cublas_fns.def) against the
// toolkit's cublas_v2.h, where the toolkit's headers are installed.
#include <gtest/gtest.h>

#include <array>
#include <type_traits>

#include "src/cuda/driver/loader.hpp"
#include "tests/cpp/cuda/same_signature.hpp"

namespace accel::cuda {
namespace {

TEST(CublasTable, BatchedLuEntryPointsStartUnresolved) {
  const Cublas table;
  EXPECT_EQ(table.cublasSgetrfBatched, nullptr);
  EXPECT_EQ(table.cublasZgetriBatched, nullptr);
}

}  // namespace
}  // namespace accel::cuda

#if ACCEL_HAVE_CUDA_HEADERS
#include <cublas_v2.h>

namespace accel::cuda {
namespace {

static_assert(api::CUBLAS_OP_N == ::CUBLAS_OP_N && api::CUBLAS_OP_T == ::CUBLAS_OP_T);
ACCEL_SAME_SIG(PFN_cublasCreate, ::cublasCreate_v2);
ACCEL_SAME_SIG(PFN_cublasDestroy, ::cublasDestroy_v2);
ACCEL_SAME_SIG(PFN_cublasSetStream, ::cublasSetStream_v2);
// cublasGemmEx and cublasGemmStridedBatchedEx are overloaded in C++ by cuBLAS 13's headers;
// gemm_kernel_test.cpp runs them.
ACCEL_SAME_SIG(PFN_cublasGetrfBatched, ::cublasSgetrfBatched);
ACCEL_SAME_SIG(PFN_cublasGetrfBatched, ::cublasZgetrfBatched);
ACCEL_SAME_SIG(PFN_cublasGetrsBatched, ::cublasDgetrsBatched);
ACCEL_SAME_SIG(PFN_cublasGetrsBatched, ::cublasCgetrsBatched);
ACCEL_SAME_SIG(PFN_cublasGetriBatched, ::cublasSgetriBatched);
ACCEL_SAME_SIG(PFN_cublasGetriBatched, ::cublasZgetriBatched);

}  // namespace
}  // namespace accel::cuda
#endif
