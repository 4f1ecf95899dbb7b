// SLEEF loops for the transcendental functions (see vector_math.hpp). One template loop per
// vector width: whole vectors through the SLEEF function, the tail through a padded vector, so
// every element goes through the same implementation and results do not depend on alignment
// or on where a block ends.
#include "src/cpu/vector_math.hpp"

#include "accel/fp_errors.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(ACCEL_HAVE_SLEEF)
#include <immintrin.h>
#include <sleef.h>
#endif

namespace accel::cpu {

#if defined(ACCEL_HAVE_SLEEF) && \
    (defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__)) || defined(__SSE4_1__))

namespace {

#if defined(__AVX512F__)
using VecF = __m512;
using VecD = __m512d;
#define ACCEL_SLEEF_F(name) Sleef_##name##f16_u10avx512f
#define ACCEL_SLEEF_D(name) Sleef_##name##d8_u10avx512f
constexpr const char* kBackend = "sleef-avx512f";
#elif defined(__AVX2__) && defined(__FMA__)
using VecF = __m256;
using VecD = __m256d;
#define ACCEL_SLEEF_F(name) Sleef_##name##f8_u10avx2
#define ACCEL_SLEEF_D(name) Sleef_##name##d4_u10avx2
constexpr const char* kBackend = "sleef-avx2";
#else
using VecF = __m128;
using VecD = __m128d;
#define ACCEL_SLEEF_F(name) Sleef_##name##f4_u10sse4
#define ACCEL_SLEEF_D(name) Sleef_##name##d2_u10sse4
constexpr const char* kBackend = "sleef-sse4";
#endif

// Lanes SLEEF gets wrong, compared with NumPy, and corrected after each vector:
// - Large: sinh and cosh return infinity a little before the results overflow (float: from
//   |x| ~ 88.7, where sinh(89) = 2.24e38 is finite; double: from ~709.8, overflow at 710.48);
//   past |x| = 88 / 709 the C library computes them.
// - Tiny: log1p, asinh and tan return 0 for the smallest subnormals (1e-45 in float, 5e-324 in
//   double); below the smallest normal number the correctly rounded result is x itself (the
//   next term of the series is far below half an ulp).
// - Huge: asinh and acosh return infinity once x * x overflows (|x| above ~1.8e19 in float,
//   ~1.3e154 in double), where the results are finite (asinh(1e300) = 691.47); past 1e18 / 1e150
//   the C library computes them. (Found by comparing the IEEE flags with NumPy's: the overflow
//   flag gave them away.) asinh also needs Tiny's fix: Both.
enum class Fix { None, Large, Tiny, Huge, Both };

template <class T, class F>
void fix_lanes(const T* x, T* y, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    const T ax = std::fabs(x[j]);
    if constexpr (F::fix() == Fix::Large) {
      if (ax > (sizeof(T) == 4 ? T(88) : T(709))) y[j] = F::scalar(x[j]);
    } else {
      if constexpr (F::fix() == Fix::Huge || F::fix() == Fix::Both) {
        if (ax > (sizeof(T) == 4 ? T(1e18) : T(1e150))) y[j] = F::scalar(x[j]);
      }
      if constexpr (F::fix() == Fix::Tiny || F::fix() == Fix::Both) {
        if (ax < std::numeric_limits<T>::min()) y[j] = x[j];
      }
    }
  }
}

// SLEEF's IEEE flags are not the C library's (NumPy's): it raises invalid and overflow for
// ordinary arguments (in the branches its vectors compute and discard) and none for log(-1) or
// log(0). They are replaced by the flags of the results, which are the C library's: invalid
// where a NaN comes from a non-NaN argument; division by zero (at the poles of the logarithms
// and atanh) or overflow (the others) where an infinity comes from a finite argument.
// The common block has no infinite or NaN result, which the loop tells from each result
// vector in registers (NonFinite: three integer vector operations per vector); only a block
// that has one is scanned element by element.
template <class T, class V>
struct NonFinite {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  typedef U Lanes __attribute__((vector_size(sizeof(V))));
  static constexpr U kExponent = sizeof(T) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
  static constexpr U kExponentOne = sizeof(T) == 4 ? U(0x00800000u) : U(0x0010000000000000ull);
  static constexpr U kSign = U(1) << (8 * sizeof(T) - 1);
  Lanes carry = {};

  // An exponent of all ones (inf, NaN) plus its lowest bit carries into the sign bit; no other
  // exponent does.
  void add(const V& y) {
    Lanes bits;
    std::memcpy(&bits, &y, sizeof(V));
    carry |= (bits & kExponent) + kExponentOne;
  }
  bool any() const {
    U all = 0;
    for (size_t k = 0; k < sizeof(V) / sizeof(T); ++k) all |= carry[k];
    return (all & kSign) != 0;
  }
};

template <class T, bool kPole>
unsigned flags_of_results(const T* x, const T* y, int64_t n) {
  unsigned flags = 0;
  for (int64_t j = 0; j < n; ++j) {
    if (std::isnan(y[j]) && !std::isnan(x[j])) flags |= kFpInvalid;
    if (std::isinf(y[j]) && std::isfinite(x[j])) flags |= kPole ? kFpDivideByZero : kFpOverflow;
  }
  return flags;
}

// F: a class whose static apply(V) calls one SLEEF function (function pointers to SLEEF's
// declarations, with their vector attributes, do not convert to template arguments).
template <class T, class V, class F>
void sleef_loop(const char* const* in, char* out, int64_t n, const Node*) {
  constexpr int64_t W = sizeof(V) / sizeof(T);
  const T* a = reinterpret_cast<const T*>(in[0]);
  T* o = reinterpret_cast<T*>(out);
  const unsigned before = take_fp_flags();
  NonFinite<T, V> non_finite;
  int64_t i = 0;
  for (; i + W <= n; i += W) {
    V x;
    std::memcpy(&x, a + i, sizeof(V));
    const V y = F::apply(x);
    non_finite.add(y);
    std::memcpy(o + i, &y, sizeof(V));
    if constexpr (F::fix() != Fix::None) fix_lanes<T, F>(a + i, o + i, W);
  }
  if (i < n) {
    T buf[W];
    for (int64_t j = 0; j < W; ++j) buf[j] = T(1);
    std::memcpy(buf, a + i, size_t(n - i) * sizeof(T));
    V x;
    std::memcpy(&x, buf, sizeof(V));
    const V y = F::apply(x);
    non_finite.add(y);  // the padding's results too (atanh(1) is inf): a scan, no wrong flag
    std::memcpy(buf, &y, sizeof(V));
    std::memcpy(o + i, buf, size_t(n - i) * sizeof(T));
    if constexpr (F::fix() != Fix::None) fix_lanes<T, F>(a + i, o + i, n - i);
  }
  // SLEEF's results before the fixes: an infinity a fix replaced still leads to the scan,
  // which reads the fixed results.
  take_fp_flags();
  raise_fp_flags(before | (non_finite.any() ? flags_of_results<T, F::pole()>(a, o, n) : 0u));
}

// Two-operand functions (atan2), as sleef_loop.
template <class T, class V, class F>
void sleef_binary_loop(const char* const* in, char* out, int64_t n, const Node*) {
  constexpr int64_t W = sizeof(V) / sizeof(T);
  const T* a = reinterpret_cast<const T*>(in[0]);
  const T* b = reinterpret_cast<const T*>(in[1]);
  T* o = reinterpret_cast<T*>(out);
  const unsigned before = take_fp_flags();
  int64_t i = 0;
  for (; i + W <= n; i += W) {
    V x, y;
    std::memcpy(&x, a + i, sizeof(V));
    std::memcpy(&y, b + i, sizeof(V));
    const V r = F::apply(x, y);
    std::memcpy(o + i, &r, sizeof(V));
  }
  if (i < n) {
    T bx[W], by[W];
    for (int64_t j = 0; j < W; ++j) bx[j] = by[j] = T(1);
    std::memcpy(bx, a + i, size_t(n - i) * sizeof(T));
    std::memcpy(by, b + i, size_t(n - i) * sizeof(T));
    V x, y;
    std::memcpy(&x, bx, sizeof(V));
    std::memcpy(&y, by, sizeof(V));
    const V r = F::apply(x, y);
    std::memcpy(bx, &r, sizeof(V));
    std::memcpy(o + i, bx, size_t(n - i) * sizeof(T));
  }
  // atan2 raises nothing in the C library (no NaN from non-NaN arguments, no overflow).
  take_fp_flags();
  raise_fp_flags(before);
}

// The scalar-operand variants go: they would call the functor, not this loop.
void set(loops::Table& t, OpKind op, DType dt, LoopFn fn) {
  t.arrays[static_cast<int>(op)][static_cast<int>(dt)] = fn;
  t.scalar[static_cast<int>(op)][static_cast<int>(dt)] = {nullptr, nullptr};
}

}  // namespace

void add_vector_math_loops(loops::Table& t) {
#define ACCEL_SLEEF_ROW(Op, name, fix_kind, is_pole)                  \
  {                                                                   \
    struct F {                                                        \
      static constexpr Fix fix() { return Fix::fix_kind; }            \
      static constexpr bool pole() { return is_pole; }                \
      static VecF apply(VecF x) { return ACCEL_SLEEF_F(name)(x); }    \
      static float scalar(float x) { return std::name(x); }           \
    };                                                                \
    struct D {                                                        \
      static constexpr Fix fix() { return Fix::fix_kind; }            \
      static constexpr bool pole() { return is_pole; }                \
      static VecD apply(VecD x) { return ACCEL_SLEEF_D(name)(x); }    \
      static double scalar(double x) { return std::name(x); }         \
    };                                                                \
    set(t, OpKind::Op, DType::Float32, &sleef_loop<float, VecF, F>);  \
    set(t, OpKind::Op, DType::Float64, &sleef_loop<double, VecD, D>); \
  }
  ACCEL_SLEEF_ROW(Sin, sin, None, false)
  ACCEL_SLEEF_ROW(Cos, cos, None, false)
  ACCEL_SLEEF_ROW(Tan, tan, Tiny, false)
  ACCEL_SLEEF_ROW(Asin, asin, None, false)
  ACCEL_SLEEF_ROW(Acos, acos, None, false)
  ACCEL_SLEEF_ROW(Atan, atan, None, false)
  ACCEL_SLEEF_ROW(Exp, exp, None, false)
  ACCEL_SLEEF_ROW(Exp2, exp2, None, false)
  ACCEL_SLEEF_ROW(Expm1, expm1, None, false)
  ACCEL_SLEEF_ROW(Log, log, None, true)
  ACCEL_SLEEF_ROW(Log2, log2, None, true)
  ACCEL_SLEEF_ROW(Log10, log10, None, true)
  ACCEL_SLEEF_ROW(Log1p, log1p, Tiny, true)
  ACCEL_SLEEF_ROW(Sinh, sinh, Large, false)
  ACCEL_SLEEF_ROW(Cosh, cosh, Large, false)
  ACCEL_SLEEF_ROW(Tanh, tanh, None, false)
  ACCEL_SLEEF_ROW(Asinh, asinh, Both, false)
  ACCEL_SLEEF_ROW(Acosh, acosh, Huge, false)
  ACCEL_SLEEF_ROW(Atanh, atanh, None, true)
  ACCEL_SLEEF_ROW(Cbrt, cbrt, None, false)
#undef ACCEL_SLEEF_ROW
  // NumPy calls the C library's atan2 one element at a time on AVX2 machines (its SIMD
  // version needs AVX-512); SLEEF's is as accurate (1.0 ULP) and follows C99's special values,
  // as the elementwise tests check. pow stays with the shared functor: powers of integer
  // values must be exact, as NumPy's are (SLEEF's pow is within an ulp, not exact).
#define ACCEL_SLEEF_BINARY_ROW(Op, name)                                      \
  {                                                                           \
    struct F {                                                                \
      static VecF apply(VecF x, VecF y) { return ACCEL_SLEEF_F(name)(x, y); } \
    };                                                                        \
    struct D {                                                                \
      static VecD apply(VecD x, VecD y) { return ACCEL_SLEEF_D(name)(x, y); } \
    };                                                                        \
    set(t, OpKind::Op, DType::Float32, &sleef_binary_loop<float, VecF, F>);   \
    set(t, OpKind::Op, DType::Float64, &sleef_binary_loop<double, VecD, D>);  \
  }
  ACCEL_SLEEF_BINARY_ROW(Atan2, atan2)
#undef ACCEL_SLEEF_BINARY_ROW
}

const char* vector_math_backend() { return kBackend; }

#else

void add_vector_math_loops(loops::Table&) {}
const char* vector_math_backend() { return "libm"; }

#endif

}  // namespace accel::cpu
