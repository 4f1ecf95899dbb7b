// complex64 / complex128 for host and device code, laid out as NumPy's (real, imag) pairs.
//
// Only arithmetic lives here; the transcendental functions are in math.h. Division is Smith's
// algorithm exactly as NumPy writes it, so quotients match NumPy's bit for bit.
#pragma once

#include "platform.h"

namespace accel {

template <class T>
struct complex {
  T re, im;
  complex() = default;
  ACCEL_HD constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
  template <class U>
  ACCEL_HD explicit constexpr complex(const complex<U>& o)
      : re(static_cast<T>(o.re)), im(static_cast<T>(o.im)) {}
  ACCEL_HD T real() const { return re; }
  ACCEL_HD T imag() const { return im; }
};

using complex64 = complex<float>;
using complex128 = complex<double>;

template <class T>
struct complex_trait {
  enum : bool { value = false };  // enumerators: no device globals (platform.h)
};
template <class T>
struct complex_trait<complex<T>> {
  enum : bool { value = true };
};
template <class T>
inline constexpr bool is_complex_v = complex_trait<T>::value;

template <class T>
ACCEL_HD complex<T> operator+(complex<T> a, complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class T>
ACCEL_HD complex<T> operator-(complex<T> a, complex<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class T>
ACCEL_HD complex<T> operator-(complex<T> a) {
  return {-a.re, -a.im};
}
// The product as NumPy's SIMD complex multiply on x86 with FMA rounds it (complex64 and
// complex128): the first product of each part is fused into the sum, re = fma(ar, br, -(ai * bi)),
// im = fma(ar, bi, ai * br). Written out, not left to the compiler, so the CPU's vectorised
// loops, their scalar tails, -O2 builds (the sanitizer's) and CUDA (--fmad=false) all round
// alike; the plain form differs in the last bit, and an iterated z * z + c (Mandelbrot) drifts.
template <class T>
ACCEL_HD complex<T> operator*(complex<T> a, complex<T> b) {
  return {math::fma(a.re, b.re, -(a.im * b.im)), math::fma(a.re, b.im, a.im * b.re)};
}
// The product as NumPy's reduce and accumulate loops (prod, cumprod) round it: each product
// rounded before the sum, as their scalar loop (built without contraction) computes it.
template <class T>
ACCEL_HD complex<T> multiply_unfused(complex<T> a, complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
ACCEL_HD complex<T> operator/(complex<T> a, complex<T> b) {
  // |x| without math.h; the zero test turns -0 into +0, as fabs does.
  const T br_abs = b.re < T(0) ? -b.re : (b.re == T(0) ? T(0) : b.re);
  const T bi_abs = b.im < T(0) ? -b.im : (b.im == T(0) ? T(0) : b.im);
  if (br_abs >= bi_abs) {
    if (br_abs == T(0) && bi_abs == T(0)) return {a.re / br_abs, a.im / br_abs};
    const T rat = b.im / b.re;
    const T scl = T(1) / (b.re + b.im * rat);
    return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
  }
  const T rat = b.re / b.im;
  const T scl = T(1) / (b.im + b.re * rat);
  return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
}
template <class T>
ACCEL_HD bool operator==(complex<T> a, complex<T> b) {
  return a.re == b.re && a.im == b.im;
}
template <class T>
ACCEL_HD bool operator!=(complex<T> a, complex<T> b) {
  return !(a == b);
}

}  // namespace accel
