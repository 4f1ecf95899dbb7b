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

// NumPy flags an integer division by zero, and INT_MIN // -1, as the float division by zero
// (overflow, raise_overflow in half.h) they would be, for its error modes (numpy.seterr). The CPU
// raises the same IEEE flag by doing that float operation (volatile: not folded away), and the
// evaluator reports it with the others (accel/fp_errors.hpp); device code raises nothing.
ACCEL_HD void raise_divide_by_zero() {
#if !ACCEL_DEVICE_CODE
  volatile double zero = 0.0;
  volatile double quotient = 1.0 / zero;
  (void)quotient;
#endif
}

// Integer floor division and Python's modulo: x // 0 and x % 0 are 0 (NumPy's result, after
// its divide-by-zero warning), INT_MIN // -1 wraps to INT_MIN.
template <class T>
ACCEL_HD T floor_div(T n, T d) {
  if (d == T(0)) {
    raise_divide_by_zero();
    return T(0);
  }
  if constexpr (is_signed_int_v<T>) {
    if (d == T(-1)) {
      using U = make_unsigned_t<T>;
      if (n == static_cast<T>(static_cast<U>(U(1) << (8 * sizeof(T) - 1)))) raise_overflow();
      return wrap_sub(T(0), n);
    }
    T q = static_cast<T>(n / d);
    if ((n > T(0)) != (d > T(0)) && static_cast<T>(q * d) != n) q = static_cast<T>(q - 1);
    return q;
  } else {
    return static_cast<T>(n / d);
  }
}
template <class T>
ACCEL_HD T python_mod(T n, T d) {
  if (d == T(0)) {
    raise_divide_by_zero();
    return T(0);
  }
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
  if (d == T(0)) {
    raise_divide_by_zero();
    return T(0);
  }
  if constexpr (is_signed_int_v<T>) {
    if (d == T(-1)) return T(0);
  }
  return static_cast<T>(n % d);
}

// NumPy's npy_divmod for real floats: the quotient floored and snapped to an integer, the
// remainder with the divisor's sign; x // 0 is x / 0 and x % 0 is fmod(x, 0) (NaN).
template <class R>
ACCEL_HD R float_divmod(R a, R b, R& mod) {
  // A NaN operand gives NaN without the ordered comparisons below, which would raise the
  // invalid flag that NumPy (comparing with the quiet isless) does not.
  if (a != a || b != b) {
    mod = a + b;
    return mod;
  }
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
// exponents, and so does the front-end (scalar and array exponents, at the call); a negative
// element reaching here anyway (a kernel called directly) gives 1/base truncated toward zero.
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

// (ah + al) * (bh + bl) in double-double, normalized (ah: the product rounded once), for integer
// operands: fma gives each product's rounding error exactly. An overflow leaves ah infinite.
ACCEL_HD void double_double_mul(double& ah, double& al, double bh, double bl) {
  const double p = ah * bh;
  if (!math::isfinite(p)) {
    ah = p;
    al = 0.0;
    return;
  }
  const double t = math::fma(ah, bh, -p) + (ah * bl + al * bh) + al * bl;
  ah = p + t;
  al = t - (ah - p);
}

// base^e for an integer-valued double base, as the double-double rh + rl (within about 2^-98
// of its size of the exact power; rh is that rounded once), or rh infinite on overflow.
ACCEL_HD void double_double_power(double base, unsigned e, double& rh, double& rl) {
  rh = 1.0;
  rl = 0.0;
  double sh = base, sl = 0.0;
  for (;;) {
    if (e & 1u) double_double_mul(rh, rl, sh, sl);
    e >>= 1;
    if (e == 0 || !math::isfinite(rh)) break;
    double_double_mul(sh, sl, sh, sl);
  }
}

// hi + lo (or hi plus anything of lo's sign smaller than half an ulp of hi) rounded once to
// float: the cast rounds hi, which is right unless hi lies exactly halfway between two floats
// (a float's midpoint has 25 bits: a double holds it); there lo's sign decides.
ACCEL_HD float double_to_float_once(double hi, double lo) {
  const float f = static_cast<float>(hi);
  const double below = static_cast<double>(f);
  if (lo == 0.0 || below == hi || !math::isfinite(f)) return f;
  const float g =
      math::nextafter(f, hi > below ? math::infinity<float>() : -math::infinity<float>());
  const double other = static_cast<double>(g);
  if (other - hi != hi - below) return f;  // not a midpoint
  return (lo > 0.0) == (other > below) ? g : f;
}

// Real pow of an integer base to an integer exponent: the exact power rounded once, so integer
// arrays promoted to a float dtype for `**` agree on every backend (glibc's pow, which NumPy
// calls, differs only in exact halfway cases past 2^53, 41.0**10 by 1 ulp; NumPy's AVX-512 pow
// is within an ulp; CUDA's within 2: 3.0**1.0 gave 2.9999999999999996 on an H100). Below 2^53
// (2^24 for float) squaring is exact; past it the power is taken in double-double (106 bits),
// which rounds once unless within 2^-98 of a halfway point without being one (an integer below
// 2^98 cannot be). A negative exponent divides 1 by the exact power, rounded once (float: the
// reciprocal of the double-double, to any size). False where this does not apply (a fractional
// or huge exponent, a double one whose power is past 2^53): the caller uses pow.
template <class R>
ACCEL_HD bool exact_integer_pow(R base, R exp, R& out) {
  constexpr bool is_double = sizeof(R) == 8;
  const R limit = is_double ? R(9007199254740992.0) : R(16777216.0);
  const R max_exp = is_double ? R(2048) : R(256);  // past them, |base| >= 2 overflows anyway
  // NaN is tested quietly first: the ordered comparisons would raise the invalid flag.
  if (exp != exp || base != base) return false;
  if (!(exp >= -max_exp && exp <= max_exp && math::trunc(exp) == exp)) return false;
  if (!(math::isfinite(base) && math::trunc(base) == base)) return false;
  const bool negative = exp < R(0);
  const unsigned exponent = static_cast<unsigned>(negative ? -exp : exp);
  bool exact = math::fabs(base) <= limit;
  R result = R(1);
  R square = base;
  for (unsigned e = exponent; exact;) {
    if (e & 1u) {
      result *= square;
      exact = math::fabs(result) <= limit;
    }
    e >>= 1;
    if (e == 0 || !exact) break;
    square *= square;
    exact = math::fabs(square) <= limit;
  }
  if (exact) {
    out = negative ? R(1) / result : result;
    return true;
  }
  double rh = 0.0, rl = 0.0;
  double_double_power(static_cast<double>(base), exponent, rh, rl);
  if (negative) {
    if constexpr (is_double) return false;  // its quotient would need ~2^-106: pow decides
    // 1 / (rh + rl) as q + lo: 1 - q*rh is exact by fma, q * (that - q*rl) the rest to ~2^-100
    // of q; the pair rounds to float once (an infinite power's reciprocal, a signed zero, too).
    const double q = 1.0 / rh;
    if (!math::isfinite(rh)) {
      out = static_cast<float>(q);
      return true;
    }
    const double lo = q * (math::fma(-q, rh, 1.0) - q * rl);
    const double hi = q + lo;
    out = double_to_float_once(hi, lo - (hi - q));
    return true;
  }
  if constexpr (is_double) {
    out = rh;
  } else {
    // Past float's range pow overflows (and raises the flag); a double cast there would be UB.
    if (!(math::fabs(rh) <= 3.4028234663852886e38)) return false;
    out = double_to_float_once(rh, rl);
  }
  return true;
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
      if constexpr (is_same_v<T, float> || is_same_v<T, double>) {
        T exact;
        if (detail::exact_integer_pow(a, b, exact)) return exact;
      }
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
    } else if constexpr (is_complex_v<T>) {
      return math::square(a);
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

}  // namespace ops
}  // namespace accel

// The rest of the ops, in files of their own only for size.
#include "scalar_ops_logic.h"
#include "scalar_ops_math.h"
