// Complex math functions (complex64, complex128) for host and device code.
//
// Written once here so the CPU and the GPU agree. They follow the special values of C99 Annex G
// (branch cuts, signed zeros, infinities and NaNs), which is what NumPy gets from npymath and the
// C library. Where NumPy defines a function by its own formula (log1p, log2, log10, exp2, expm1,
// pow), the same formula is used, so that results agree beyond the special values.
// The inverse functions use Kahan's formulations ("Branch cuts for complex elementary
// functions", 1987): accurate away from overflow, and right on both sides of every branch cut.
#pragma once

#include "complex.h"
#include "math.h"

namespace accel::math {

template <class T>
ACCEL_HD constexpr T pi_v() {
  return T(3.14159265358979323846264338327950288);
}

// |z| as NumPy's absolute loop computes it (loops_unary_complex.dispatch.c.src, the SIMD path
// every aligned array takes), so results are bit-identical to NumPy's rather than C hypot's
// (which differs by an ulp on a third of the inputs): larger * sqrt(1 + ratio^2) with the
// ratio of the smaller to the larger part, the 1 + ratio^2 fused. An infinite part wins over
// a NaN, as there.
template <class T>
ACCEL_HD T abs(complex<T> z) {
  const T re = fabs(z.re), im = fabs(z.im);
  if (re == infinity<T>() || im == infinity<T>()) return infinity<T>();
  if (isnan(re) || isnan(im)) return quiet_nan<T>();
  const T larger = re > im ? re : im;
  const T smaller = re > im ? im : re;
  const T ratio = larger == T(0) ? T(0) : smaller / larger;
  return sqrt(fma(ratio, ratio, T(1))) * larger;
}
// z * z: NumPy's square loop (loops_arithm_fp.dispatch.c.src) rounds as its multiply loop.
template <class T>
ACCEL_HD complex<T> square(complex<T> z) {
  return z * z;
}
template <class T>
ACCEL_HD bool isnan(complex<T> z) {
  return isnan(z.re) || isnan(z.im);
}
template <class T>
ACCEL_HD bool isinf(complex<T> z) {
  return isinf(z.re) || isinf(z.im);
}
template <class T>
ACCEL_HD bool isfinite(complex<T> z) {
  return isfinite(z.re) && isfinite(z.im);
}

// -i * w and i * w, for the identities asin(z) = -i asinh(iz) and friends.
template <class T>
ACCEL_HD complex<T> times_i(complex<T> w) {
  return {-w.im, w.re};
}
template <class T>
ACCEL_HD complex<T> times_minus_i(complex<T> w) {
  return {w.im, -w.re};
}

template <class T>
ACCEL_HD complex<T> sqrt(complex<T> z) {
  const T a = z.re, b = z.im;
  if (a == T(0) && b == T(0)) return {T(0), b};
  if (isinf(b)) return {infinity<T>(), b};
  if (isnan(a)) return {a, (b - b) / (b - b)};
  if (isinf(a)) {
    if (signbit(a)) return {fabs(b - b), copysign(a, b)};
    return {a, isnan(b) ? b : copysign(T(0), b)};
  }
  // Scale to avoid overflow in hypot and underflow in the square root (a subnormal t made
  // b / (2 t) infinite: acos(-1 + 1e-45j) had an infinite imaginary part). Scaling by even
  // powers of two is exact, and so is taking the root's power of two back out.
  const T big = T(1) / T(4) * (sizeof(T) == 4 ? T(3.4028234e38f) : T(1.7976931348623157e308));
  if (fabs(a) >= big || fabs(b) >= big) {
    const complex<T> s = sqrt(complex<T>(a * T(0.25), b * T(0.25)));
    return {s.re * T(2), s.im * T(2)};
  }
  // Below 4 times the smallest normal number: scaled up by 2^48 (float) or 2^108 (double),
  // the root scaled down by 2^-24 or 2^-54.
  const T small = sizeof(T) == 4 ? T(4.7019774e-38f) : T(8.900295434028806e-308);
  if (fabs(a) < small && fabs(b) < small) {
    const T up = sizeof(T) == 4 ? T(281474976710656.0) : T(3.2451855365842673e32);
    const T down = sizeof(T) == 4 ? T(5.9604644775390625e-08) : T(5.551115123125783e-17);
    const complex<T> s = sqrt(complex<T>(a * up, b * up));
    return {s.re * down, s.im * down};
  }
  // A purely imaginary z: both parts are the one root sqrt(|b| / 2), as glibc's csqrt (which
  // NumPy calls) returns them. b / (2 t) rounds a second time and can be an ulp off t; then
  // sqrt(z) * sqrt(z) has a real part of the wrong sign, and a complex ordering on it
  // (minimum, sort) picks another element.
  if (a == T(0)) {
    const T r = sqrt(fabs(b) * T(0.5));
    return {r, copysign(r, b)};
  }
  const T t = sqrt((fabs(a) + hypot(a, b)) * T(0.5));
  if (a >= T(0)) return {t, b / (T(2) * t)};
  return {fabs(b) / (T(2) * t), copysign(t, b)};
}

// Past t = floor((max_exponent - 1) ln 2), e^x may overflow where e^x cos y or e^x sin y does
// not. glibc's cexp, csinh and ccosh (which NumPy calls) then scale cos y and sin y by e^t
// first (halved for sinh and cosh: e^x / 2), up to twice, then by the largest finite value;
// exp_times(x, c, s, half) does the same, for x > t when `half`.
template <class T>
ACCEL_HD T exp_split() {
  return sizeof(T) == 4 ? T(88) : T(709);
}
template <class T>
ACCEL_HD complex<T> exp_times(T x, T c, T s, bool half) {
  const T t = exp_split<T>();
  if (x > t) {
    const T et = exp(t), first = half ? et / T(2) : et;
    x -= t, c *= first, s *= first;
    if (x > t) x -= t, c *= et, s *= et;
    if (x > t) return {largest_finite<T>() * c, largest_finite<T>() * s};
  }
  const T e = exp(x);
  return {e * c, e * s};
}

template <class T>
ACCEL_HD complex<T> exp(complex<T> z) {
  const T a = z.re, b = z.im;
  if (isfinite(a) && isfinite(b)) {
    if (b == T(0)) return {exp(a), b};
    return exp_times(a, cos(b), sin(b), false);
  }
  if (isnan(a)) return {a, b == T(0) ? b : a};  // exp(NaN + i0) keeps the zero
  if (isinf(a)) {
    if (a < T(0)) return isfinite(b) ? complex<T>(T(0) * cos(b), T(0) * sin(b)) : complex<T>(0, 0);
    if (b == T(0)) return {a, b};
    return isfinite(b) ? complex<T>(a * cos(b), a * sin(b)) : complex<T>(a, b - b);
  }
  return {b - b, b - b};  // finite real part, infinite or NaN imaginary part
}

template <class T>
ACCEL_HD complex<T> log(complex<T> z) {
  const T a = fabs(z.re), b = fabs(z.im);
  const T h = hypot(a, b);
  T re;
  if (isinf(h) && isfinite(a) && isfinite(b)) {
    // |z| past the largest float: log |z| = log |z / 2| + log 2, all exact but the last add.
    re = log(hypot(a * T(0.5), b * T(0.5))) + T(0.693147180559945309417232121458176568);
  } else if (h > T(0.5) && h < T(2)) {
    // Near the unit circle log(h) cancels; log1p of |z|^2 - 1, formed exactly, does not.
    const T big = a > b ? a : b, small = a > b ? b : a;
    re = T(0.5) * log1p((big - T(1)) * (big + T(1)) + small * small);
  } else {
    re = log(h);
  }
  return {re, atan2(z.im, z.re)};
}

// NumPy's definitions (nc_log1p, nc_log2, nc_log10, nc_exp2, nc_expm1).
template <class T>
ACCEL_HD complex<T> log1p(complex<T> z) {
  return {log(hypot(z.re + T(1), z.im)), atan2(z.im, z.re + T(1))};
}
template <class T>
ACCEL_HD complex<T> log2(complex<T> z) {
  const complex<T> l = log(z);
  const T k = T(1.442695040888963407359924681001892137);  // log2(e)
  return {l.re * k, l.im * k};
}
template <class T>
ACCEL_HD complex<T> log10(complex<T> z) {
  const complex<T> l = log(z);
  const T k = T(0.434294481903251827651128918916605082);  // log10(e)
  return {l.re * k, l.im * k};
}
template <class T>
ACCEL_HD complex<T> exp2(complex<T> z) {
  const T k = T(0.693147180559945309417232121458176568);  // ln(2)
  return exp(complex<T>(z.re * k, z.im * k));
}
// Finite arguments by NumPy's formula; the others as exp(z) - 1 by C99's special values of exp,
// which the Array API standard spells out (NumPy's formula gives NaN parts there: inf * 0).
template <class T>
ACCEL_HD complex<T> expm1(complex<T> z) {
  const T a = z.re, b = z.im;
  if (isfinite(a) && isfinite(b)) {
    if (b == T(0)) return {expm1(a), b};
    const T s = sin(b / T(2));
    return {expm1(a) * cos(b) - T(2) * s * s, exp(a) * sin(b)};
  }
  if (isnan(a)) return {a, b == T(0) ? b : a};
  if (isinf(a)) {
    if (a < T(0)) return {T(-1), T(0)};
    if (b == T(0)) return {a, b};
    return isfinite(b) ? complex<T>(a * cos(b) - T(1), a * sin(b)) : complex<T>(a, b - b);
  }
  return {b - b, b - b};  // finite real part, infinite or NaN imaginary part
}

template <class T>
ACCEL_HD complex<T> sinh(complex<T> z) {
  const T x = z.re, y = z.im;
  // y = 0: cosh(x) * 0 would be NaN once cosh(x) overflows; the imaginary part is y.
  if (y == T(0) && isfinite(x)) return {sinh(x), y};
  if (isfinite(x) && isfinite(y)) {
    if (fabs(x) > exp_split<T>())
      return exp_times(fabs(x), signbit(x) ? -cos(y) : cos(y), sin(y), true);
    return {sinh(x) * cos(y), cosh(x) * sin(y)};
  }
  if (x == T(0)) return {x, y - y};  // sinh(+-0 + i inf or NaN) = +-0 + i NaN
  if (y == T(0)) return {x, y};      // sinh(inf or NaN + i0) keeps both
  if (isinf(x)) {
    if (isfinite(y)) return {x * cos(y), fabs(x) * sin(y)};
    return {x, y - y};
  }
  return {quiet_nan<T>(), quiet_nan<T>()};  // finite x with y inf or NaN, or NaN x
}

template <class T>
ACCEL_HD complex<T> cosh(complex<T> z) {
  const T x = z.re, y = z.im;
  // y = 0: sinh(x) * 0 would be NaN once sinh(x) overflows; the imaginary part is a signed 0.
  if (y == T(0) && isfinite(x)) return {cosh(x), x * y};
  if (isfinite(x) && isfinite(y)) {
    if (fabs(x) > exp_split<T>())
      return exp_times(fabs(x), cos(y), signbit(x) ? -sin(y) : sin(y), true);
    return {cosh(x) * cos(y), sinh(x) * sin(y)};
  }
  if (x == T(0)) return {y - y, x};                    // NaN +- i0
  if (y == T(0)) return {x * x, signbit(x) ? -y : y};  // +inf or NaN, +-i0
  if (isinf(x)) {
    if (isfinite(y)) return {fabs(x) * cos(y), x * sin(y)};
    return {x * x, y - y};
  }
  return {quiet_nan<T>(), quiet_nan<T>()};
}

template <class T>
ACCEL_HD complex<T> tanh(complex<T> z) {
  const T x = z.re, y = z.im;
  if (isinf(x)) {
    // C99 gives the zero the sign of sin(2y); the Array API standard, that of y.
    return {copysign(T(1), x), copysign(T(0), isfinite(y) ? y : T(1))};
  }
  if (isnan(x)) return {x, y == T(0) ? y : x};
  if (!isfinite(y)) return {x == T(0) ? x : y - y, y - y};
  // Past this the real part is 1 to working precision and cosh(x)^2 would overflow.
  const T large = sizeof(T) == 4 ? T(9) : T(22);
  if (fabs(x) >= large) {
    const T e = exp(T(-2) * fabs(x));
    return {copysign(T(1), x), T(4) * sin(y) * cos(y) * e};
  }
  // Kahan: with t = tan(y), b = 1 + t^2, s = sinh(x), r = cosh(x):
  // tanh(z) = (b r s + i t) / (1 + b s^2), free of the cancellation of the textbook formula.
  const T t = tan(y), b = T(1) + t * t, s = sinh(x), r = sqrt(T(1) + s * s);
  const T d = T(1) + b * s * s;
  return {b * r * s / d, t / d};
}

template <class T>
ACCEL_HD complex<T> sin(complex<T> z) {
  return times_minus_i(sinh(times_i(z)));
}
template <class T>
ACCEL_HD complex<T> cos(complex<T> z) {
  return cosh(times_i(z));
}
template <class T>
ACCEL_HD complex<T> tan(complex<T> z) {
  return times_minus_i(tanh(times_i(z)));
}

// asinh: Annex G special values for non-finite input, Kahan's asin (through asinh(z) =
// -i asin(iz)) for finite input.
template <class T>
ACCEL_HD complex<T> asin_finite(complex<T> z) {
  const complex<T> s1 = sqrt(complex<T>(T(1) - z.re, -z.im));
  const complex<T> s2 = sqrt(complex<T>(T(1) + z.re, z.im));
  return {atan2(z.re, s1.re * s2.re - s1.im * s2.im), asinh(s1.re * s2.im - s1.im * s2.re)};
}

template <class T>
ACCEL_HD complex<T> asinh(complex<T> z) {
  const T x = z.re, y = z.im;
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return {x, y};   // +-inf + i NaN
    if (isinf(y)) return {y, x};   // +-inf + i NaN (the sign is unspecified)
    if (y == T(0)) return {x, y};  // NaN + i0
    return {x + y, x + y};         // NaN + i NaN
  }
  if (isinf(x) || isinf(y)) {
    return {copysign(infinity<T>(), x), copysign(atan2(fabs(y), fabs(x)), y)};
  }
  return times_minus_i(asin_finite(times_i(z)));
}

template <class T>
ACCEL_HD complex<T> asin(complex<T> z) {
  return times_minus_i(asinh(times_i(z)));
}

template <class T>
ACCEL_HD complex<T> acos(complex<T> z) {
  if (!isfinite(z)) {
    const complex<T> w = asin(z);  // acos(z) = pi/2 - asin(z) carries the special values
    return {pi_v<T>() / T(2) - w.re, -w.im};
  }
  const complex<T> s1 = sqrt(complex<T>(T(1) - z.re, -z.im));
  const complex<T> s2 = sqrt(complex<T>(T(1) + z.re, z.im));
  return {T(2) * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re)};
}

// acosh(z) = +-i acos(z), the sign chosen for a non-negative real part.
template <class T>
ACCEL_HD complex<T> acosh(complex<T> z) {
  const complex<T> w = acos(z);
  if (isnan(w.re) && isnan(w.im)) return {w.im, w.re};
  if (isnan(w.re)) return {fabs(w.im), w.re};
  if (isnan(w.im)) return {w.im, w.re};  // acosh(+-0 + i NaN) = NaN + i pi/2
  return {fabs(w.im), copysign(w.re, z.im)};
}

template <class T>
ACCEL_HD complex<T> atanh(complex<T> z) {
  const T x = z.re, y = z.im;
  const T half_pi = pi_v<T>() / T(2);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return {copysign(T(0), x), y};
    if (isinf(y)) return {copysign(T(0), x), copysign(half_pi, y)};
    if (x == T(0)) return {x, y};
    return {x + y, x + y};
  }
  if (isinf(x) || isinf(y)) return {copysign(T(0), x), copysign(half_pi, y)};
  const T ax = fabs(x), ay = fabs(y);
  const T big = sizeof(T) == 4 ? T(1e18f) : T(1e150);
  T re, im;
  if (ax > big || ay > big) {  // 1/z to working precision, without squaring z
    const T h = hypot(ax, ay);
    re = (ax / h) / h;
    im = half_pi;
  } else {
    const T one_minus = T(1) - ax;
    const T d = one_minus * one_minus + ay * ay;
    // Near z = +-1 the squares underflow (float's 1 + 4e-37i gave inf): there, the logarithm of
    // the ratio of the two distances, each taken by hypot.
    const T tiny = sizeof(T) == 4 ? T(1e-30f) : T(1e-290);
    re = d < tiny ? T(0.5) * (log(hypot(T(1) + ax, ay)) - log(hypot(one_minus, ay)))
                  : T(0.25) * log1p(T(4) * ax / d);
    im = T(0.5) * atan2(T(2) * ay, one_minus * (T(1) + ax) - ay * ay);
  }
  return {copysign(re, x), copysign(im, y)};
}

template <class T>
ACCEL_HD complex<T> atan(complex<T> z) {
  return times_minus_i(atanh(times_i(z)));
}

// a * b as C99 Annex G's multiplication (__muldc3): where the plain product is NaN + NaN i,
// infinite factors give the infinities back. NumPy's multiply is the plain product, but its
// power is the C library's cpow, exp(b log a) with this product inside.
template <class T>
ACCEL_HD complex<T> multiply_annex_g(complex<T> x, complex<T> y) {
  T a = x.re, b = x.im, c = y.re, d = y.im;
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  const complex<T> plain(ac - bd, ad + bc);
  if (!isnan(plain.re) || !isnan(plain.im)) return plain;
  bool again = false;
  const auto box = [](T& v) { v = copysign(isinf(v) ? T(1) : T(0), v); };
  const auto zero_nan = [](T& v) {
    if (isnan(v)) v = copysign(T(0), v);
  };
  if (isinf(a) || isinf(b)) {
    box(a), box(b), zero_nan(c), zero_nan(d);
    again = true;
  }
  if (isinf(c) || isinf(d)) {
    box(c), box(d), zero_nan(a), zero_nan(b);
    again = true;
  }
  if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
    zero_nan(a), zero_nan(b), zero_nan(c), zero_nan(d);
    again = true;
  }
  if (!again) return plain;
  return {infinity<T>() * (a * c - b * d), infinity<T>() * (a * d + b * c)};
}

// NumPy's complex power (nc_pow): exact small integer powers by repeated multiplication,
// exp(b log a) otherwise.
template <class T>
ACCEL_HD complex<T> pow(complex<T> a, complex<T> b) {
  if (b.re == T(0) && b.im == T(0)) return {T(1), T(0)};
  if (a.re == T(0) && a.im == T(0)) {
    if (b.re > T(0)) return {T(0), T(0)};  // 0^b: 0 when Re b > 0, else undefined
    return {quiet_nan<T>(), quiet_nan<T>()};
  }
  if (b.im == T(0) && fabs(b.re) < T(100) && trunc(b.re) == b.re) {
    const int n = static_cast<int>(b.re);
    if (n == 1) return a;
    if (n == 2) return a * a;
    if (n == 3) return (a * a) * a;
    unsigned m = static_cast<unsigned>(n < 0 ? -n : n);
    complex<T> acc(T(1), T(0)), p = a;
    for (unsigned mask = 1;; mask <<= 1) {
      if (m & mask) acc = acc * p;
      if (m < (mask << 1)) break;
      p = p * p;
    }
    return n < 0 ? complex<T>(T(1), T(0)) / acc : acc;
  }
  return exp(multiply_annex_g(b, log(a)));
}

}  // namespace accel::math
