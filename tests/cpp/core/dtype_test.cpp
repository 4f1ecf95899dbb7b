#include "accel/dtype.hpp"

#include <gtest/gtest.h>

namespace accel {
namespace {

TEST(DType, PromotionFollowsNumPy) {
  EXPECT_EQ(promote_types(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Int64, DType::UInt64), DType::Float64);
  EXPECT_EQ(promote_types(DType::Float16, DType::Int16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Float32, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::Float64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Bool, DType::Int8), DType::Int8);
  EXPECT_EQ(promote_types(DType::UInt8, DType::BFloat16), DType::BFloat16);
}

}  // namespace
}  // namespace accel
