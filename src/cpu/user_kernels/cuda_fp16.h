// <cuda_fp16.h> for users' kernels on the CPU: __half and __half2 with CUDA's conversions,
// arithmetic and comparisons. __half is accelpy's float16 (include/accel/kernels/half.h, put in
// front of every CPU program), so conversions round as NumPy's float16 does (to nearest even);
// arithmetic computes in float and rounds once, as CUDA's float-emulated paths do.
#pragma once

typedef accel::float16 __half;
typedef accel::float16 half;
struct __half2 {
  __half x, y;
};
typedef __half2 half2;
struct __half_raw {
  unsigned short x;
};

// ---- conversions ------------------------------------------------------------------------------
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline float __half2float(__half h) { return float(h); }
inline __half __int2half_rn(int i) { return __half(double(i)); }
inline __half __uint2half_rn(unsigned i) { return __half(double(i)); }
inline __half __ll2half_rn(long long i) { return __half(double(i)); }
inline int __half2int_rn(__half h) { return int(nearbyintf(float(h))); }
inline int __half2int_rz(__half h) { return int(float(h)); }
inline int __half2int_rd(__half h) { return int(floorf(float(h))); }
inline int __half2int_ru(__half h) { return int(ceilf(float(h))); }
inline unsigned short __half_as_ushort(__half h) { return h.bits; }
inline short __half_as_short(__half h) { return short(h.bits); }
inline __half __ushort_as_half(unsigned short b) { return __half::from_bits(b); }
inline __half __short_as_half(short b) { return __half::from_bits((unsigned short)b); }
inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 __half2half2(__half a) { return __half2{a, a}; }
inline __half2 __float2half2_rn(float f) { return __half2{__half(f), __half(f)}; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
inline float2 __half22float2(__half2 h) { return float2{float(h.x), float(h.y)}; }
inline __half2 __float22half2_rn(float2 f) { return __half2{__half(f.x), __half(f.y)}; }
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2{a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2{a.y, b.y}; }
inline __half2 __lowhigh2highlow(__half2 h) { return __half2{h.y, h.x}; }

// ---- arithmetic and comparisons: CUDA overloads the same names for __nv_bfloat16 (cuda_bf16.h
// includes this file for these two macros) ---------------------------------------------------
#define ACCEL_CPU_HALF_FUNCTIONS(H)                                                             \
  inline H __hadd(H a, H b) { return H(float(a) + float(b)); }                                  \
  inline H __hsub(H a, H b) { return H(float(a) - float(b)); }                                  \
  inline H __hmul(H a, H b) { return H(float(a) * float(b)); }                                  \
  inline H __hdiv(H a, H b) { return H(float(a) / float(b)); }                                  \
  inline H __hadd_sat(H a, H b) { return H(__saturatef(float(a) + float(b))); }                 \
  inline H __hmul_sat(H a, H b) { return H(__saturatef(float(a) * float(b))); }                 \
  inline H __hfma(H a, H b, H c) { return H(fmaf(float(a), float(b), float(c))); }              \
  inline H __hfma_sat(H a, H b, H c) {                                                          \
    return H(__saturatef(fmaf(float(a), float(b), float(c))));                                  \
  }                                                                                             \
  inline H __hneg(H a) { return -a; }                                                           \
  inline H __habs(H a) { return H::from_bits((unsigned short)(a.bits & 0x7fffu)); }             \
  inline H __hmax(H a, H b) { return float(a) < float(b) || (a != a) ? b : a; }                 \
  inline H __hmin(H a, H b) { return float(b) < float(a) || (a != a) ? b : a; }                 \
  inline bool __heq(H a, H b) { return a == b; }                                                \
  inline bool __hne(H a, H b) { return a != b && !(a != a) && !(b != b); }                      \
  inline bool __hlt(H a, H b) { return a < b; }                                                 \
  inline bool __hle(H a, H b) { return a <= b; }                                                \
  inline bool __hgt(H a, H b) { return a > b; }                                                 \
  inline bool __hge(H a, H b) { return a >= b; }                                                \
  inline bool __hisnan(H a) { return a != a; }                                                  \
  inline int __hisinf(H a) { return std::isinf(float(a)) ? (float(a) < 0 ? -1 : 1) : 0; }       \
  inline H hsqrt(H a) { return H(sqrtf(float(a))); }                                            \
  inline H hrsqrt(H a) { return H(1.0f / sqrtf(float(a))); }                                    \
  inline H hrcp(H a) { return H(1.0f / float(a)); }                                             \
  inline H hexp(H a) { return H(expf(float(a))); }                                              \
  inline H hexp2(H a) { return H(exp2f(float(a))); }                                            \
  inline H hlog(H a) { return H(logf(float(a))); }                                              \
  inline H hlog2(H a) { return H(log2f(float(a))); }                                            \
  inline H hlog10(H a) { return H(log10f(float(a))); }                                          \
  inline H hsin(H a) { return H(sinf(float(a))); }                                              \
  inline H hcos(H a) { return H(cosf(float(a))); }                                              \
  inline H htrunc(H a) { return H(truncf(float(a))); }                                          \
  inline H hfloor(H a) { return H(floorf(float(a))); }                                          \
  inline H hceil(H a) { return H(ceilf(float(a))); }                                            \
  inline H hrint(H a) { return H(nearbyintf(float(a))); }                                       \
  inline H& operator+=(H& a, H b) { return a = a + b; }                                         \
  inline H& operator-=(H& a, H b) { return a = a - b; }                                         \
  inline H& operator*=(H& a, H b) { return a = a * b; }                                         \
  inline H& operator/=(H& a, H b) { return a = a / b; }                                         \
  inline H& operator++(H& a) { return a = a + H(1.0f); }                                        \
  inline H& operator--(H& a) { return a = a - H(1.0f); }                                        \
  inline H operator+(H a) { return a; }                                                         \
  inline H atomicAdd(H* p, H v) {                                                               \
    unsigned short* q = reinterpret_cast<unsigned short*>(p);                                   \
    unsigned short old = __atomic_load_n(q, __ATOMIC_RELAXED);                                  \
    for (;;) {                                                                                  \
      const unsigned short next = (H::from_bits(old) + v).bits;                                 \
      if (__atomic_compare_exchange_n(q, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
        return H::from_bits(old);                                                               \
    }                                                                                           \
  }
#define ACCEL_CPU_HALF_PAIRS(H2, H)                                                                \
  inline H2 __hadd2(H2 a, H2 b) { return H2{__hadd(a.x, b.x), __hadd(a.y, b.y)}; }                 \
  inline H2 __hsub2(H2 a, H2 b) { return H2{__hsub(a.x, b.x), __hsub(a.y, b.y)}; }                 \
  inline H2 __hmul2(H2 a, H2 b) { return H2{__hmul(a.x, b.x), __hmul(a.y, b.y)}; }                 \
  inline H2 __h2div(H2 a, H2 b) { return H2{__hdiv(a.x, b.x), __hdiv(a.y, b.y)}; }                 \
  inline H2 __hfma2(H2 a, H2 b, H2 c) { return H2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; } \
  inline H2 __hneg2(H2 a) { return H2{-a.x, -a.y}; }                                               \
  inline H2 __habs2(H2 a) { return H2{__habs(a.x), __habs(a.y)}; }                                 \
  inline H2 __hmax2(H2 a, H2 b) { return H2{__hmax(a.x, b.x), __hmax(a.y, b.y)}; }                 \
  inline H2 __hmin2(H2 a, H2 b) { return H2{__hmin(a.x, b.x), __hmin(a.y, b.y)}; }                 \
  inline H2 operator+(H2 a, H2 b) { return __hadd2(a, b); }                                        \
  inline H2 operator-(H2 a, H2 b) { return __hsub2(a, b); }                                        \
  inline H2 operator*(H2 a, H2 b) { return __hmul2(a, b); }                                        \
  inline H2 operator/(H2 a, H2 b) { return __h2div(a, b); }                                        \
  inline H2& operator+=(H2& a, H2 b) { return a = a + b; }                                         \
  inline H2& operator*=(H2& a, H2 b) { return a = a * b; }
ACCEL_CPU_HALF_FUNCTIONS(__half)
ACCEL_CPU_HALF_PAIRS(__half2, __half)
