// The random generator's front-end (src/core/ops/random.cpp): block offsets advance by what each
// draw consumes, draws are lazy generator nodes that match kernels/random.h element by element,
// and bad arguments throw before anything is reserved.
#include "accel/random.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "accel/errors.hpp"
#include "accel/kernels/random.h"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

TEST(RandomGenerator, OffsetsAdvanceByBlocksUsed) {
  random::Generator g(0x1234, 10);
  (void)g.random({10}, DType::Float32);  // 4 values per block: 3 blocks
  EXPECT_EQ(g.offset(), 13u);
  (void)g.standard_normal({3}, DType::Float64);  // 2 per block: 2 blocks
  EXPECT_EQ(g.offset(), 15u);
  (void)g.integers(Scalar::weak_int(0), Scalar::weak_int(5), {0});
  EXPECT_EQ(g.offset(), 15u);
  (void)g.permutation(100, 100);  // one block of its own
  EXPECT_EQ(g.offset(), 16u);
}

TEST(RandomGenerator, DrawsAreLazyAndMatchTheKernels) {
  random::Generator g(77);
  Array x = g.random({2, 5}, DType::Float64);
  EXPECT_TRUE(x.is_pending());
  const std::vector<double> v = test::values(x);
  for (int64_t i = 0; i < 10; ++i) EXPECT_EQ(v[i], rng::uniform_at<double>(i, 77, 0));
  Array p = g.permutation(50, 50);
  std::vector<double> pv = test::values(p);
  std::sort(pv.begin(), pv.end());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(pv[i], i);
}

TEST(RandomGenerator, BadArgumentsThrowBeforeReserving) {
  random::Generator g(1);
  EXPECT_THROW((void)g.random({3}, DType::Int32), TypeError);
  EXPECT_THROW((void)g.standard_exponential({-1}), ValueError);
  EXPECT_THROW((void)g.integers(Scalar::weak_int(3), Scalar::weak_int(3), {2}), ValueError);
  EXPECT_THROW((void)g.integers(Scalar::weak_int(0), Scalar::weak_int(300), {2}, DType::UInt8),
               ValueError);
  EXPECT_THROW((void)g.integers(Scalar::weak_int(0), Scalar::weak_float(2.5), {2}), TypeError);
  EXPECT_THROW((void)g.permutation(5, 6), ValueError);
  EXPECT_EQ(g.offset(), 0u);
}

}  // namespace
}  // namespace accel
