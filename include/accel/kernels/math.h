// Math functions overloaded for every floating dtype, for host and device code.
//
// float and double map to the C library on the host and to CUDA's built-in math functions in
// device code (NVRTC needs no header for those). float16 and bfloat16 compute in float and round
// once, as NumPy does. complex functions are written here once so that the CPU and the GPU
// agree; they follow the C99 Annex G special cases that NumPy's npymath implements.
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
ACCEL_HD bool isnan(float x) { return ::isnan(x); }
ACCEL_HD bool isnan(double x) { return ::isnan(x); }
ACCEL_HD bool isinf(float x) { return ::isinf(x); }
ACCEL_HD bool isinf(double x) { return ::isinf(x); }
ACCEL_HD bool signbit(float x) { return ::signbit(x); }
ACCEL_HD bool signbit(double x) { return ::signbit(x); }
#else
#define ACCEL_MATH_UNARY(NAME)                        \
  inline float NAME(float x) { return std::NAME(x); } \
  inline double NAME(double x) { return std::NAME(x); }
#define ACCEL_MATH_BINARY(NAME)                                   \
  inline float NAME(float x, float y) { return std::NAME(x, y); } \
  inline double NAME(double x, double y) { return std::NAME(x, y); }
inline bool isnan(float x) { return std::isnan(x); }
inline bool isnan(double x) { return std::isnan(x); }
inline bool isinf(float x) { return std::isinf(x); }
inline bool isinf(double x) { return std::isinf(x); }
inline bool signbit(float x) { return std::signbit(x); }
inline bool signbit(double x) { return std::signbit(x); }
#endif

ACCEL_MATH_UNARY(sqrt)
ACCEL_MATH_UNARY(sinh)
ACCEL_MATH_UNARY(cosh)
ACCEL_MATH_BINARY(atan2)
ACCEL_MATH_BINARY(hypot)
ACCEL_MATH_BINARY(copysign)
ACCEL_MATH_UNARY(exp)
ACCEL_MATH_UNARY(log)
ACCEL_MATH_UNARY(sin)
ACCEL_MATH_UNARY(cos)
ACCEL_MATH_UNARY(fabs)
ACCEL_MATH_UNARY(floor)
ACCEL_MATH_UNARY(ceil)
ACCEL_MATH_UNARY(trunc)
ACCEL_MATH_BINARY(fmod)
#undef ACCEL_MATH_UNARY
#undef ACCEL_MATH_BINARY

// float16 / bfloat16: compute in float, round once.
ACCEL_HD float16 sqrt(float16 x) { return float16(sqrt(static_cast<float>(x))); }
ACCEL_HD bfloat16 sqrt(bfloat16 x) { return bfloat16(sqrt(static_cast<float>(x))); }
ACCEL_HD float16 exp(float16 x) { return float16(exp(static_cast<float>(x))); }
ACCEL_HD bfloat16 exp(bfloat16 x) { return bfloat16(exp(static_cast<float>(x))); }
ACCEL_HD float16 log(float16 x) { return float16(log(static_cast<float>(x))); }
ACCEL_HD bfloat16 log(bfloat16 x) { return bfloat16(log(static_cast<float>(x))); }
ACCEL_HD float16 sin(float16 x) { return float16(sin(static_cast<float>(x))); }
ACCEL_HD bfloat16 sin(bfloat16 x) { return bfloat16(sin(static_cast<float>(x))); }
ACCEL_HD float16 cos(float16 x) { return float16(cos(static_cast<float>(x))); }
ACCEL_HD bfloat16 cos(bfloat16 x) { return bfloat16(cos(static_cast<float>(x))); }

ACCEL_HD bool isnan(float16 x) { return (x.bits & 0x7fffu) > 0x7c00u; }
ACCEL_HD bool isnan(bfloat16 x) { return (x.bits & 0x7fffu) > 0x7f80u; }

// complex: C99 Annex G semantics, as NumPy's npymath.
template <class T>
ACCEL_HD T abs(complex<T> z) {
  return hypot(z.re, z.im);
}

template <class T>
ACCEL_HD bool isnan(complex<T> z) {
  return isnan(z.re) || isnan(z.im);
}

template <class T>
ACCEL_HD complex<T> sqrt(complex<T> z) {
  const T a = z.re, b = z.im;
  if (a == T(0) && b == T(0)) return {T(0), b};
  if (isinf(b)) return {T(INFINITY), b};
  if (isnan(a)) return {a, (b - b) / (b - b)};
  if (isinf(a)) {
    if (signbit(a)) return {fabs(b - b), copysign(a, b)};
    return {a, isnan(b) ? b : copysign(T(0), b)};
  }
  // Scale to avoid overflow in hypot and underflow in the square root.
  const T big = T(1) / T(4) * (sizeof(T) == 4 ? T(3.4028234e38f) : T(1.7976931348623157e308));
  if (fabs(a) >= big || fabs(b) >= big) {
    const complex<T> s = sqrt(complex<T>(a * T(0.25), b * T(0.25)));
    return {s.re * T(2), s.im * T(2)};
  }
  const T t = sqrt((fabs(a) + hypot(a, b)) * T(0.5));
  if (a >= T(0)) return {t, b / (T(2) * t)};
  return {fabs(b) / (T(2) * t), copysign(t, b)};
}

template <class T>
ACCEL_HD complex<T> exp(complex<T> z) {
  const T a = z.re, b = z.im;
  if (b == T(0) && !isnan(a)) return {exp(a), b};
  if (isinf(a)) {
    if (a < T(0)) {
      if (!isinf(b) && !isnan(b)) return {T(0) * cos(b), T(0) * sin(b)};
      return {T(0), T(0)};
    }
    if (isinf(b) || isnan(b)) return {a, b - b};
  }
  const T e = exp(a);
  return {e * cos(b), e * sin(b)};
}

template <class T>
ACCEL_HD complex<T> log(complex<T> z) {
  return {log(hypot(z.re, z.im)), atan2(z.im, z.re)};
}

template <class T>
ACCEL_HD complex<T> sin(complex<T> z) {
  return {sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)};
}

template <class T>
ACCEL_HD complex<T> cos(complex<T> z) {
  return {cos(z.re) * cosh(z.im), -(sin(z.re) * sinh(z.im))};
}

}  // namespace accel::math
