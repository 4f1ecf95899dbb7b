// Random numbers as functions of (key, counter): Philox4x32-10 and the conversions of its words
// to uniform, normal and exponential floats and to bounded integers. Shared by the CPU loops and
// the CUDA kernels (embedded into every NVRTC program), so that both produce the same numbers.
//
// A Generator holds a 64-bit key and a 64-bit block offset. Element i of a draw of a
// distribution that yields L values per Philox block reads block `offset + i / L`, value
// `i % L` of it; the draw advances the offset by ceil(n / L). The counter of a block is
// (offset low, offset high, attempt, lane): attempt 0 is the ordinary draw, attempts 1, 2, ...
// are the fresh words a bounded integer rejected by Lemire's method draws again (per element:
// the result never depends on how elements are spread over threads).
//
// Bit-identical across backends: everything below uses integer arithmetic and IEEE-754 +, -,
// *, /, sqrt and fused multiply-add in round-to-nearest, which the CPU (-ffp-contract=off, fma
// written out) and CUDA (--fmad=false, the default -prec-div / -prec-sqrt) both compute
// exactly; the logarithm and sine/cosine that normals and exponentials need are the polynomials
// below rather than each side's libm (glibc's and CUDA's logf/sinf differ by up to 1-2 ulp), so
// normals and exponentials match too.
#pragma once

#include "cast.h"
#include "math.h"
#include "platform.h"

namespace accel::rng {

struct Block {
  uint32_t w[4];
};

ACCEL_HD uint32_t mulhi32(uint32_t a, uint32_t b) {
#if ACCEL_DEVICE_CODE
  return __umulhi(a, b);
#else
  return uint32_t((uint64_t(a) * b) >> 32);
#endif
}

ACCEL_HD uint64_t mulhi64(uint64_t a, uint64_t b) {
#if ACCEL_DEVICE_CODE
  return __umul64hi(a, b);
#else
  return uint64_t((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// Philox4x32 with 10 rounds (Salmon et al., SC'11; Random123's constants and word order).
ACCEL_HD Block philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                             uint32_t k1) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
#if ACCEL_DEVICE_CODE
#pragma unroll
#endif
  for (int r = 0; r < 10; ++r) {
    const uint32_t hi0 = mulhi32(kM0, c0), lo0 = kM0 * c0;
    const uint32_t hi1 = mulhi32(kM1, c2), lo1 = kM1 * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += kW0;
    k1 += kW1;
  }
  return Block{{c0, c1, c2, c3}};
}

ACCEL_HD Block block_at(uint64_t key, uint64_t block, uint32_t attempt = 0, uint32_t lane = 0) {
  return philox4x32_10(uint32_t(block), uint32_t(block >> 32), attempt, lane, uint32_t(key),
                       uint32_t(key >> 32));
}

ACCEL_HD uint64_t word64(const Block& b, int j) {
  return uint64_t(b.w[j]) | uint64_t(b.w[j + 1]) << 32;
}

// ---- the logarithm and sine/cosine, in T's own precision ------------------------------------

// a * b + c rounded once. The polynomials below are Horner steps of these: one instruction each
// on the GPU and on CPUs with FMA (the CPU backend is built with -march=native), against a
// multiply and an add rounded apart, in draws that are compute-bound on the GPU (see
// docs/decisions.md, D27). IEEE's fma is exactly rounded everywhere, so backends still agree.
template <class T>
ACCEL_HD T fma(T a, T b, T c) {
#if ACCEL_DEVICE_CODE
  if constexpr (sizeof(T) == 4) {
    return ::fmaf(a, b, c);
  } else {
    return ::fma(a, b, c);
  }
#else
  return std::fma(a, b, c);
#endif
}

// T's bit layout (math::float_layout), and 2^-bits for the uniforms' resolution.
template <class T>
struct float_traits;
template <>
struct float_traits<float> : math::float_layout<float> {
  enum : int { uniform_bits = 24 };
  enum : int { log_terms = 5 };     // |s| <= 0.1716: the next term is below 2^-26
  enum : int { sincos_terms = 6 };  // on [-pi/4, pi/4] the next term is below 2^-28
  ACCEL_HD static constexpr float ulp_of_one() { return 5.9604644775390625e-08f; }  // 2^-24
};
template <>
struct float_traits<double> : math::float_layout<double> {
  enum : int { uniform_bits = 53 };
  enum : int { log_terms = 11 };     // the next term is below 2^-56
  enum : int { sincos_terms = 11 };  // the next term is below 2^-60
  ACCEL_HD static constexpr double ulp_of_one() { return 1.1102230246251565e-16; }  // 2^-53
};

// The series coefficients as literals (1 / n! and 1 / (2k + 1), correctly rounded doubles): a
// table rather than arithmetic, so no compiler evaluates them per element.
ACCEL_HD constexpr double inv_factorial(int n) {
  switch (n) {
    case 2:
      return 0.5;
    case 3:
      return 0.16666666666666666;
    case 4:
      return 0.041666666666666664;
    case 5:
      return 0.008333333333333333;
    case 6:
      return 0.001388888888888889;
    case 7:
      return 0.0001984126984126984;
    case 8:
      return 2.48015873015873e-05;
    case 9:
      return 2.7557319223985893e-06;
    case 10:
      return 2.755731922398589e-07;
    case 11:
      return 2.505210838544172e-08;
    case 12:
      return 2.08767569878681e-09;
    case 13:
      return 1.6059043836821613e-10;
    case 14:
      return 1.1470745597729725e-11;
    case 15:
      return 7.647163731819816e-13;
    case 16:
      return 4.779477332387385e-14;
    case 17:
      return 2.8114572543455206e-15;
    case 18:
      return 1.5619206968586225e-16;
    case 19:
      return 8.22063524662433e-18;
    case 20:
      return 4.110317623312165e-19;
    case 21:
      return 1.9572941063391263e-20;
    default:
      return 1.0;
  }
}
ACCEL_HD constexpr double inv_odd(int k) {
  switch (k) {
    case 1:
      return 0.3333333333333333;
    case 2:
      return 0.2;
    case 3:
      return 0.14285714285714285;
    case 4:
      return 0.1111111111111111;
    case 5:
      return 0.09090909090909091;
    case 6:
      return 0.07692307692307693;
    case 7:
      return 0.06666666666666667;
    case 8:
      return 0.058823529411764705;
    case 9:
      return 0.05263157894736842;
    case 10:
      return 0.047619047619047616;
    case 11:
      return 0.043478260869565216;
    default:
      return 1.0;
  }
}

// log(x) for finite normal x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)),
// log m = 2 atanh(s) = 2s (1 + s^2/3 + s^4/5 + ...) with s = (m - 1) / (m + 1); ln 2 split in a
// part whose products with e are exact and a small rest.
template <class T>
ACCEL_HD T log_positive(T x) {
  using F = float_traits<T>;
  using U = typename F::bits_type;
  const U bits = bit_cast<U>(x);
  int e = int(bits >> F::mantissa) - F::bias;
  T m = bit_cast<T>(U((bits & ((U(1) << F::mantissa) - 1)) | (U(F::bias) << F::mantissa)));
  if (m > T(1.4142135623730951)) {
    m = m * T(0.5);
    e += 1;
  }
  const T f = m - T(1);  // exact
  const T s = f / (T(2) + f);
  const T z = s * s;
  T q = T(inv_odd(F::log_terms));  // poly = z (1/3 + z (1/5 + ...)) by Horner steps
#if ACCEL_DEVICE_CODE
#pragma unroll
#endif
  for (int k = F::log_terms - 1; k >= 1; --k) q = fma(q, z, T(inv_odd(k)));
  const T poly = q * z;
  const T two_s = T(2) * s;
  const T log_m = fma(two_s, poly, two_s);
  // ln 2 = ln2_hi + ln2_lo; ln2_hi has trailing zero bits, so e * ln2_hi is exact.
  const T ln2_hi = sizeof(T) == 4 ? T(0.693145751953125) : T(6.93147180369123816490e-01);
  const T ln2_lo = sizeof(T) == 4 ? T(1.428606765330187045e-06) : T(1.90821492927058770002e-10);
  const T te = T(e);
  return fma(te, ln2_hi, fma(te, ln2_lo, log_m));
}

// sin and cos of 2 pi t for t = k 2^-bits in [0, 1) (bits = float_traits<T>::uniform_bits): the
// quadrant comes from the integer k exactly, the rest of the angle is within [-pi/4, pi/4],
// where Taylor series to the degree float_traits gives are accurate to T's precision.
template <class T>
ACCEL_HD void sincos_turns(uint64_t k, T& sin_out, T& cos_out) {
  using F = float_traits<T>;
  constexpr int kQuarterShift = F::uniform_bits - 2;
  // For float, k < 2^24: 32-bit integers, whose conversion to float is one instruction on the
  // GPU (a 64-bit one is several). Both give the same rem, exactly.
  using U = typename F::bits_type;
  using S = typename F::signed_bits_type;
  const U kk = U(k);
  const U q = (kk + (U(1) << (kQuarterShift - 1))) >> kQuarterShift;  // round(4t)
  const S rem = S(kk) - S(q << kQuarterShift);                        // |rem| <= 2^(bits-3), exact
  // rem 2^-bits 2 pi in one product: scaling by 2^-bits is exact, so the step constant rounds
  // as 2 pi alone does and the product is the one of (rem 2^-bits) and 2 pi.
  constexpr T step = T(F::ulp_of_one() * 6.283185307179586476925286766559);
  const T a = T(rem) * step;
  const T a2 = a * a;
  // sin a = a + a (a^2 sp), cos a = 1 + a^2 cp, with sp and cp the series of the terms
  // (-1)^j a^(2j) / (2j+1)! and (-1)^j a^(2j-2) / (2j)! for j >= 1, by Horner steps.
  constexpr int J = F::sincos_terms - 1;
  T sp = T(((J & 1) ? -1.0 : 1.0) * inv_factorial(2 * J + 1));
  T cp = T(((J & 1) ? -1.0 : 1.0) * inv_factorial(2 * J));
#if ACCEL_DEVICE_CODE
#pragma unroll
#endif
  for (int j = J - 1; j >= 1; --j) {
    const double sign = (j & 1) ? -1.0 : 1.0;
    sp = fma(sp, a2, T(sign * inv_factorial(2 * j + 1)));
    cp = fma(cp, a2, T(sign * inv_factorial(2 * j)));
  }
  const T s = fma(a, sp * a2, a);
  const T c = fma(cp, a2, T(1));
  // The quadrant q turns (s, c) into (s, c), (c, -s), (-s, -c) or (-c, s): selects rather than
  // a switch, which the GPU ran as divergent branches (random quadrants in every warp).
  const bool odd = (q & 1) != 0;
  const T x = odd ? c : s;
  const T y = odd ? s : c;
  sin_out = (q & 2) != 0 ? T(0) - x : x;
  cos_out = ((q + 1) & 2) != 0 ? T(0) - y : y;
}

// ---- distributions: values of one block ------------------------------------------------------

// How many values of T one block yields: 32 bits per value for 4-byte types, 64 for 8-byte ones.
template <class T>
inline constexpr int kLanes = sizeof(T) == 8 ? 2 : 4;

// Uniform in [0, 1): the top 24 (float) or 53 (double) bits times 2^-24 / 2^-53, as NumPy.
template <class T>
ACCEL_HD void uniform_block(const Block& b, T* out) {
  if constexpr (sizeof(T) == 4) {
    for (int j = 0; j < 4; ++j) out[j] = T(b.w[j] >> 8) * T(5.9604644775390625e-08);
  } else {
    for (int j = 0; j < 2; ++j) out[j] = T(word64(b, 2 * j) >> 11) * T(1.1102230246251565e-16);
  }
}

// Uniform in (0, 1] for logarithms: (x + 1) 2^-32 from a 32-bit word (the conversion rounds to
// nearest; the tail reaches 2^-32), ((x >> 11) + 1) 2^-53 from a 64-bit one.
template <class T>
ACCEL_HD T open_uniform(const Block& b, int j) {
  if constexpr (sizeof(T) == 4) {
    return (T(b.w[j]) + T(1)) * T(2.3283064365386963e-10);
  } else {
    return T((word64(b, j) >> 11) + 1) * T(1.1102230246251565e-16);
  }
}

// Standard normals by the Box-Muller transform: each pair of uniforms gives r cos(theta) and
// r sin(theta). float: two pairs of 32-bit words (|z| reaches 6.66); double: one pair of 64-bit
// words (|z| reaches 8.57).
template <class T>
ACCEL_HD void normal_block(const Block& b, T* out) {
  constexpr int kPairs = sizeof(T) == 4 ? 2 : 1;
  for (int p = 0; p < kPairs; ++p) {
    const int wi = sizeof(T) == 4 ? 2 * p : 0;  // the word (pair) of the radius
    const T u1 = open_uniform<T>(b, wi);
    const T r = math::sqrt(T(-2) * log_positive(u1));
    T s, c;
    if constexpr (sizeof(T) == 4) {
      sincos_turns<T>(b.w[2 * p + 1] >> 8, s, c);
    } else {
      sincos_turns<T>(word64(b, 2) >> 11, s, c);
    }
    out[2 * p] = r * c;
    out[2 * p + 1] = r * s;
  }
}

// Standard exponentials: -log(u), u uniform in (0, 1].
template <class T>
ACCEL_HD void exponential_block(const Block& b, T* out) {
  constexpr int L = kLanes<T>;
  for (int j = 0; j < L; ++j) out[j] = T(0) - log_positive(open_uniform<T>(b, j * (4 / L)));
}

// Integers low + [0, span] for span = high - low (inclusive) by Lemire's multiply-and-reject
// method, without modulo bias: a word whose low product half falls below (2^w - (span + 1)) mod
// (span + 1) is replaced by word 0 (or words 0-1) of block (block, attempt, lane) for attempts
// 1, 2, ... . 32-bit words for types of up to 4 bytes, 64-bit words for 8-byte ones. The sum
// wraps to T as NumPy's does (low and span are T's values as unsigned 64-bit integers).
template <class T>
ACCEL_HD void integers_block(const Block& b, uint64_t key, uint64_t block, uint64_t low,
                             uint64_t span, T* out) {
  if constexpr (sizeof(T) < 8) {
    for (int j = 0; j < 4; ++j) {
      uint32_t x = b.w[j];
      uint64_t v = x;
      if (span < 0xFFFFFFFFull) {
        const uint32_t range = uint32_t(span) + 1;
        uint64_t m = uint64_t(x) * range;
        if (uint32_t(m) < range) {
          const uint32_t threshold = (0u - range) % range;
          for (uint32_t attempt = 1; uint32_t(m) < threshold; ++attempt) {
            x = block_at(key, block, attempt, uint32_t(j)).w[0];
            m = uint64_t(x) * range;
          }
        }
        v = m >> 32;
      }
      out[j] = cast<T>(low + v);
    }
  } else {
    for (int j = 0; j < 2; ++j) {
      uint64_t x = word64(b, 2 * j);
      uint64_t v = x;
      if (span != ~uint64_t(0)) {
        const uint64_t range = span + 1;
        uint64_t lo = x * range;
        uint64_t hi = mulhi64(x, range);
        if (lo < range) {
          const uint64_t threshold = (0ull - range) % range;
          for (uint32_t attempt = 1; lo < threshold; ++attempt) {
            x = word64(block_at(key, block, attempt, uint32_t(j)), 0);
            lo = x * range;
            hi = mulhi64(x, range);
          }
        }
        v = hi;
      }
      out[j] = cast<T>(low + v);
    }
  }
}

// ---- element i of a draw, for kernels ---------------------------------------------------------
// Each element computes its block and picks its value. `*_at(i, ...)` takes the flat index;
// `*_at_aligned(i0, e, ...)` takes element i0 + e of a run whose first index i0 is a multiple of
// the lanes (the vectorized CUDA path): the block index is then the same expression for every e
// of a block, so the compiler computes the block once for all its values (measured in the PTX:
// 4x fewer Philox rounds and Box-Muller transforms for float32 than the plain form, where
// the common block index only appears after the optimizer's last common-subexpression pass).

template <class T>
struct Uniform {
  ACCEL_HD static void fill(const Block& b, T* v) { uniform_block<T>(b, v); }
};
template <class T>
struct Normal {
  ACCEL_HD static void fill(const Block& b, T* v) { normal_block<T>(b, v); }
};
template <class T>
struct Exponential {
  ACCEL_HD static void fill(const Block& b, T* v) { exponential_block<T>(b, v); }
};

template <class D, class T>
ACCEL_HD T draw(uint64_t key, uint64_t block, uint64_t lane) {
  T v[kLanes<T>];
  D::fill(block_at(key, block), v);
  return v[lane];
}

template <class T>
ACCEL_HD T integer_draw(uint64_t key, uint64_t block, uint64_t lane, uint64_t low, uint64_t span) {
  T v[kLanes<T>];
  integers_block<T>(block_at(key, block), key, block, low, span, v);
  return v[lane];
}

#define ACCEL_RNG_AT(NAME, DIST)                                                              \
  template <class T>                                                                          \
  ACCEL_HD T NAME##_at(int64_t i, uint64_t key, uint64_t offset) {                            \
    return draw<DIST<T>, T>(key, offset + uint64_t(i) / kLanes<T>, uint64_t(i) % kLanes<T>);  \
  }                                                                                           \
  template <class T>                                                                          \
  ACCEL_HD T NAME##_at_aligned(int64_t i0, int e, uint64_t key, uint64_t offset) {            \
    return draw<DIST<T>, T>(key, offset + uint64_t(i0) / kLanes<T> + uint64_t(e / kLanes<T>), \
                            uint64_t(e % kLanes<T>));                                         \
  }
ACCEL_RNG_AT(uniform, Uniform)
ACCEL_RNG_AT(normal, Normal)
ACCEL_RNG_AT(exponential, Exponential)
#undef ACCEL_RNG_AT

template <class T>
ACCEL_HD T integers_at(int64_t i, uint64_t key, uint64_t offset, uint64_t low, uint64_t span) {
  return integer_draw<T>(key, offset + uint64_t(i) / kLanes<T>, uint64_t(i) % kLanes<T>, low, span);
}
template <class T>
ACCEL_HD T integers_at_aligned(int64_t i0, int e, uint64_t key, uint64_t offset, uint64_t low,
                               uint64_t span) {
  return integer_draw<T>(key, offset + uint64_t(i0) / kLanes<T> + uint64_t(e / kLanes<T>),
                         uint64_t(e % kLanes<T>), low, span);
}

// ---- permutations -------------------------------------------------------------------------------

// Element i of a pseudo-random permutation of [0, n) (n <= 2^62): a keyed Feistel network on the
// smallest even number of bits covering n is a bijection of [0, 2^bits); applying it again while
// the value is >= n ("cycle walking") makes it a bijection of [0, n). Each element is computed
// on its own, so a permutation is a lazy generator like any draw. Round r's function is word 0
// of the Philox block with counter (block, 0x80000000 | r, right half): a permutation reserves
// its own block offset, so these words never repeat an ordinary draw's.
enum : uint32_t { kFeistelRounds = 8 };  // an enumerator: no device global (platform.h)

ACCEL_HD uint64_t permutation_at(int64_t i, uint64_t key, uint64_t block, uint64_t n) {
  int bits = 2;
  while ((uint64_t(1) << bits) < n) bits += 2;
  const int half = bits / 2;
  const uint64_t mask = (uint64_t(1) << half) - 1;
  uint64_t x = uint64_t(i);
  do {
    uint64_t left = x >> half, right = x & mask;
    for (uint32_t r = 0; r < kFeistelRounds; ++r) {
      const uint32_t f = philox4x32_10(uint32_t(block), uint32_t(block >> 32), 0x80000000u | r,
                                       uint32_t(right), uint32_t(key), uint32_t(key >> 32))
                             .w[0];
      const uint64_t next = left ^ (uint64_t(f) & mask);
      left = right;
      right = next;
    }
    x = (left << half) | right;
  } while (x >= n);
  return x;
}

}  // namespace accel::rng
