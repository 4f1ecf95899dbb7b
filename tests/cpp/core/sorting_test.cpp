// Sorting, sets and scans through the C++ API on the CPU (the Python suite covers dtypes,
// layouts and devices against NumPy).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "accel/ops.hpp"

namespace accel {
namespace {

template <class T>
std::vector<T> host(const Array& a) {
  std::vector<T> out(a.size());
  to_host(a, out.data());
  return out;
}

const Device kCpu = Device::cpu();

TEST(Sorting, NanLastAndStable) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v{2.0, nan, -1.0, 2.0, -nan, 0.0, -0.0};
  const Array a = from_host(v.data(), DType::Float64, {7}, kCpu);
  const std::vector<int64_t> order = host<int64_t>(argsort(a));
  EXPECT_EQ(order, (std::vector<int64_t>{2, 5, 6, 0, 3, 1, 4}));
  const std::vector<double> sorted = host<double>(sort(a));
  EXPECT_EQ(sorted[4], 2.0);
  EXPECT_TRUE(std::isnan(sorted[5]) && std::isnan(sorted[6]));
  const std::vector<int64_t> desc = host<int64_t>(argsort(a, -1, true));
  EXPECT_EQ(desc, (std::vector<int64_t>{1, 4, 0, 3, 5, 6, 2}));
}

TEST(Sorting, UniqueWithEverything) {
  const std::vector<int32_t> v{3, 1, 3, 2, 1, 3};
  const Array a = from_host(v.data(), DType::Int32, {2, 3}, kCpu);
  const UniqueResult r = unique(a, true, true, true);
  EXPECT_EQ(host<int32_t>(r.values), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(host<int64_t>(r.indices), (std::vector<int64_t>{1, 3, 0}));
  EXPECT_EQ(host<int64_t>(r.inverse), (std::vector<int64_t>{2, 0, 2, 1, 0, 2}));
  EXPECT_EQ(r.inverse.shape(), (Shape{2, 3}));
  EXPECT_EQ(host<int64_t>(r.counts), (std::vector<int64_t>{2, 1, 3}));
}

TEST(Sorting, CumsumWrapsLikeNumPy) {
  const std::vector<int8_t> v{100, 100, 100};
  const Array a = from_host(v.data(), DType::Int8, {3}, kCpu);
  EXPECT_EQ(host<int64_t>(cumsum(a)), (std::vector<int64_t>{100, 200, 300}));
  EXPECT_EQ(host<int8_t>(cumsum(a, 0, DType::Int8)), (std::vector<int8_t>{100, -56, 44}));
}

}  // namespace
}  // namespace accel
