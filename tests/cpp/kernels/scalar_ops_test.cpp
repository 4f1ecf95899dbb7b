// Scalar semantics of kernels/scalar_ops.h where C++ leaves the result undefined or NumPy
// defines its own: integer division, shifts, casts of non-finite floats, half conversions.
#include "accel/kernels/scalar_ops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace accel {
namespace {

template <class T>
class SignedIntOps : public ::testing::Test {};
using SignedTypes = ::testing::Types<int8_t, int16_t, int32_t, int64_t>;
TYPED_TEST_SUITE(SignedIntOps, SignedTypes);

TYPED_TEST(SignedIntOps, DivisionCornerCases) {
  using T = TypeParam;
  const T lo = std::numeric_limits<T>::lowest();
  EXPECT_EQ(ops::FloorDivide{}(lo, T(-1)), lo);  // wraps, as NumPy
  EXPECT_EQ(ops::FloorDivide{}(T(7), T(0)), T(0));
  EXPECT_EQ(ops::FloorDivide{}(T(-7), T(2)), T(-4));
  EXPECT_EQ(ops::FloorDivide{}(T(7), T(-2)), T(-4));
  EXPECT_EQ(ops::Remainder{}(lo, T(-1)), T(0));
  EXPECT_EQ(ops::Remainder{}(T(7), T(0)), T(0));
  EXPECT_EQ(ops::Remainder{}(T(-7), T(2)), T(1));  // the divisor's sign
  EXPECT_EQ(ops::Remainder{}(T(7), T(-2)), T(-1));
  EXPECT_EQ(ops::Fmod{}(T(-7), T(2)), T(-1));  // the dividend's sign
  EXPECT_EQ(ops::Fmod{}(lo, T(-1)), T(0));
  EXPECT_EQ(ops::Negative{}(lo), lo);
  EXPECT_EQ(ops::Abs{}(lo), lo);
}

TYPED_TEST(SignedIntOps, ShiftsBeyondTheWidth) {
  using T = TypeParam;
  constexpr T bits = T(sizeof(T) * 8);
  EXPECT_EQ(ops::BitwiseLeftShift{}(T(1), bits), T(0));
  EXPECT_EQ(ops::BitwiseLeftShift{}(T(1), T(-1)), T(0));
  EXPECT_EQ(ops::BitwiseLeftShift{}(T(-1), T(bits - 1)), std::numeric_limits<T>::lowest());
  EXPECT_EQ(ops::BitwiseRightShift{}(T(-5), bits), T(-1));
  EXPECT_EQ(ops::BitwiseRightShift{}(T(5), T(bits + 1)), T(0));
  EXPECT_EQ(ops::BitwiseRightShift{}(T(-4), T(1)), T(-2));  // arithmetic
}

TYPED_TEST(SignedIntOps, PowerWrapsAndDefinesNegativeExponents) {
  using T = TypeParam;
  EXPECT_EQ(ops::Pow{}(T(3), T(4)), T(81));
  EXPECT_EQ(ops::Pow{}(T(2), T(sizeof(T) * 8)), T(0));  // wraps to 0
  EXPECT_EQ(ops::Pow{}(T(0), T(0)), T(1));
  EXPECT_EQ(ops::Pow{}(T(-1), T(-3)), T(-1));
  EXPECT_EQ(ops::Pow{}(T(1), T(-3)), T(1));
  EXPECT_EQ(ops::Pow{}(T(2), T(-1)), T(0));
}

TEST(ScalarOps, UnsignedArithmeticWraps) {
  EXPECT_EQ(ops::Multiply{}(uint16_t(65535), uint16_t(65535)), uint16_t(1));
  EXPECT_EQ(ops::Negative{}(uint8_t(1)), uint8_t(255));
  EXPECT_EQ(ops::FloorDivide{}(uint32_t(7), uint32_t(0)), 0u);
  EXPECT_EQ(ops::BitwiseRightShift{}(uint8_t(200), uint8_t(8)), 0);
  EXPECT_EQ(ops::Sign{}(uint64_t(5)), 1u);
}

TEST(ScalarOps, ReciprocalOfIntegersAsNumPy) {
  EXPECT_EQ(ops::Reciprocal{}(int8_t(0)), 0);  // 1/0 = inf, cast as x86 does
  EXPECT_EQ(ops::Reciprocal{}(int64_t(0)), std::numeric_limits<int64_t>::lowest());
  EXPECT_EQ(ops::Reciprocal{}(int32_t(-1)), -1);
  EXPECT_EQ(ops::Reciprocal{}(uint64_t(0)), 0u);
}

TEST(ScalarOps, CastsOfNonFiniteFloatsToIntegers) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(cast<int32_t>(nan), std::numeric_limits<int32_t>::lowest());
  EXPECT_EQ(cast<int64_t>(inf), std::numeric_limits<int64_t>::lowest());
  EXPECT_EQ(cast<int64_t>(-inf), std::numeric_limits<int64_t>::lowest());
  EXPECT_EQ(cast<int8_t>(nan), 0);  // through int32: 0x80000000 truncated
  EXPECT_EQ(cast<int16_t>(1e10), 0);
  EXPECT_EQ(cast<uint8_t>(-1.0), 255);
  EXPECT_EQ(cast<uint64_t>(1e19), 10000000000000000000ULL);
  EXPECT_EQ(cast<uint32_t>(-1.0), 4294967295u);
  EXPECT_TRUE(cast<bool>(nan));
  EXPECT_EQ(cast<int32_t>(float16(2.75f)), 2);
}

TEST(ScalarOps, HalfConversions) {
  EXPECT_EQ(float16(65520.0f).bits, 0x7c00u);  // rounds to inf
  EXPECT_EQ(float16(65504.0f).bits, 0x7bffu);
  EXPECT_EQ(float16(5.960464477539063e-08).bits, 0x0001u);  // smallest subnormal, from double
  EXPECT_EQ(float16(2.98e-08f).bits, 0x0000u);
  EXPECT_EQ(float16(-0.0f).bits, 0x8000u);
  EXPECT_TRUE(math::isnan(float16(std::nanf(""))));
  EXPECT_EQ(static_cast<float>(float16::from_bits(0x3c01u)), 1.0009765625f);
  // Ties round to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(float16(1.00048828125f).bits, 0x3c00u);
  EXPECT_EQ(bfloat16(1.00390625f).bits, 0x3f80u);  // halfway, to even
  EXPECT_EQ(bfloat16(1.01171875f).bits, 0x3f82u);
  EXPECT_TRUE(math::isnan(bfloat16(std::nanf(""))));
  // From double, rounded once: just above the tie of 1 and 1 + 2^-7 (a float32 would hold
  // the tie itself and round it to even), and the same below zero and for tiny values.
  EXPECT_EQ(bfloat16(1.0 + 0x1p-8 + 0x1p-30).bits, 0x3f81u);
  EXPECT_EQ(bfloat16(-(1.0 + 0x1p-8 + 0x1p-30)).bits, 0xbf81u);
  EXPECT_EQ(bfloat16(1.0 + 0x1p-8).bits, 0x3f80u);  // an exact tie still goes to even
  EXPECT_EQ(bfloat16(1e-50).bits, 0x0000u);
  EXPECT_EQ(bfloat16(1e300).bits, 0x7f80u);
  // Once per op: float16 arithmetic rounds the float result, never twice.
  EXPECT_EQ(ops::Add{}(float16(2048.0f), float16(1.0f)).bits, float16(2048.0f).bits);
}

TEST(ScalarOps, FloatDivmodFollowsNumPy) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ops::FloorDivide{}(-1.0, inf), -1.0);
  EXPECT_EQ(ops::Remainder{}(-1.0, inf), inf);
  EXPECT_TRUE(std::isnan(ops::FloorDivide{}(inf, 2.0)));
  EXPECT_TRUE(std::signbit(ops::Remainder{}(-4.0, 2.0)) == false);  // sign of the divisor
  EXPECT_TRUE(std::signbit(ops::Remainder{}(4.0, -2.0)));
  EXPECT_EQ(ops::FloorDivide{}(5.0, -0.0), -inf);
  EXPECT_EQ(ops::FloorDivide{}(7.0, 2.0), 3.0);
  EXPECT_EQ(ops::FloorDivide{}(-7.0f, 2.0f), -4.0f);
}

TEST(ScalarOps, NaNPropagationAndTies) {
  const double nan = std::nan("");
  EXPECT_TRUE(std::isnan(ops::Maximum{}(1.0, nan)));
  EXPECT_TRUE(std::isnan(ops::Minimum{}(nan, 1.0)));
  EXPECT_EQ(ops::Fmax{}(1.0, nan), 1.0);
  EXPECT_EQ(ops::Fmin{}(nan, 1.0), 1.0);
  EXPECT_FALSE(std::signbit(ops::Maximum{}(-0.0, 0.0)));  // the second of equal values
  EXPECT_TRUE(std::signbit(ops::Maximum{}(0.0, -0.0)));
  EXPECT_EQ(ops::Rint{}(2.5), 2.0);
  EXPECT_EQ(ops::Rint{}(-3.5f), -4.0f);
  EXPECT_EQ(ops::Sign{}(-0.0), 0.0);
  EXPECT_TRUE(std::isnan(ops::Sign{}(nan)));
}

TEST(ScalarOps, ComplexSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const complex128 s = ops::Sqrt{}(complex128(-4.0, -0.0));
  EXPECT_EQ(s.re, 0.0);
  EXPECT_EQ(s.im, -2.0);  // below the cut
  const complex128 l = ops::Log{}(complex128(-0.0, 0.0));
  EXPECT_EQ(l.re, -inf);
  EXPECT_DOUBLE_EQ(l.im, M_PI);
  const complex128 a = ops::Acos{}(complex128(inf, 1.0));
  EXPECT_EQ(a.re, 0.0);
  EXPECT_EQ(a.im, -inf);
  const complex128 t = ops::Atanh{}(complex128(1.0, 0.0));
  EXPECT_EQ(t.re, inf);
  const complex128 e = ops::Exp{}(complex128(std::nan(""), 0.0));
  EXPECT_TRUE(std::isnan(e.re));
  EXPECT_EQ(e.im, 0.0);
  const complex128 z = ops::Sign{}(complex128(3.0, 4.0));
  EXPECT_DOUBLE_EQ(z.re, 0.6);
  EXPECT_DOUBLE_EQ(z.im, 0.8);
  EXPECT_TRUE(ops::Less{}(complex128(1.0, 2.0), complex128(1.0, 3.0)));
  EXPECT_FALSE(ops::Less{}(complex128(1.0, std::nan("")), complex128(2.0, 0.0)));
}

}  // namespace
}  // namespace accel
