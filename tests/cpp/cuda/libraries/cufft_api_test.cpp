// cuFFT's vendored declarations (src/cuda/libraries/cufft.hpp) against the toolkit's cufft.h, and
// the loader's report where no GPU is present.
#include <gtest/gtest.h>

#include <array>
#include <type_traits>

#include "accel/errors.hpp"
#include "accel/fft.hpp"
#include "src/cuda/libraries/cufft.hpp"
#include "tests/cpp/cuda/same_signature.hpp"

namespace accel::cuda {
namespace {

// Captured before <cufft.h>, whose macros share these names.
constexpr int kMineForward = api::CUFFT_FORWARD;
constexpr int kMineInverse = api::CUFFT_INVERSE;

TEST(CufftLoader, EnvOverrideIsTheOnlyCandidate) {
  setenv("ACCELPY_CUFFT", "/nonexistent/libcufft.so", 1);
  const std::vector<std::string> c = library_candidates(Library::Cufft);
  unsetenv("ACCELPY_CUFFT");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "/nonexistent/libcufft.so");
}

TEST(CufftLoader, SearchesSonamesOfCuda12And13) {
  const std::vector<std::string> c = library_candidates(Library::Cufft);
  bool v12 = false, v11 = false;
  for (const std::string& p : c) {
    v12 = v12 || p.find("libcufft.so.12") != std::string::npos;
    v11 = v11 || p.find("libcufft.so.11") != std::string::npos;
  }
  EXPECT_TRUE(v12 && v11);
}

TEST(FftPlanCache, InfoWithoutUseIsEmpty) {
  fft::clear_plan_cache(0);
  const fft::PlanCacheInfo i = fft::plan_cache_info(0);
  EXPECT_EQ(i.size, 0u);
  EXPECT_GE(i.max_size, 1u);
  EXPECT_THROW(fft::plan_cache_info(-1), Error);
}

}  // namespace
}  // namespace accel::cuda

#if ACCEL_HAVE_CUDA_HEADERS
#include <cufft.h>

namespace accel::cuda {
namespace {

static_assert(kMineForward == CUFFT_FORWARD);
static_assert(kMineInverse == CUFFT_INVERSE);
static_assert(api::CUFFT_SUCCESS == ::CUFFT_SUCCESS);
static_assert(api::CUFFT_ALLOC_FAILED == ::CUFFT_ALLOC_FAILED);
static_assert(api::CUFFT_R2C == ::CUFFT_R2C);
static_assert(api::CUFFT_C2R == ::CUFFT_C2R);
static_assert(api::CUFFT_C2C == ::CUFFT_C2C);
static_assert(api::CUFFT_D2Z == ::CUFFT_D2Z);
static_assert(api::CUFFT_Z2D == ::CUFFT_Z2D);
static_assert(api::CUFFT_Z2Z == ::CUFFT_Z2Z);
static_assert(std::is_same_v<api::cufftHandle, ::cufftHandle>);
static_assert(std::is_same_v<api::CUstream, ::cudaStream_t>);
ACCEL_SAME_SIG(PFN_cufftCreate, ::cufftCreate);
ACCEL_SAME_SIG(PFN_cufftDestroy, ::cufftDestroy);
ACCEL_SAME_SIG(PFN_cufftGetVersion, ::cufftGetVersion);
ACCEL_SAME_SIG(PFN_cufftSetAutoAllocation, ::cufftSetAutoAllocation);
ACCEL_SAME_SIG(PFN_cufftMakePlanMany64, ::cufftMakePlanMany64);
ACCEL_SAME_SIG(PFN_cufftSetWorkArea, ::cufftSetWorkArea);
ACCEL_SAME_SIG(PFN_cufftSetStream, ::cufftSetStream);
ACCEL_SAME_SIG(PFN_cufftExecC2C, ::cufftExecC2C);
ACCEL_SAME_SIG(PFN_cufftExecC2C, ::cufftExecZ2Z);
ACCEL_SAME_SIG(PFN_cufftExecR2C, ::cufftExecR2C);
ACCEL_SAME_SIG(PFN_cufftExecR2C, ::cufftExecD2Z);
ACCEL_SAME_SIG(PFN_cufftExecC2R, ::cufftExecC2R);
ACCEL_SAME_SIG(PFN_cufftExecC2R, ::cufftExecZ2D);
TEST(CufftApi, MatchesToolkitHeaders) { SUCCEED() << "checked at compile time"; }

}  // namespace
}  // namespace accel::cuda
#endif
