// Conversions between dtypes: every dtype conversion in accelpy goes through cast<To>(from).
//
// Where C++ leaves a conversion undefined (NaN, infinities or out-of-range floats to integers)
// the result is the one NumPy gets on x86-64, computed without undefined behaviour, so that the
// CPU and the GPU agree.
#pragma once

#include "complex.h"
#include "half.h"
#include "platform.h"

namespace accel {

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

template <class T>
inline constexpr bool is_float_v = is_same_v<T, float> || is_same_v<T, double> || is_half_v<T>;

// ---------------------------------------------------------------------------------------------
// Casts. Every dtype conversion goes through cast<To>(from).

namespace detail {

// C's truncating float-to-int conversion as x86-64 performs it (cvttsd2si): NaN and values out
// of range give the "integer indefinite" value, the most negative integer of the width.
ACCEL_HD int32_t trunc_to_i32(double x) {
  if (!(x > -2147483649.0 && x < 2147483648.0)) return numeric_limits<int32_t>::lowest();
  return static_cast<int32_t>(x);
}
ACCEL_HD int64_t trunc_to_i64(double x) {
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
    return numeric_limits<int64_t>::lowest();
  return static_cast<int64_t>(x);
}
ACCEL_HD uint64_t trunc_to_u64(double x) {
  if (x < 9223372036854775808.0) return static_cast<uint64_t>(trunc_to_i64(x));
  return static_cast<uint64_t>(trunc_to_i64(x - 9223372036854775808.0)) ^ 0x8000000000000000ULL;
}

template <class To>
ACCEL_HD To float_to_int(double x) {
  if constexpr (is_same_v<To, int64_t>) {
    return trunc_to_i64(x);
  } else if constexpr (is_same_v<To, uint64_t>) {
    return trunc_to_u64(x);
  } else if constexpr (is_same_v<To, uint32_t>) {
    return static_cast<uint32_t>(trunc_to_i64(x));
  } else {
    return static_cast<To>(trunc_to_i32(x));  // int8/16/32 and uint8/16 go through int32
  }
}

}  // namespace detail

template <class To, class From>
ACCEL_HD To cast(From x) {
  if constexpr (is_same_v<To, From>) {
    return x;
  } else if constexpr (is_same_v<To, bool>) {
    if constexpr (is_complex_v<From>) {
      return x.re != real_t<From>(0) || x.im != real_t<From>(0);
    } else if constexpr (is_half_v<From>) {
      return static_cast<float>(x) != 0.0f;
    } else {
      return x != From(0);
    }
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) {
      return To(cast<real_t<To>>(x.re), cast<real_t<To>>(x.im));
    } else {
      return cast<To>(x.re);  // NumPy discards the imaginary part (with a ComplexWarning)
    }
  } else if constexpr (is_complex_v<To>) {
    return To(cast<real_t<To>>(x), real_t<To>(0));
  } else if constexpr (is_same_v<From, bool>) {
    return To(x ? 1 : 0);
  } else if constexpr (is_int_v<To> && is_float_v<From>) {
    return detail::float_to_int<To>(static_cast<double>(x));
  } else if constexpr (is_half_v<To>) {
    if constexpr (is_same_v<From, float> || is_same_v<From, double>) {
      return To(x);
    } else if constexpr (is_half_v<From>) {
      return To(static_cast<float>(x));
    } else {
      return To(static_cast<double>(x));  // integers: exact in double up to 2^53, as NumPy
    }
  } else if constexpr (is_half_v<From>) {
    return static_cast<To>(static_cast<float>(x));
  } else {
    return static_cast<To>(x);  // int<->int wraps modulo 2^n (C++20); int->float rounds
  }
}

}  // namespace accel
