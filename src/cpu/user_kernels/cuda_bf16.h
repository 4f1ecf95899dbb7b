// <cuda_bf16.h> for users' kernels on the CPU: __nv_bfloat16 and __nv_bfloat162, accelpy's
// bfloat16 (include/accel/kernels/half.h: round to nearest even, as ml_dtypes and CUDA's
// __float2bfloat16 do), with the arithmetic names CUDA overloads for both 16-bit types.
#pragma once

#include <cuda_fp16.h>

typedef accel::bfloat16 __nv_bfloat16;
typedef accel::bfloat16 nv_bfloat16;
struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
};
typedef __nv_bfloat162 nv_bfloat162;

inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
inline float __bfloat162float(__nv_bfloat16 h) { return float(h); }
inline __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16(double(i)); }
inline int __bfloat162int_rn(__nv_bfloat16 h) { return int(nearbyintf(float(h))); }
inline int __bfloat162int_rz(__nv_bfloat16 h) { return int(float(h)); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.bits; }
inline short __bfloat16_as_short(__nv_bfloat16 h) { return short(h.bits); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short b) { return __nv_bfloat16::from_bits(b); }
inline __nv_bfloat16 __short_as_bfloat16(short b) {
  return __nv_bfloat16::from_bits((unsigned short)b);
}
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162{a, b};
}
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162{a, a}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162{__nv_bfloat16(a), __nv_bfloat16(b)};
}
inline __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162{__nv_bfloat16(f), __nv_bfloat16(f)};
}
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{float(h.x), float(h.y)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }

ACCEL_CPU_HALF_FUNCTIONS(__nv_bfloat16)
ACCEL_CPU_HALF_PAIRS(__nv_bfloat162, __nv_bfloat16)
