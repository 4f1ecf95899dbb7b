// AVX2 loops for complex abs and hypot, bit-identical to the functors they replace.
//
// The functors branch on infinities and NaNs, which keeps the compiler's loops scalar (a
// division and a square root per element, 5-10x slower than NumPy's SIMD complex abs). Here
// the same IEEE operations run on whole vectors and the special values are blended in after,
// so every lane's result equals the functor's:
// - complex abs: NumPy's formula (kernels/complex_math.h), larger * sqrt(fma(r, r, 1)) with
//   r = smaller / larger; a lane with an infinite part is inf, else one with a NaN part NaN.
// - float32 hypot: glibc's hypotf (2.35 and later), sqrt(double(x)^2 + double(y)^2) rounded
//   to float, exact in double; lanes with a non-finite operand go to the C library.
// - float64 hypot: glibc's hypot (2.35 and later, built without FMA as distributions ship
//   it): one correction step after sqrt(ax^2 + ay^2). Lanes outside its common case
//   (non-finite, ay <= ax * 2^-54, ax > 2^511, ay < 2^-511: glibc scales or adds there) go to
//   the C library. Both are checked against the C library when the table is built (another
//   C library keeps its own loop), and tests/python/test_cpu_loops.py checks every lane class
//   against NumPy.
// Tails shorter than a vector call the functor, which computes the same.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "accel/fp_errors.hpp"
#include "src/cpu/vector_math.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace accel::cpu {

#if defined(__AVX2__) && defined(__FMA__)

namespace {

// |z| of 8 complex64 values at z (16 floats), in order.
inline __m256 abs8(const float* z) {
  const __m256 v0 = _mm256_loadu_ps(z), v1 = _mm256_loadu_ps(z + 8);
  // Per 128-bit lane: re = [r0 r1 r4 r5 | r2 r3 r6 r7], the same order for im.
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 re = _mm256_andnot_ps(sign, _mm256_shuffle_ps(v0, v1, 0x88));
  const __m256 im = _mm256_andnot_ps(sign, _mm256_shuffle_ps(v0, v1, 0xDD));
  const __m256 one = _mm256_set1_ps(1.0f), inf = _mm256_set1_ps(INFINITY);
  const __m256 larger = _mm256_max_ps(re, im), smaller = _mm256_min_ps(re, im);
  const __m256 zero = _mm256_cmp_ps(larger, _mm256_setzero_ps(), _CMP_EQ_OQ);
  const __m256 ratio = _mm256_div_ps(smaller, _mm256_blendv_ps(larger, one, zero));
  __m256 r = _mm256_mul_ps(_mm256_sqrt_ps(_mm256_fmadd_ps(ratio, ratio, one)), larger);
  r = _mm256_blendv_ps(r, _mm256_set1_ps(NAN), _mm256_cmp_ps(re, im, _CMP_UNORD_Q));
  const __m256 has_inf =
      _mm256_or_ps(_mm256_cmp_ps(re, inf, _CMP_EQ_OQ), _mm256_cmp_ps(im, inf, _CMP_EQ_OQ));
  r = _mm256_blendv_ps(r, inf, has_inf);
  // Lanes [0 1 4 5 2 3 6 7] as 64-bit pairs [01 45 23 67] -> [01 23 45 67].
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(r), 0xD8));
}

// |z| of 4 complex128 values at z (8 doubles), in order.
inline __m256d abs4(const double* z) {
  const __m256d v0 = _mm256_loadu_pd(z), v1 = _mm256_loadu_pd(z + 4);
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m256d re = _mm256_andnot_pd(sign, _mm256_unpacklo_pd(v0, v1));  // [r0 r2 r1 r3]
  const __m256d im = _mm256_andnot_pd(sign, _mm256_unpackhi_pd(v0, v1));
  const __m256d one = _mm256_set1_pd(1.0), inf = _mm256_set1_pd(INFINITY);
  const __m256d larger = _mm256_max_pd(re, im), smaller = _mm256_min_pd(re, im);
  const __m256d zero = _mm256_cmp_pd(larger, _mm256_setzero_pd(), _CMP_EQ_OQ);
  const __m256d ratio = _mm256_div_pd(smaller, _mm256_blendv_pd(larger, one, zero));
  __m256d r = _mm256_mul_pd(_mm256_sqrt_pd(_mm256_fmadd_pd(ratio, ratio, one)), larger);
  r = _mm256_blendv_pd(r, _mm256_set1_pd(NAN), _mm256_cmp_pd(re, im, _CMP_UNORD_Q));
  const __m256d has_inf =
      _mm256_or_pd(_mm256_cmp_pd(re, inf, _CMP_EQ_OQ), _mm256_cmp_pd(im, inf, _CMP_EQ_OQ));
  r = _mm256_blendv_pd(r, inf, has_inf);
  return _mm256_permute4x64_pd(r, 0xD8);
}

template <class T>
void complex_abs_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const T* z = reinterpret_cast<const T*>(in[0]);
  T* o = reinterpret_cast<T*>(out);
  int64_t i = 0;
  if constexpr (sizeof(T) == 4) {
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, abs8(z + 2 * i));
  } else {
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(o + i, abs4(z + 2 * i));
  }
  for (; i < n; ++i) o[i] = ops::Abs{}(complex<T>{z[2 * i], z[2 * i + 1]});
}

// hypotf of 8 lanes; `special` gets the lanes with a non-finite operand.
inline __m256 hypot8(__m256 x, __m256 y, int& special) {
  const __m256 inf = _mm256_set1_ps(INFINITY), sign = _mm256_set1_ps(-0.0f);
  const __m256 finite = _mm256_and_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, x), inf, _CMP_LT_OQ),
                                      _mm256_cmp_ps(_mm256_andnot_ps(sign, y), inf, _CMP_LT_OQ));
  special = ~_mm256_movemask_ps(finite) & 0xFF;
  auto half = [](__m128 a, __m128 b) {
    const __m256d da = _mm256_cvtps_pd(a), db = _mm256_cvtps_pd(b);
    return _mm256_cvtpd_ps(
        _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(da, da), _mm256_mul_pd(db, db))));
  };
  const __m128 lo = half(_mm256_castps256_ps128(x), _mm256_castps256_ps128(y));
  const __m128 hi = half(_mm256_extractf128_ps(x, 1), _mm256_extractf128_ps(y, 1));
  return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

// glibc's hypot for 4 lanes in its common case; `special` gets the lanes outside it.
inline __m256d hypot4(__m256d x, __m256d y, int& special) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m256d a = _mm256_andnot_pd(sign, x), b = _mm256_andnot_pd(sign, y);
  const __m256d ax = _mm256_max_pd(a, b), ay = _mm256_min_pd(a, b);
  // Common case: ay > ax * 2^-54, ax <= 2^511, ay >= 2^-511 (false for inf lanes); NaN
  // lanes are tested on the operands, max and min having dropped one NaN.
  const __m256d common = _mm256_and_pd(
      _mm256_and_pd(_mm256_cmp_pd(ay, _mm256_mul_pd(ax, _mm256_set1_pd(0x1p-54)), _CMP_GT_OQ),
                    _mm256_cmp_pd(ax, _mm256_set1_pd(0x1p+511), _CMP_LE_OQ)),
      _mm256_and_pd(_mm256_cmp_pd(ay, _mm256_set1_pd(0x1p-511), _CMP_GE_OQ),
                    _mm256_cmp_pd(a, b, _CMP_ORD_Q)));
  special = ~_mm256_movemask_pd(common) & 0xF;
  const __m256d two = _mm256_set1_pd(2.0), four = _mm256_set1_pd(4.0);
  __m256d h = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(ax, ax), _mm256_mul_pd(ay, ay)));
  // h <= 2 ay: delta = h - ay, t1 = ax (2 delta - ax), t2 = (delta - 2 (ax - ay)) delta.
  const __m256d d1 = _mm256_sub_pd(h, ay);
  const __m256d t1a = _mm256_mul_pd(ax, _mm256_sub_pd(_mm256_mul_pd(two, d1), ax));
  const __m256d t2a =
      _mm256_mul_pd(_mm256_sub_pd(d1, _mm256_mul_pd(two, _mm256_sub_pd(ax, ay))), d1);
  // Otherwise: delta = h - ax, t1 = 2 delta (ax - 2 ay), t2 = (4 delta - ay) ay + delta^2.
  const __m256d d2 = _mm256_sub_pd(h, ax);
  const __m256d t1b =
      _mm256_mul_pd(_mm256_mul_pd(two, d2), _mm256_sub_pd(ax, _mm256_mul_pd(two, ay)));
  const __m256d t2b = _mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(four, d2), ay), ay),
                                    _mm256_mul_pd(d2, d2));
  const __m256d first = _mm256_cmp_pd(h, _mm256_mul_pd(two, ay), _CMP_LE_OQ);
  const __m256d t1 = _mm256_blendv_pd(t1b, t1a, first), t2 = _mm256_blendv_pd(t2b, t2a, first);
  return _mm256_sub_pd(h, _mm256_div_pd(_mm256_add_pd(t1, t2), _mm256_mul_pd(two, h)));
}

template <class T>
void hypot_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const T* x = reinterpret_cast<const T*>(in[0]);
  const T* y = reinterpret_cast<const T*>(in[1]);
  T* o = reinterpret_cast<T*>(out);
  constexpr int64_t W = 32 / sizeof(T);
  // The lanes outside the common case are computed and discarded (0/0, inf - inf): their IEEE
  // flags are dropped, and the C library's hypot raises theirs. (The common case's lanes raise
  // none but underflow.)
  unsigned raised = take_fp_flags();
  int64_t i = 0;
  for (; i + W <= n; i += W) {
    int special = 0;
    if constexpr (sizeof(T) == 4) {
      _mm256_storeu_ps(o + i, hypot8(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), special));
    } else {
      _mm256_storeu_pd(o + i, hypot4(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i), special));
    }
    if (!special) continue;
    take_fp_flags();
    for (int j = 0; special; ++j, special >>= 1) {
      if (special & 1) o[i + j] = std::hypot(x[i + j], y[i + j]);
    }
    raised |= take_fp_flags();
  }
  for (; i < n; ++i) o[i] = std::hypot(x[i], y[i]);
  raise_fp_flags(raised);
}

// Whether hypot_loop<T> gives the C library's bits on pairs across the common case's range
// (a C library other than glibc 2.35+ rounds some of them differently: its loop then stays).
template <class T>
bool hypot_matches_libm() {
  constexpr int64_t n = 4099;         // whole vectors and a tail
  std::vector<T> x(n), y(n), got(n);  // on the heap: the table may be built on a small stack
  uint64_t state = 0x9E3779B97F4A7C15u;
  for (int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    const double m1 = double(state >> 11) * 0x1p-53, m2 = double((state >> 3) & 0xFFFFF) * 0x1p-20;
    const int e = int((state >> 40) % 61) - 30;
    x[i] = T(std::ldexp(m1 - 0.5, e));
    y[i] = T(std::ldexp(m2 - 0.5, e + int(i % 7) - 3));
  }
  const char* in[2] = {reinterpret_cast<const char*>(x.data()),
                       reinterpret_cast<const char*>(y.data())};
  hypot_loop<T>(in, reinterpret_cast<char*>(got.data()), n, nullptr);
  for (int64_t i = 0; i < n; ++i) {
    const T want = std::hypot(x[i], y[i]);
    if (std::memcmp(&want, &got[i], sizeof(T)) != 0) return false;
  }
  return true;
}

void set(loops::Table& t, OpKind op, DType dt, LoopFn fn) {
  t.arrays[static_cast<int>(op)][static_cast<int>(dt)] = fn;
}

}  // namespace

void add_exact_simd_loops(loops::Table& t) {
  set(t, OpKind::Abs, DType::Complex64, &complex_abs_loop<float>);
  set(t, OpKind::Abs, DType::Complex128, &complex_abs_loop<double>);
  // The scalar-operand variants of hypot stay the functor's, which computes the same.
  if (hypot_matches_libm<float>()) set(t, OpKind::Hypot, DType::Float32, &hypot_loop<float>);
  if (hypot_matches_libm<double>()) set(t, OpKind::Hypot, DType::Float64, &hypot_loop<double>);
}

#else

void add_exact_simd_loops(loops::Table&) {}

#endif

}  // namespace accel::cpu
