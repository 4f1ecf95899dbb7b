// float16 and bfloat16 storage types for host and device code.
//
// Arithmetic converts to float, computes, and rounds back after every operation. That is what
// NumPy does for float16 (and ml_dtypes for bfloat16), so results match NumPy bit for bit.
// The float16 conversions are NumPy's (npy_floatbits_to_halfbits and friends: round to nearest
// even, NaN payloads kept); casting float64 to float16 rounds once, directly from double. Like
// NumPy's, they raise the IEEE overflow flag for a finite value that becomes infinite and the
// underflow flag for one that becomes subnormal or zero inexactly, which NumPy's error modes
// report ("overflow encountered in add", "... in reduce", "... in cast").
#pragma once

#include "platform.h"

namespace accel {

// Raise the IEEE flags NumPy's error modes report (numpy.seterr) where a result is computed
// without the float operation that would raise them (a float16 conversion, an integer overflow):
// by doing such an operation (volatile: not folded away). Device code raises nothing.
ACCEL_HD void raise_overflow() {
#if !ACCEL_DEVICE_CODE
  volatile double big = 1e308;
  volatile double product = big * big;
  (void)product;
#endif
}
ACCEL_HD void raise_underflow() {
#if !ACCEL_DEVICE_CODE
  volatile double tiny = 1e-300;
  volatile double product = tiny * tiny;
  (void)product;
#endif
}

namespace detail {

ACCEL_HD uint16_t float_bits_to_half_bits(uint32_t f) {
  const uint16_t sign = static_cast<uint16_t>((f & 0x80000000u) >> 16);
  uint32_t exp = f & 0x7f800000u;
  if (exp >= 0x47800000u) {  // overflow, inf or NaN
    const uint32_t sig = f & 0x007fffffu;
    if (exp == 0x7f800000u && sig != 0) {
      uint16_t ret = static_cast<uint16_t>(0x7c00u + (sig >> 13));
      if (ret == 0x7c00u) ++ret;  // keep it a NaN
      return static_cast<uint16_t>(sign + ret);
    }
    if (exp != 0x7f800000u) raise_overflow();
    return static_cast<uint16_t>(sign + 0x7c00u);
  }
  if (exp <= 0x38000000u) {  // subnormal half or signed zero
    if (exp < 0x33000000u) {
      if (f & 0x7fffffffu) raise_underflow();
      return sign;
    }
    exp >>= 23;
    uint32_t sig = 0x00800000u + (f & 0x007fffffu);
    if (sig & ((1u << (126 - exp)) - 1)) raise_underflow();  // bits lost: inexact
    sig >>= (113 - exp);
    if (((sig & 0x00003fffu) != 0x00001000u) || (f & 0x000007ffu)) sig += 0x00001000u;
    return static_cast<uint16_t>(sign + static_cast<uint16_t>(sig >> 13));
  }
  const uint16_t hexp = static_cast<uint16_t>((exp - 0x38000000u) >> 13);
  uint32_t sig = f & 0x007fffffu;
  if ((sig & 0x00003fffu) != 0x00001000u) sig += 0x00001000u;
  // A carry out of the significand correctly bumps the exponent (to inf at the top).
  const auto h = static_cast<uint16_t>(hexp + static_cast<uint16_t>(sig >> 13));
  if (h == 0x7c00u) raise_overflow();
  return static_cast<uint16_t>(sign + h);
}

ACCEL_HD uint16_t double_bits_to_half_bits(uint64_t d) {
  const uint16_t sign = static_cast<uint16_t>((d & 0x8000000000000000ULL) >> 48);
  uint64_t exp = d & 0x7ff0000000000000ULL;
  if (exp >= 0x40f0000000000000ULL) {
    const uint64_t sig = d & 0x000fffffffffffffULL;
    if (exp == 0x7ff0000000000000ULL && sig != 0) {
      uint16_t ret = static_cast<uint16_t>(0x7c00u + (sig >> 42));
      if (ret == 0x7c00u) ++ret;
      return static_cast<uint16_t>(sign + ret);
    }
    if (exp != 0x7ff0000000000000ULL) raise_overflow();
    return static_cast<uint16_t>(sign + 0x7c00u);
  }
  if (exp <= 0x3f00000000000000ULL) {
    if (exp < 0x3e60000000000000ULL) {
      if (d & 0x7fffffffffffffffULL) raise_underflow();
      return sign;
    }
    exp >>= 52;
    uint64_t sig = 0x0010000000000000ULL + (d & 0x000fffffffffffffULL);
    if (sig & ((uint64_t(1) << (1051 - exp)) - 1)) raise_underflow();  // bits lost: inexact
    sig <<= (exp - 998);
    if ((sig & 0x003fffffffffffffULL) != 0x0010000000000000ULL) sig += 0x0010000000000000ULL;
    return static_cast<uint16_t>(sign + static_cast<uint16_t>(sig >> 53));
  }
  const uint16_t hexp = static_cast<uint16_t>((exp - 0x3f00000000000000ULL) >> 42);
  uint64_t sig = d & 0x000fffffffffffffULL;
  if ((sig & 0x000007ffffffffffULL) != 0x0000020000000000ULL) sig += 0x0000020000000000ULL;
  const auto h = static_cast<uint16_t>(hexp + static_cast<uint16_t>(sig >> 42));
  if (h == 0x7c00u) raise_overflow();
  return static_cast<uint16_t>(sign + h);
}

ACCEL_HD uint32_t half_bits_to_float_bits(uint16_t h) {
  uint16_t hexp = h & 0x7c00u;
  const uint32_t sign = (static_cast<uint32_t>(h) & 0x8000u) << 16;
  if (hexp == 0) {
    uint16_t sig = h & 0x03ffu;
    if (sig == 0) return sign;
    sig <<= 1;
    while ((sig & 0x0400u) == 0) {
      sig <<= 1;
      ++hexp;
    }
    return sign + (static_cast<uint32_t>(127 - 15 - hexp) << 23) +
           (static_cast<uint32_t>(sig & 0x03ffu) << 13);
  }
  if (hexp == 0x7c00u) return sign + 0x7f800000u + (static_cast<uint32_t>(h & 0x03ffu) << 13);
  return sign + ((static_cast<uint32_t>(h & 0x7fffu) + 0x1c000u) << 13);
}

ACCEL_HD uint16_t float_bits_to_bfloat16_bits(uint32_t u) {
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);                    // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}

}  // namespace detail

struct float16 {
  uint16_t bits;
  float16() = default;
  ACCEL_HD static float16 from_bits(uint16_t b) {
    float16 h;
    h.bits = b;
    return h;
  }
  ACCEL_HD float16(float f) : bits(detail::float_bits_to_half_bits(bit_cast<uint32_t>(f))) {}
  ACCEL_HD float16(double d) : bits(detail::double_bits_to_half_bits(bit_cast<uint64_t>(d))) {}
  template <class I, class = decltype(static_cast<float>(I()))>
  ACCEL_HD explicit float16(I i) : float16(static_cast<double>(i)) {}
  ACCEL_HD operator float() const { return bit_cast<float>(detail::half_bits_to_float_bits(bits)); }
};

struct bfloat16 {
  uint16_t bits;
  ACCEL_HD static float round_to_odd_float(double d) {
    const float f = static_cast<float>(d);
    uint32_t b = bit_cast<uint32_t>(f);
    if ((b & 0x7f800000u) == 0x7f800000u) return f;  // inf or NaN
    const double back = static_cast<double>(f);
    if (back == d) return f;
    if ((back > d) == (d > 0)) b -= 1;  // rounded away from zero: step back toward it
    return bit_cast<float>(b | 1u);
  }
  bfloat16() = default;
  ACCEL_HD static bfloat16 from_bits(uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
  ACCEL_HD bfloat16(float f) : bits(detail::float_bits_to_bfloat16_bits(bit_cast<uint32_t>(f))) {}
  // Rounds once, as ml_dtypes does: through float32 rounded to odd, which keeps the bits that
  // decide bfloat16's rounding (rounding to nearest float32 first could round twice).
  ACCEL_HD bfloat16(double d) : bfloat16(round_to_odd_float(d)) {}
  template <class I, class = decltype(static_cast<float>(I()))>
  ACCEL_HD explicit bfloat16(I i) : bfloat16(static_cast<double>(i)) {}
  ACCEL_HD operator float() const { return bit_cast<float>(static_cast<uint32_t>(bits) << 16); }
};

template <class T>
inline constexpr bool is_half_v = is_same_v<T, float16> || is_same_v<T, bfloat16>;

#define ACCEL_HALF_BINOP(H, OP) \
  ACCEL_HD H operator OP(H a, H b) { return H(static_cast<float>(a) OP static_cast<float>(b)); }
#define ACCEL_HALF_CMP(H, OP) \
  ACCEL_HD bool operator OP(H a, H b) { return static_cast<float>(a) OP static_cast<float>(b); }
#define ACCEL_HALF_OPS(H) \
  ACCEL_HALF_BINOP(H, +)  \
  ACCEL_HALF_BINOP(H, -)  \
  ACCEL_HALF_BINOP(H, *)  \
  ACCEL_HALF_BINOP(H, /)  \
  ACCEL_HALF_CMP(H, ==)   \
  ACCEL_HALF_CMP(H, !=)   \
  ACCEL_HALF_CMP(H, <)    \
  ACCEL_HALF_CMP(H, <=)   \
  ACCEL_HALF_CMP(H, >)    \
  ACCEL_HALF_CMP(H, >=)   \
  ACCEL_HD H operator-(H a) { return H::from_bits(static_cast<uint16_t>(a.bits ^ 0x8000u)); }
ACCEL_HALF_OPS(float16)
ACCEL_HALF_OPS(bfloat16)
#undef ACCEL_HALF_OPS
#undef ACCEL_HALF_CMP
#undef ACCEL_HALF_BINOP

}  // namespace accel
