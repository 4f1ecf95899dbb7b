// The CUB library's loader: it loads where nvcc built it, and says why (and how to get it)
// where it did not. The algorithms themselves need a GPU: tests/python/test_sorting.py and
// friends run them on cuda devices.
#include <gtest/gtest.h>

#include <string>

#include "accel/errors.hpp"
#include "src/cuda/libraries/cub_library.hpp"

namespace accel::cuda {
namespace {

TEST(CubLibrary, LoadsWhenBuilt) {
  const LoadStatus& s = cub_status();
#if ACCEL_CUB_BUILT
  EXPECT_TRUE(s.ok) << s.error;
  EXPECT_TRUE(cub_available());
  EXPECT_NE(s.path.find("libaccel_cub"), std::string::npos) << s.path;
#else
  EXPECT_FALSE(s.ok);
  try {
    cub_sort(0, DType::Float32, false, nullptr, nullptr, nullptr, 1, 1);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nvcc"), std::string::npos) << e.what();
  }
#endif
}

}  // namespace
}  // namespace accel::cuda
