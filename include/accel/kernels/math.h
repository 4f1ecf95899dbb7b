// Real math functions overloaded for every floating dtype, for host and device code.
//
// float and double map to the C library on the host and to CUDA's built-in math functions in
// device code (NVRTC needs no header for those). float16 and bfloat16 compute in float and round
// once, as NumPy does. The complex functions live in complex_math.h.
#pragma once

#include "complex.h"
#include "half.h"

namespace accel::math {

#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
#define ACCEL_MATH_UNARY(NAME)                          \
  ACCEL_HD float NAME(float x) { return ::NAME##f(x); } \
  ACCEL_HD double NAME(double x) { return ::NAME(x); }
#define ACCEL_MATH_BINARY(NAME)                                     \
  ACCEL_HD float NAME(float x, float y) { return ::NAME##f(x, y); } \
  ACCEL_HD double NAME(double x, double y) { return ::NAME(x, y); }
#define ACCEL_MATH_PREDICATE(NAME)                  \
  ACCEL_HD bool NAME(float x) { return ::NAME(x); } \
  ACCEL_HD bool NAME(double x) { return ::NAME(x); }
#else
#define ACCEL_MATH_UNARY(NAME)                        \
  inline float NAME(float x) { return std::NAME(x); } \
  inline double NAME(double x) { return std::NAME(x); }
#define ACCEL_MATH_BINARY(NAME)                                   \
  inline float NAME(float x, float y) { return std::NAME(x, y); } \
  inline double NAME(double x, double y) { return std::NAME(x, y); }
#define ACCEL_MATH_PREDICATE(NAME)                   \
  inline bool NAME(float x) { return std::NAME(x); } \
  inline bool NAME(double x) { return std::NAME(x); }
#endif

// Infinity, the largest finite value and the quiet NaN without <cmath>'s macros, which NVRTC
// lacks: the float or double of the given bits.
template <class T>
ACCEL_HD T float_of_bits(uint32_t f, uint64_t d) {
  if constexpr (sizeof(T) == 4)
    return bit_cast<float>(f);
  else
    return bit_cast<double>(d);
}
template <class T>
ACCEL_HD T infinity() {
  return float_of_bits<T>(0x7f800000u, 0x7ff0000000000000ULL);
}
template <class T>
ACCEL_HD T largest_finite() {
  return float_of_bits<T>(0x7f7fffffu, 0x7fefffffffffffffULL);
}
template <class T>
ACCEL_HD T quiet_nan() {
  return float_of_bits<T>(0x7fc00000u, 0x7ff8000000000000ULL);
}

ACCEL_MATH_PREDICATE(isnan)
ACCEL_MATH_PREDICATE(isinf)
ACCEL_MATH_PREDICATE(isfinite)
ACCEL_MATH_PREDICATE(signbit)

// float16 and bfloat16 answer from their bits: exact, and no conversion.
ACCEL_HD bool isnan(float16 x) { return (x.bits & 0x7fffu) > 0x7c00u; }
ACCEL_HD bool isnan(bfloat16 x) { return (x.bits & 0x7fffu) > 0x7f80u; }
ACCEL_HD bool isinf(float16 x) { return (x.bits & 0x7fffu) == 0x7c00u; }
ACCEL_HD bool isinf(bfloat16 x) { return (x.bits & 0x7fffu) == 0x7f80u; }
ACCEL_HD bool isfinite(float16 x) { return (x.bits & 0x7c00u) != 0x7c00u; }
ACCEL_HD bool isfinite(bfloat16 x) { return (x.bits & 0x7f80u) != 0x7f80u; }
ACCEL_HD bool signbit(float16 x) { return (x.bits & 0x8000u) != 0; }
ACCEL_HD bool signbit(bfloat16 x) { return (x.bits & 0x8000u) != 0; }

// Every unary and binary function: the C function for float and double, and for the 16-bit
// floats the float function rounded once.
#define ACCEL_MATH_HALF_UNARY(NAME)                                                 \
  ACCEL_HD float16 NAME(float16 x) { return float16(NAME(static_cast<float>(x))); } \
  ACCEL_HD bfloat16 NAME(bfloat16 x) { return bfloat16(NAME(static_cast<float>(x))); }
#define ACCEL_MATH_HALF_BINARY(NAME)                                     \
  ACCEL_HD float16 NAME(float16 x, float16 y) {                          \
    return float16(NAME(static_cast<float>(x), static_cast<float>(y)));  \
  }                                                                      \
  ACCEL_HD bfloat16 NAME(bfloat16 x, bfloat16 y) {                       \
    return bfloat16(NAME(static_cast<float>(x), static_cast<float>(y))); \
  }
#define ACCEL_MATH_ALL_UNARY(NAME) \
  ACCEL_MATH_UNARY(NAME)           \
  ACCEL_MATH_HALF_UNARY(NAME)
#define ACCEL_MATH_ALL_BINARY(NAME) \
  ACCEL_MATH_BINARY(NAME)           \
  ACCEL_MATH_HALF_BINARY(NAME)

ACCEL_MATH_ALL_UNARY(sqrt)
ACCEL_MATH_ALL_UNARY(cbrt)
ACCEL_MATH_ALL_UNARY(exp)
ACCEL_MATH_ALL_UNARY(exp2)
ACCEL_MATH_ALL_UNARY(expm1)
ACCEL_MATH_ALL_UNARY(log)
ACCEL_MATH_ALL_UNARY(log2)
ACCEL_MATH_ALL_UNARY(log10)
ACCEL_MATH_ALL_UNARY(log1p)
ACCEL_MATH_ALL_UNARY(sin)
ACCEL_MATH_ALL_UNARY(cos)
ACCEL_MATH_ALL_UNARY(tan)
ACCEL_MATH_ALL_UNARY(asin)
ACCEL_MATH_ALL_UNARY(acos)
ACCEL_MATH_ALL_UNARY(atan)
ACCEL_MATH_ALL_UNARY(sinh)
ACCEL_MATH_ALL_UNARY(cosh)
ACCEL_MATH_ALL_UNARY(tanh)
ACCEL_MATH_ALL_UNARY(asinh)
ACCEL_MATH_ALL_UNARY(acosh)
ACCEL_MATH_ALL_UNARY(atanh)
ACCEL_MATH_ALL_UNARY(floor)
ACCEL_MATH_ALL_UNARY(ceil)
ACCEL_MATH_ALL_UNARY(trunc)
ACCEL_MATH_ALL_UNARY(rint)  // round half to even in the default rounding mode
ACCEL_MATH_UNARY(fabs)
ACCEL_MATH_ALL_BINARY(atan2)
ACCEL_MATH_ALL_BINARY(hypot)
ACCEL_MATH_ALL_BINARY(fmod)
ACCEL_MATH_ALL_BINARY(pow)
ACCEL_MATH_BINARY(copysign)
ACCEL_MATH_BINARY(nextafter)

// fma (x * y + z rounded once) is in platform.h: complex.h's product needs it.

// The bit layout of float and double: the unsigned and signed integers of their size, the
// mantissa's width and the exponent's bias.
template <class T>
struct float_layout;
template <>
struct float_layout<float> {
  using bits_type = uint32_t;
  using signed_bits_type = int32_t;
  enum : int { mantissa = 23, bias = 127 };
};
template <>
struct float_layout<double> {
  using bits_type = uint64_t;
  using signed_bits_type = int64_t;
  enum : int { mantissa = 52, bias = 1023 };
};

// x == m * 2^e with |m| in [0.5, 1), from the bits (a few integer operations, no library call):
// the exponent field, and the mantissa given the exponent of 0.5; subnormals are first scaled
// into the normal range by 2^(mantissa + 1), exactly. Zeros, infinities and NaNs are their own
// m with e = 0, as NumPy's (C leaves e unspecified for the last two).
template <class T>
ACCEL_HD T frexp_bits(T x, int& e) {
  using L = float_layout<T>;
  using Bits = typename L::bits_type;
  const Bits field_mask = Bits(2 * L::bias + 1);
  const T smallest_normal = bit_cast<T>(Bits(1) << L::mantissa);
  const T scale = bit_cast<T>(Bits(L::bias + L::mantissa + 1) << L::mantissa);
  const bool sub = x != T(0) && fabs(x) < smallest_normal;
  const Bits b = bit_cast<Bits>(sub ? x * scale : x);
  const int field = int((b >> L::mantissa) & field_mask);
  const bool regular = field != 0 && field != int(field_mask);
  e = regular ? field - (L::bias - 1) - (sub ? L::mantissa + 1 : 0) : 0;
  const Bits half = (b & ~(field_mask << L::mantissa)) | (Bits(L::bias - 1) << L::mantissa);
  return regular ? bit_cast<T>(half) : x;
}
ACCEL_HD float frexp(float x, int& e) { return frexp_bits(x, e); }
ACCEL_HD double frexp(double x, int& e) { return frexp_bits(x, e); }
// The 16-bit floats through float: every one of them is a normal float, and m is exact again.
ACCEL_HD float16 frexp(float16 x, int& e) { return float16(frexp(static_cast<float>(x), e)); }
ACCEL_HD bfloat16 frexp(bfloat16 x, int& e) { return bfloat16(frexp(static_cast<float>(x), e)); }

// Sign manipulation of the 16-bit floats is exact on the bits (NaN payloads kept).
template <class H>
ACCEL_HD H half_from_bits(uint32_t bits) {
  return H::from_bits(static_cast<uint16_t>(bits));
}
ACCEL_HD float16 fabs(float16 x) { return half_from_bits<float16>(x.bits & 0x7fffu); }
ACCEL_HD bfloat16 fabs(bfloat16 x) { return half_from_bits<bfloat16>(x.bits & 0x7fffu); }
ACCEL_HD float16 copysign(float16 x, float16 y) {
  return half_from_bits<float16>((x.bits & 0x7fffu) | (y.bits & 0x8000u));
}
ACCEL_HD bfloat16 copysign(bfloat16 x, bfloat16 y) {
  return half_from_bits<bfloat16>((x.bits & 0x7fffu) | (y.bits & 0x8000u));
}

// nextafter on the bits, as NumPy's npy_half_nextafter (x == y gives x; NaN gives the quiet
// NaN); both 16-bit formats are sign-magnitude, so one definition serves both.
template <class H>
ACCEL_HD H half_nextafter(H x, H y) {
  const uint32_t quiet_nan = is_same_v<H, float16> ? 0x7e00u : 0x7fc0u;
  if (isnan(x) || isnan(y)) return half_from_bits<H>(quiet_nan);
  if (static_cast<float>(x) == static_cast<float>(y)) return x;
  if ((x.bits & 0x7fffu) == 0) return half_from_bits<H>((y.bits & 0x8000u) + 1u);
  const bool x_positive = (x.bits & 0x8000u) == 0;
  const bool toward_zero = x_positive ? static_cast<float>(x) > static_cast<float>(y)
                                      : static_cast<float>(x) < static_cast<float>(y);
  return half_from_bits<H>(toward_zero ? x.bits - 1u : x.bits + 1u);
}
ACCEL_HD float16 nextafter(float16 x, float16 y) { return half_nextafter(x, y); }
ACCEL_HD bfloat16 nextafter(bfloat16 x, bfloat16 y) { return half_nextafter(x, y); }

#undef ACCEL_MATH_ALL_UNARY
#undef ACCEL_MATH_ALL_BINARY
#undef ACCEL_MATH_HALF_UNARY
#undef ACCEL_MATH_HALF_BINARY
#undef ACCEL_MATH_UNARY
#undef ACCEL_MATH_BINARY
#undef ACCEL_MATH_PREDICATE

}  // namespace accel::math
