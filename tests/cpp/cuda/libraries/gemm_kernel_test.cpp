// The CUDA GEMM without a GPU: the integer/bool kernel compiles to an sm_90 cubin for every
// dtype it serves, and the vendored cuBLAS enum values match the toolkit's headers.
#include <gtest/gtest.h>

#include "src/cuda/driver/loader.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/cuda/libraries/gemm.hpp"

#if ACCEL_HAVE_CUDA_HEADERS && __has_include(<cublas_api.h>)
#include <cublas_api.h>
#define ACCEL_HAVE_CUBLAS_HEADERS 1
#endif

namespace accel::cuda {
namespace {

TEST(CudaGemm, IntegerKernelCompilesForEveryDtype) {
  if (!nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  std::string program;
  for (DType dt : {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16,
                   DType::Int32, DType::UInt32, DType::Int64, DType::UInt64}) {
    std::string name;
    const std::string code = integer_gemm_source(dt, name);
    EXPECT_NE(code.find(name), std::string::npos);
    // Each source is a complete program (it declares its parameter struct): compile separately.
    EXPECT_NO_THROW(compile_program(code, 90, name)) << name;
  }
}

TEST(CudaGemm, Tf32IsOffByDefaultAndSwitchable) {
  EXPECT_FALSE(allow_tf32());
  set_allow_tf32(true);
  EXPECT_TRUE(allow_tf32());
  set_allow_tf32(false);
  EXPECT_FALSE(allow_tf32());
}

#if ACCEL_HAVE_CUBLAS_HEADERS
static_assert(api::CUBLAS_OP_N == ::CUBLAS_OP_N);
static_assert(api::CUBLAS_OP_T == ::CUBLAS_OP_T);
static_assert(api::CUDA_R_16F == ::CUDA_R_16F);
static_assert(api::CUDA_R_16BF == ::CUDA_R_16BF);
static_assert(api::CUDA_R_32F == ::CUDA_R_32F);
static_assert(api::CUDA_R_64F == ::CUDA_R_64F);
static_assert(api::CUDA_C_32F == ::CUDA_C_32F);
static_assert(api::CUDA_C_64F == ::CUDA_C_64F);
static_assert(api::CUBLAS_COMPUTE_32F == ::CUBLAS_COMPUTE_32F);
static_assert(api::CUBLAS_COMPUTE_32F_FAST_TF32 == ::CUBLAS_COMPUTE_32F_FAST_TF32);
static_assert(api::CUBLAS_COMPUTE_64F == ::CUBLAS_COMPUTE_64F);
static_assert(api::CUBLAS_GEMM_DEFAULT == ::CUBLAS_GEMM_DEFAULT);
TEST(CudaGemm, CublasValuesMatchToolkitHeaders) { SUCCEED() << "checked at compile time"; }
#endif

}  // namespace
}  // namespace accel::cuda
