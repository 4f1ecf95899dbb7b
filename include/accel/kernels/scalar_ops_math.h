// Floating-point functions (of two arguments, frexp's decomposition, rounding, and of one
// argument): part of scalar_ops.h (which includes this file at its end), kept apart only for
// size. The rules of scalar_ops.h apply; math.h and complex_math.h hold the semantics.
#pragma once

#include "scalar_ops.h"

namespace accel {
namespace ops {

// ---- real floating functions of two arguments -----------------------------------------------

struct Copysign {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return math::copysign(a, b);
  }
};
struct Nextafter {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return math::nextafter(a, b);
  }
};
struct Hypot {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return math::hypot(a, b);
  }
};
struct Atan2 {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return math::atan2(a, b);
  }
};

// log(exp(a) + exp(b)) without overflow; equal arguments (infinities included) short-cut.
struct Logaddexp {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    using W = wide_t<T>;
    const W x = W(a), y = W(b);
    if (x == y) return T(x + W(0.693147180559945309417232121458176568));
    const W d = x - y;
    if (d > W(0)) return T(x + math::log1p(math::exp(-d)));
    if (d <= W(0)) return T(y + math::log1p(math::exp(d)));
    return T(d);  // NaN
  }
};
struct Logaddexp2 {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    using W = wide_t<T>;
    const W x = W(a), y = W(b), log2e = W(1.442695040888963407359924681001892137);
    if (x == y) return T(x + W(1));
    const W d = x - y;
    if (d > W(0)) return T(x + log2e * math::log1p(math::exp2(-d)));
    if (d <= W(0)) return T(y + log2e * math::log1p(math::exp2(d)));
    return T(d);
  }
};

struct Heaviside {
  template <class T>
  ACCEL_HD T operator()(T x, T h0) const {
    using W = wide_t<T>;
    const W v = W(x);
    if (math::isnan(v)) return x;
    return v == W(0) ? h0 : T(v < W(0) ? W(0) : W(1));
  }
};

// ---- decomposition: numpy.frexp's two results, one op each ----------------------------------

struct FrexpMantissa {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    int e;
    return math::frexp(a, e);
  }
};
struct FrexpExponent {
  template <class T>
  ACCEL_HD int32_t operator()(T a) const {
    int e;
    math::frexp(a, e);
    return e;
  }
};

// ---- rounding: integers and bool are their own floor, ceil and trunc ------------------------

#define ACCEL_ROUNDING_OP(Name, fn)    \
  struct Name {                        \
    template <class T>                 \
    ACCEL_HD T operator()(T a) const { \
      if constexpr (is_float_v<T>) {   \
        return math::fn(a);            \
      } else {                         \
        return a;                      \
      }                                \
    }                                  \
  };
ACCEL_ROUNDING_OP(Floor, floor)
ACCEL_ROUNDING_OP(Ceil, ceil)
ACCEL_ROUNDING_OP(Trunc, trunc)
#undef ACCEL_ROUNDING_OP

// Round half to even; complex numbers round each part.
struct Rint {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return T(math::rint(a.re), math::rint(a.im));
    } else {
      return math::rint(a);
    }
  }
};

// ---- functions of one floating argument: math.h and complex_math.h hold the semantics -------

#define ACCEL_MATH_OP(Name, fn)        \
  struct Name {                        \
    template <class T>                 \
    ACCEL_HD T operator()(T a) const { \
      return math::fn(a);              \
    }                                  \
  };
ACCEL_MATH_OP(Sqrt, sqrt)
ACCEL_MATH_OP(Cbrt, cbrt)
ACCEL_MATH_OP(Exp, exp)
ACCEL_MATH_OP(Exp2, exp2)
ACCEL_MATH_OP(Expm1, expm1)
ACCEL_MATH_OP(Log, log)
ACCEL_MATH_OP(Log2, log2)
ACCEL_MATH_OP(Log10, log10)
ACCEL_MATH_OP(Log1p, log1p)
ACCEL_MATH_OP(Sin, sin)
ACCEL_MATH_OP(Cos, cos)
ACCEL_MATH_OP(Tan, tan)
ACCEL_MATH_OP(Asin, asin)
ACCEL_MATH_OP(Acos, acos)
ACCEL_MATH_OP(Atan, atan)
ACCEL_MATH_OP(Sinh, sinh)
ACCEL_MATH_OP(Cosh, cosh)
ACCEL_MATH_OP(Tanh, tanh)
ACCEL_MATH_OP(Asinh, asinh)
ACCEL_MATH_OP(Acosh, acosh)
ACCEL_MATH_OP(Atanh, atanh)
ACCEL_MATH_OP(Fabs, fabs)
#undef ACCEL_MATH_OP

namespace detail {

// Clenshaw's recurrence for a Chebyshev series, as numpy.i0's _chbevl writes it: every
// operation rounded to T (float16 included, as NumPy's float16 loops round each one).
template <class T, int N>
ACCEL_HD T chbevl(T x, const double (&c)[N]) {
  T b0 = T(c[0]), b1 = T(0.0), b2 = T(0.0);
#if ACCEL_DEVICE_CODE
#pragma unroll
#endif
  for (int i = 1; i < N; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = T(T(T(x * b1) - b2) + T(c[i]));
  }
  return T(T(0.5) * T(b0 - b2));
}

}  // namespace detail

// The modified Bessel function of the first kind, order 0, as numpy.i0 computes it: Cephes'
// Chebyshev series of exp(-x) I0(x) on [0, 8] and of exp(-x) sqrt(x) I0(x) past 8, the same
// operations in the same order (so float16's exp(x) overflows near x = 11.1 as NumPy's does,
// and i0(+-inf) is inf / inf = NaN). bfloat16, which NumPy has no loops for, is computed in
// float32 and rounded once, as its other functions are.
struct I0 {
  template <class T>
  ACCEL_HD T operator()(T v) const {
    if constexpr (is_same_v<T, bfloat16>) {
      return T((*this)(float(v)));
    } else {
      constexpr double low[30] = {
          -4.4153416464793395e-18, 3.3307945188222384e-17,  -2.431279846547955e-16,
          1.715391285555133e-15,   -1.1685332877993451e-14, 7.676185498604936e-14,
          -4.856446783111929e-13,  2.95505266312964e-12,    -1.726826291441556e-11,
          9.675809035373237e-11,   -5.189795601635263e-10,  2.6598237246823866e-09,
          -1.300025009986248e-08,  6.046995022541919e-08,   -2.670793853940612e-07,
          1.1173875391201037e-06,  -4.4167383584587505e-06, 1.6448448070728896e-05,
          -5.754195010082104e-05,  0.00018850288509584165,  -0.0005763755745385824,
          0.0016394756169413357,   -0.004324309995050576,   0.010546460394594998,
          -0.02373741480589947,    0.04930528423967071,     -0.09490109704804764,
          0.17162090152220877,     -0.3046826723431984,     0.6767952744094761};
      constexpr double high[25] = {
          -7.233180487874754e-18,  -4.830504485944182e-18,  4.46562142029676e-17,
          3.461222867697461e-17,   -2.8276239805165836e-16, -3.425485619677219e-16,
          1.7725601330565263e-15,  3.8116806693526224e-15,  -9.554846698828307e-15,
          -4.150569347287222e-14,  1.54008621752141e-14,    3.8527783827421426e-13,
          7.180124451383666e-13,   -1.7941785315068062e-12, -1.3215811840447713e-11,
          -3.1499165279632416e-11, 1.1889147107846439e-11,  4.94060238822497e-10,
          3.3962320257083865e-09,  2.266668990498178e-08,   2.0489185894690638e-07,
          2.8913705208347567e-06,  6.889758346916825e-05,   0.0033691164782556943,
          0.8044904110141088};
      const T x = math::fabs(v);
      if (x <= T(8.0)) {
        return T(math::exp(x) * detail::chbevl(T(T(x / T(2.0)) - T(2.0)), low));
      }
      const T series = detail::chbevl(T(T(T(32.0) / x) - T(2.0)), high);
      return T(T(math::exp(x) * series) / math::sqrt(x));
    }
  }
};

// Degrees and radians scale by a constant rounded to the compute precision, as NumPy's.
struct Deg2rad {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    using W = wide_t<T>;
    return T(W(a) * (math::pi_v<W>() / W(180)));
  }
};
struct Rad2deg {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    using W = wide_t<T>;
    return T(W(a) * (W(180) / math::pi_v<W>()));
  }
};

}  // namespace ops
}  // namespace accel
