// The scalar semantics of every elementwise operation, written once.
//
// The CPU backend instantiates these functors in its loops; the CUDA code generator embeds this
// file (with platform.h, half.h, complex.h, cast.h, math.h and complex_math.h) into every NVRTC
// program and calls the same functors. Each functor computes in one "compute dtype" T chosen by
// the type rules (src/core/type_rules.cpp); its result is T, bool, or the real type of T, as the
// op table (elementwise_ops.def) says. Semantics follow NumPy 2: where C leaves a case undefined
// (integer division by zero, oversized shifts, float-to-int overflow) the result here is
// NumPy's on x86-64, computed without undefined behaviour, so both backends agree.
#pragma once

#include "cast.h"
#include "complex.h"
#include "complex_math.h"
#include "half.h"
#include "math.h"
#include "platform.h"

namespace accel {

// The type a real float computes in: float16 and bfloat16 compute in float and round once at
// the end of each op, as NumPy's float16 loops do.
template <class T>
struct wide_of {
  using type = T;
};
template <>
struct wide_of<float16> {
  using type = float;
};
template <>
struct wide_of<bfloat16> {
  using type = float;
};
template <class T>
using wide_t = typename wide_of<T>::type;

namespace detail {

// Integer arithmetic wraps modulo 2^n as in NumPy; computing in the unsigned type avoids the
// undefined behaviour of signed overflow.
template <class T>
ACCEL_HD T wrap_add(T a, T b) {
  using U = make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
ACCEL_HD T wrap_sub(T a, T b) {
  using U = make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T>
ACCEL_HD T wrap_mul(T a, T b) {
  using U = make_unsigned_t<T>;
  // uint16*uint16 promotes to (signed) int and can overflow it; widen explicitly.
  using W = typename make_unsigned<decltype(U() * U())>::type;
  return static_cast<T>(
      static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
}

// Integer floor division and Python's modulo: x // 0 and x % 0 are 0 (NumPy's result, after
// its divide-by-zero warning), INT_MIN // -1 wraps to INT_MIN.
template <class T>
ACCEL_HD T floor_div(T n, T d) {
  if (d == T(0)) return T(0);
  if constexpr (is_signed_int_v<T>) {
    if (d == T(-1)) return wrap_sub(T(0), n);
    T q = static_cast<T>(n / d);
    if ((n > T(0)) != (d > T(0)) && static_cast<T>(q * d) != n) q = static_cast<T>(q - 1);
    return q;
  } else {
    return static_cast<T>(n / d);
  }
}
template <class T>
ACCEL_HD T python_mod(T n, T d) {
  if (d == T(0)) return T(0);
  if constexpr (is_signed_int_v<T>) {
    if (d == T(-1)) return T(0);
    const T r = static_cast<T>(n % d);
    return (r == T(0) || (n > T(0)) == (d > T(0))) ? r : static_cast<T>(r + d);
  } else {
    return static_cast<T>(n % d);
  }
}
// C's truncated remainder (fmod on integers); x % 0 is 0.
template <class T>
ACCEL_HD T trunc_mod(T n, T d) {
  if (d == T(0)) return T(0);
  if constexpr (is_signed_int_v<T>) {
    if (d == T(-1)) return T(0);
  }
  return static_cast<T>(n % d);
}

// NumPy's npy_divmod for real floats: the quotient floored and snapped to an integer, the
// remainder with the divisor's sign; x // 0 is x / 0 and x % 0 is fmod(x, 0) (NaN).
template <class R>
ACCEL_HD R float_divmod(R a, R b, R& mod) {
  mod = math::fmod(a, b);
  if (b == R(0)) return a / b;
  R div = (a - mod) / b;
  if (mod != R(0)) {  // NaN counts as nonzero here, as in C
    if ((b < R(0)) != (mod < R(0))) {
      mod += b;
      div -= R(1);
    }
  } else {
    mod = math::copysign(R(0), b);
  }
  if (div == R(0)) return math::copysign(R(0), a / b);
  R floordiv = math::floor(div);
  if (div - floordiv > R(0.5)) floordiv += R(1);
  return floordiv;
}

// Integer power by squaring, wrapping like repeated multiplication. NumPy raises for negative
// exponents (the front-end does too, for scalar exponents); an element of an exponent array
// that is negative gives 1/base truncated toward zero: 1 for base 1, +-1 for base -1, else 0.
template <class T>
ACCEL_HD T int_pow(T base, T exp) {
  if constexpr (is_signed_int_v<T>) {
    if (exp < T(0)) {
      if (base == T(1)) return T(1);
      if (base == T(-1)) return (exp & T(1)) ? T(-1) : T(1);
      return T(0);
    }
  }
  if (exp == T(0) || base == T(1)) return T(1);
  T out = (exp & T(1)) ? base : T(1);
  exp = static_cast<T>(exp >> 1);
  while (exp != T(0)) {
    base = wrap_mul(base, base);
    if (exp & T(1)) out = wrap_mul(out, base);
    exp = static_cast<T>(exp >> 1);
  }
  return out;
}

// Shifts by a count outside [0, bits) give NumPy's results: 0 for <<, the sign fill for >>.
template <class T>
ACCEL_HD T shift_left(T a, T b) {
  using U = make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8) return T(0);
  return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<U>(b)));
}
template <class T>
ACCEL_HD T shift_right(T a, T b) {
  using U = make_unsigned_t<T>;
  if (static_cast<U>(b) >= sizeof(T) * 8) {
    if constexpr (is_signed_int_v<T>) return a < T(0) ? T(-1) : T(0);
    return T(0);
  }
  return static_cast<T>(a >> static_cast<U>(b));  // arithmetic for signed types (C++20)
}

// Lexicographic complex order, as NumPy's: a NaN in either imaginary part makes an ordered
// comparison of unequal real parts false.
template <class T>
ACCEL_HD bool complex_less(complex<T> a, complex<T> b, bool or_equal) {
  if (a.re < b.re) return !math::isnan(a.im) && !math::isnan(b.im);
  return a.re == b.re && (or_equal ? a.im <= b.im : a.im < b.im);
}

}  // namespace detail

namespace ops {

// Ordered comparisons, also used by the argmax/argmin reductions.
template <class T>
ACCEL_HD bool less(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return detail::complex_less(a, b, false);
  } else {
    return a < b;
  }
}
template <class T>
ACCEL_HD bool less_equal(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return detail::complex_less(a, b, true);
  } else {
    return a <= b;
  }
}

// ---- arithmetic -----------------------------------------------------------------------------

struct Add {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (is_int_v<T>) {
      return detail::wrap_add(a, b);
    } else {
      return a + b;
    }
  }
};

struct Subtract {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      return detail::wrap_sub(a, b);
    } else {
      return a - b;
    }
  }
};

struct Multiply {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (is_int_v<T>) {
      return detail::wrap_mul(a, b);
    } else {
      return a * b;
    }
  }
};

struct Divide {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return a / b;
  }
};

struct FloorDivide {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      return detail::floor_div(a, b);
    } else {
      using W = wide_t<T>;
      W mod;
      return T(detail::float_divmod(W(a), W(b), mod));
    }
  }
};

struct Remainder {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      return detail::python_mod(a, b);
    } else {
      using W = wide_t<T>;
      W mod;
      if (W(b) == W(0)) return T(math::fmod(W(a), W(b)));
      detail::float_divmod(W(a), W(b), mod);
      return T(mod);
    }
  }
};

struct Fmod {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      return detail::trunc_mod(a, b);
    } else {
      return math::fmod(a, b);
    }
  }
};

struct Pow {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      return detail::int_pow(a, b);
    } else {
      return math::pow(a, b);
    }
  }
};

struct Negative {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_int_v<T>) {
      return detail::wrap_sub(T(0), a);  // the most negative value wraps to itself
    } else {
      return -a;
    }
  }
};

struct Positive {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    return a;
  }
};

struct Abs {
  template <class T>
  ACCEL_HD real_t<T> operator()(T a) const {
    if constexpr (is_signed_int_v<T>) {
      return a < T(0) ? detail::wrap_sub(T(0), a) : a;
    } else if constexpr (is_same_v<T, bool> || is_unsigned_int_v<T>) {
      return a;
    } else if constexpr (is_complex_v<T>) {
      return math::abs(a);
    } else {
      return math::fabs(a);
    }
  }
};

struct Square {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_int_v<T>) {
      return detail::wrap_mul(a, a);
    } else {
      return a * a;
    }
  }
};

struct Reciprocal {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_int_v<T>) {
      return cast<T>(1.0 / static_cast<double>(a));  // as NumPy: 1/0 is inf, cast as C does
    } else if constexpr (is_complex_v<T>) {
      using R = real_t<T>;
      if (math::fabs(a.im) <= math::fabs(a.re)) {
        const R r = a.im / a.re, d = a.re + a.im * r;
        return {R(1) / d, -r / d};
      }
      const R r = a.re / a.im, d = a.re * r + a.im;
      return {r / d, R(-1) / d};
    } else {
      return T(1) / a;
    }
  }
};

// NumPy 2: -1, 0 or 1 (NaN stays NaN); for complex z / |z| (0 for 0, NaN for NaN).
struct Sign {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_unsigned_int_v<T>) {
      return static_cast<T>(a != T(0));
    } else if constexpr (is_int_v<T>) {
      return static_cast<T>((a > T(0)) - (a < T(0)));
    } else if constexpr (is_complex_v<T>) {
      using R = real_t<T>;
      const R h = math::hypot(a.re, a.im);
      if (math::isnan(h)) return {math::quiet_nan<R>(), math::quiet_nan<R>()};
      if (math::isinf(h)) {
        if (math::isinf(a.re) && math::isinf(a.im))
          return {math::quiet_nan<R>(), math::quiet_nan<R>()};
        if (math::isinf(a.re)) return {a.re > R(0) ? R(1) : R(-1), R(0)};
        return {R(0), a.im > R(0) ? R(1) : R(-1)};
      }
      if (h == R(0)) return {R(0), R(0)};
      return {a.re / h, a.im / h};
    } else {
      using W = wide_t<T>;
      const W x = W(a);
      return T(x > W(0) ? W(1) : (x < W(0) ? W(-1) : (x == W(0) ? W(0) : x)));
    }
  }
};

struct Conj {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return T(a.re, -a.im);
    } else {
      return a;
    }
  }
};

// maximum/minimum propagate NaN (the first operand's when both are NaN) and return the second
// operand of equal ones (so maximum(-0.0, 0.0) is 0.0), as NumPy's loops; complex values
// compare lexicographically. The max/min reductions fold with these same functors.
struct Maximum {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      return (math::isnan(a) || less_equal(b, a)) ? a : b;
    } else if constexpr (is_same_v<T, float16>) {
      return (math::isnan(a) || a >= b) ? a : b;  // NumPy's float16 loop keeps a on ties (+-0)
    } else if constexpr (is_float_v<T>) {
      return (math::isnan(a) || a > b) ? a : b;
    } else {
      return a > b ? a : b;
    }
  }
};
struct Minimum {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      return (math::isnan(a) || less_equal(a, b)) ? a : b;
    } else if constexpr (is_same_v<T, float16>) {
      return (math::isnan(a) || a <= b) ? a : b;
    } else if constexpr (is_float_v<T>) {
      return (math::isnan(a) || a < b) ? a : b;
    } else {
      return a < b ? a : b;
    }
  }
};
// fmax/fmin ignore NaN unless both are NaN.
struct Fmax {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      return (math::isnan(b) || less_equal(b, a)) ? a : b;
    } else if constexpr (is_same_v<T, float16>) {
      return (math::isnan(b) || (!math::isnan(a) && a >= b)) ? a : b;
    } else if constexpr (is_float_v<T>) {
      return (math::isnan(b) || (!math::isnan(a) && a > b)) ? a : b;
    } else {
      return a > b ? a : b;
    }
  }
};
struct Fmin {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      return (math::isnan(b) || less_equal(a, b)) ? a : b;
    } else if constexpr (is_same_v<T, float16>) {
      return (math::isnan(b) || (!math::isnan(a) && a <= b)) ? a : b;
    } else if constexpr (is_float_v<T>) {
      return (math::isnan(b) || (!math::isnan(a) && a < b)) ? a : b;
    } else {
      return a < b ? a : b;
    }
  }
};

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

// ---- bitwise --------------------------------------------------------------------------------

struct BitwiseAnd {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
struct BitwiseOr {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};
struct BitwiseXor {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};
struct BitwiseInvert {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_same_v<T, bool>) {
      return !a;
    } else {
      return static_cast<T>(~a);
    }
  }
};
struct BitwiseLeftShift {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return detail::shift_left(a, b);
  }
};
struct BitwiseRightShift {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return detail::shift_right(a, b);
  }
};

// ---- comparisons and logic ------------------------------------------------------------------

struct Equal {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return a == b;
  }
};
struct NotEqual {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return a != b;
  }
};
struct Less {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less(a, b);
  }
};
struct LessEqual {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less_equal(a, b);
  }
};
struct Greater {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less(b, a);
  }
};
struct GreaterEqual {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less_equal(b, a);
  }
};

struct LogicalAnd {
  ACCEL_HD bool operator()(bool a, bool b) const { return a && b; }
};
struct LogicalOr {
  ACCEL_HD bool operator()(bool a, bool b) const { return a || b; }
};
struct LogicalXor {
  ACCEL_HD bool operator()(bool a, bool b) const { return a != b; }
};
struct LogicalNot {
  ACCEL_HD bool operator()(bool a) const { return !a; }
};

// Classification: integers and bool are always finite.
struct Isfinite {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      return math::isfinite(a);
    } else {
      return true;
    }
  }
};
struct Isinf {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      return math::isinf(a);
    } else {
      return false;
    }
  }
};
struct Isnan {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      return math::isnan(a);
    } else {
      return false;
    }
  }
};
struct Signbit {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    return math::signbit(a);
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
