// Portability layer for the headers in accel/kernels/.
//
// These headers are compiled three ways: by the host C++ compiler (CPU backend), by nvcc, and
// by NVRTC at run time, where they are embedded as strings into every generated program. NVRTC
// has no C++ standard library, so nothing here may include one when __CUDACC_RTC__ is defined.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define ACCEL_HD __host__ __device__ __forceinline__
#else
#define ACCEL_HD inline
#endif

// True while compiling device code (the NVRTC pass or nvcc's device pass).
#if defined(__CUDA_ARCH__)
#define ACCEL_DEVICE_CODE 1
#else
#define ACCEL_DEVICE_CODE 0
#endif

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#else
#include <cmath>
#include <cstdint>
#include <cstring>
#endif

namespace accel {

// The few type traits the scalar semantics need, usable under NVRTC. Constants are enumerators,
// not static constexpr members: NVRTC emits each of those it meets as a device global (about
// 70 per cubin, with their relocations), used or not.
template <class T, class U>
struct is_same {
  enum : bool { value = false };
};
template <class T>
struct is_same<T, T> {
  enum : bool { value = true };
};
template <class T, class U>
inline constexpr bool is_same_v = is_same<T, U>::value;

template <class T>
struct is_signed_int {
  enum : bool {
    value = is_same_v<T, int8_t> || is_same_v<T, int16_t> || is_same_v<T, int32_t> ||
            is_same_v<T, int64_t>
  };
};
template <class T>
struct is_unsigned_int {
  enum : bool {
    value = is_same_v<T, uint8_t> || is_same_v<T, uint16_t> || is_same_v<T, uint32_t> ||
            is_same_v<T, uint64_t>
  };
};
template <class T>
inline constexpr bool is_int_v = is_signed_int<T>::value || is_unsigned_int<T>::value;
template <class T>
inline constexpr bool is_signed_int_v = is_signed_int<T>::value;
template <class T>
inline constexpr bool is_unsigned_int_v = is_unsigned_int<T>::value;

template <class T>
struct make_unsigned {
  using type = T;
};
template <>
struct make_unsigned<int8_t> {
  using type = uint8_t;
};
template <>
struct make_unsigned<int16_t> {
  using type = uint16_t;
};
template <>
struct make_unsigned<int32_t> {
  using type = uint32_t;
};
template <>
struct make_unsigned<int64_t> {
  using type = uint64_t;
};
template <class T>
using make_unsigned_t = typename make_unsigned<T>::type;

// Bit casts without <cstring> or <bit>.
template <class To, class From>
ACCEL_HD To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  union {
    From f;
    To t;
  } u;
  u.f = from;
  return u.t;
#else
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
#endif
}

template <class T>
struct numeric_limits;
#define ACCEL_INT_LIMITS(T, LO, HI)                                       \
  template <>                                                             \
  struct numeric_limits<T> {                                              \
    ACCEL_HD static constexpr T lowest() { return LO; }                   \
    ACCEL_HD static constexpr T max() { return HI; }                      \
    enum : int { digits = sizeof(T) * 8 - (is_signed_int_v<T> ? 1 : 0) }; \
  };
ACCEL_INT_LIMITS(int8_t, -128, 127)
ACCEL_INT_LIMITS(int16_t, -32768, 32767)
ACCEL_INT_LIMITS(int32_t, (-2147483647 - 1), 2147483647)
ACCEL_INT_LIMITS(int64_t, (-9223372036854775807LL - 1), 9223372036854775807LL)
ACCEL_INT_LIMITS(uint8_t, 0, 255)
ACCEL_INT_LIMITS(uint16_t, 0, 65535)
ACCEL_INT_LIMITS(uint32_t, 0, 4294967295U)
ACCEL_INT_LIMITS(uint64_t, 0, 18446744073709551615ULL)
#undef ACCEL_INT_LIMITS

// x * y + z rounded once, on every host (std::fma is exact even without the instruction). Here,
// not in math.h, because complex.h's product needs it and math.h includes complex.h.
namespace math {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
ACCEL_HD float fma(float x, float y, float z) { return ::fmaf(x, y, z); }
ACCEL_HD double fma(double x, double y, double z) { return ::fma(x, y, z); }
#else
inline float fma(float x, float y, float z) { return std::fma(x, y, z); }
inline double fma(double x, double y, double z) { return std::fma(x, y, z); }
#endif
}  // namespace math

}  // namespace accel
