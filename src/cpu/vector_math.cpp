// SLEEF loops for the transcendental functions (see vector_math.hpp). One template loop per
// vector width: whole vectors through the SLEEF function, the tail through a padded vector, so
// every element goes through the same implementation and results do not depend on alignment
// or on where a block ends.
#include "src/cpu/vector_math.hpp"

#include <cmath>
#include <cstring>

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

// SLEEF's sinh and cosh return infinity a little before the results overflow (float: from
// |x| ~ 88.7, where sinh(89) = 2.24e38 is finite; double: from ~709.8, overflow at 710.48): the
// lanes past `F::large` are recomputed by the C library.
template <class T, class F>
void fix_large(const T* x, T* y, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    if (std::fabs(x[j]) > F::large()) y[j] = F::scalar(x[j]);
  }
}

// F: a class whose static apply(V) calls one SLEEF function (function pointers to SLEEF's
// declarations, with their vector attributes, do not convert to template arguments).
template <class T, class V, class F>
void sleef_loop(const char* const* in, char* out, int64_t n, const Node*) {
  constexpr int64_t W = sizeof(V) / sizeof(T);
  const T* a = reinterpret_cast<const T*>(in[0]);
  T* o = reinterpret_cast<T*>(out);
  int64_t i = 0;
  for (; i + W <= n; i += W) {
    V x;
    std::memcpy(&x, a + i, sizeof(V));
    const V y = F::apply(x);
    std::memcpy(o + i, &y, sizeof(V));
    if constexpr (requires { F::scalar(T()); }) fix_large<T, F>(a + i, o + i, W);
  }
  if (i < n) {
    T buf[W];
    for (int64_t j = 0; j < W; ++j) buf[j] = T(1);
    std::memcpy(buf, a + i, size_t(n - i) * sizeof(T));
    V x;
    std::memcpy(&x, buf, sizeof(V));
    const V y = F::apply(x);
    std::memcpy(buf, &y, sizeof(V));
    std::memcpy(o + i, buf, size_t(n - i) * sizeof(T));
    if constexpr (requires { F::scalar(T()); }) fix_large<T, F>(a + i, o + i, n - i);
  }
}

void set(loops::Table& t, OpKind op, DType dt, LoopFn fn) {
  t[static_cast<int>(op)][static_cast<int>(dt)] = fn;
}

}  // namespace

void add_vector_math_loops(loops::Table& t) {
#define ACCEL_SLEEF_ROW(Op, name)                                     \
  {                                                                   \
    struct F {                                                        \
      static VecF apply(VecF x) { return ACCEL_SLEEF_F(name)(x); }    \
    };                                                                \
    struct D {                                                        \
      static VecD apply(VecD x) { return ACCEL_SLEEF_D(name)(x); }    \
    };                                                                \
    set(t, OpKind::Op, DType::Float32, &sleef_loop<float, VecF, F>);  \
    set(t, OpKind::Op, DType::Float64, &sleef_loop<double, VecD, D>); \
  }
  ACCEL_SLEEF_ROW(Sin, sin)
  ACCEL_SLEEF_ROW(Cos, cos)
  ACCEL_SLEEF_ROW(Tan, tan)
  ACCEL_SLEEF_ROW(Asin, asin)
  ACCEL_SLEEF_ROW(Acos, acos)
  ACCEL_SLEEF_ROW(Atan, atan)
  ACCEL_SLEEF_ROW(Exp, exp)
  ACCEL_SLEEF_ROW(Exp2, exp2)
  ACCEL_SLEEF_ROW(Expm1, expm1)
  ACCEL_SLEEF_ROW(Log, log)
  ACCEL_SLEEF_ROW(Log2, log2)
  ACCEL_SLEEF_ROW(Log10, log10)
  ACCEL_SLEEF_ROW(Log1p, log1p)
#define ACCEL_SLEEF_ROW_LARGE(Op, name)                               \
  {                                                                   \
    struct F {                                                        \
      static constexpr float large() { return 88.0f; }                \
      static VecF apply(VecF x) { return ACCEL_SLEEF_F(name)(x); }    \
      static float scalar(float x) { return std::name(x); }           \
    };                                                                \
    struct D {                                                        \
      static constexpr double large() { return 709.0; }               \
      static VecD apply(VecD x) { return ACCEL_SLEEF_D(name)(x); }    \
      static double scalar(double x) { return std::name(x); }         \
    };                                                                \
    set(t, OpKind::Op, DType::Float32, &sleef_loop<float, VecF, F>);  \
    set(t, OpKind::Op, DType::Float64, &sleef_loop<double, VecD, D>); \
  }
  ACCEL_SLEEF_ROW_LARGE(Sinh, sinh)
  ACCEL_SLEEF_ROW_LARGE(Cosh, cosh)
#undef ACCEL_SLEEF_ROW_LARGE
  ACCEL_SLEEF_ROW(Tanh, tanh)
  ACCEL_SLEEF_ROW(Asinh, asinh)
  ACCEL_SLEEF_ROW(Acosh, acosh)
  ACCEL_SLEEF_ROW(Atanh, atanh)
  ACCEL_SLEEF_ROW(Cbrt, cbrt)
#undef ACCEL_SLEEF_ROW
}

const char* vector_math_backend() { return kBackend; }

#else

void add_vector_math_loops(loops::Table&) {}
const char* vector_math_backend() { return "libm"; }

#endif

}  // namespace accel::cpu
