// cuSOLVER's vendored declarations (src/cuda/libraries/cusolver.hpp) against the toolkit's
// cusolverDn.h, and the loader's search.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <type_traits>
#include <vector>

#include "src/cuda/libraries/cusolver.hpp"
#include "tests/cpp/cuda/same_signature.hpp"

namespace accel::cuda {
namespace {

TEST(CusolverLoader, EnvOverrideIsTheOnlyCandidate) {
  setenv("ACCELPY_CUSOLVER", "/nonexistent/libcusolver.so", 1);
  const std::vector<std::string> c = library_candidates(Library::Cusolver);
  unsetenv("ACCELPY_CUSOLVER");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "/nonexistent/libcusolver.so");
}

TEST(CusolverLoader, SearchesSonamesOfCuda12And13) {
  bool v12 = false, v11 = false;
  for (const std::string& p : library_candidates(Library::Cusolver)) {
    v12 = v12 || p.find("libcusolver.so.12") != std::string::npos;
    v11 = v11 || p.find("libcusolver.so.11") != std::string::npos;
  }
  EXPECT_TRUE(v12 && v11);
}

}  // namespace
}  // namespace accel::cuda

#if ACCEL_HAVE_CUDA_HEADERS
#include <cusolverDn.h>

namespace accel::cuda {
namespace {

static_assert(api::CUSOLVER_STATUS_SUCCESS == ::CUSOLVER_STATUS_SUCCESS);
static_assert(api::CUSOLVER_STATUS_ALLOC_FAILED == ::CUSOLVER_STATUS_ALLOC_FAILED);
static_assert(api::CUDA_R_32F == ::CUDA_R_32F && api::CUDA_R_64F == ::CUDA_R_64F);
static_assert(api::CUDA_C_32F == ::CUDA_C_32F && api::CUDA_C_64F == ::CUDA_C_64F);
static_assert(api::CUBLAS_FILL_MODE_LOWER == ::CUBLAS_FILL_MODE_LOWER);
static_assert(api::CUBLAS_FILL_MODE_UPPER == ::CUBLAS_FILL_MODE_UPPER);
static_assert(api::CUBLAS_OP_N == ::CUBLAS_OP_N);
static_assert(api::CUSOLVER_EIG_MODE_VECTOR == ::CUSOLVER_EIG_MODE_VECTOR);
static_assert(api::CUSOLVER_EIG_MODE_NOVECTOR == ::CUSOLVER_EIG_MODE_NOVECTOR);
static_assert(std::is_same_v<api::cusolverDnHandle_t, ::cusolverDnHandle_t>);
static_assert(std::is_same_v<api::cusolverDnParams_t, ::cusolverDnParams_t>);
ACCEL_SAME_SIG(PFN_cusolverGetVersion, ::cusolverGetVersion);
ACCEL_SAME_SIG(PFN_cusolverDnCreate, ::cusolverDnCreate);
ACCEL_SAME_SIG(PFN_cusolverDnDestroy, ::cusolverDnDestroy);
ACCEL_SAME_SIG(PFN_cusolverDnSetStream, ::cusolverDnSetStream);
ACCEL_SAME_SIG(PFN_cusolverDnCreateParams, ::cusolverDnCreateParams);
ACCEL_SAME_SIG(PFN_cusolverDnDestroyParams, ::cusolverDnDestroyParams);
ACCEL_SAME_SIG(PFN_cusolverDnXgetrf_bufferSize, ::cusolverDnXgetrf_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnXgetrf, ::cusolverDnXgetrf);
ACCEL_SAME_SIG(PFN_cusolverDnXgetrs, ::cusolverDnXgetrs);
ACCEL_SAME_SIG(PFN_cusolverDnXpotrf_bufferSize, ::cusolverDnXpotrf_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnXpotrf, ::cusolverDnXpotrf);
ACCEL_SAME_SIG(PFN_cusolverDnXsyevd_bufferSize, ::cusolverDnXsyevd_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnXsyevd, ::cusolverDnXsyevd);
ACCEL_SAME_SIG(PFN_cusolverDnXgesvd_bufferSize, ::cusolverDnXgesvd_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnXgesvd, ::cusolverDnXgesvd);
ACCEL_SAME_SIG(PFN_cusolverDnXgeqrf_bufferSize, ::cusolverDnXgeqrf_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnXgeqrf, ::cusolverDnXgeqrf);
ACCEL_SAME_SIG(PFN_cusolverDnOrgqr_bufferSize, ::cusolverDnSorgqr_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnOrgqr_bufferSize, ::cusolverDnZungqr_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnOrgqr, ::cusolverDnDorgqr);
ACCEL_SAME_SIG(PFN_cusolverDnOrgqr, ::cusolverDnCungqr);
ACCEL_SAME_SIG(PFN_cusolverDnXgeev_bufferSize, ::cusolverDnXgeev_bufferSize);
ACCEL_SAME_SIG(PFN_cusolverDnXgeev, ::cusolverDnXgeev);
TEST(CusolverApi, MatchesToolkitHeaders) { SUCCEED() << "checked at compile time"; }

}  // namespace
}  // namespace accel::cuda
#endif
