// NumPy's sort order, shared by the CPU sorts, the CUB library (src/cuda/cub/) and searchsorted:
// NaN after every number; complex numbers lexicographic by (real, imag), with the NaN-holding
// ones after the rest in NumPy's order [R + Rj, R + nanj, nan + Rj, nan + nanj].
#pragma once

#include "complex.h"
#include "half.h"

namespace accel {

template <class T>
ACCEL_HD bool sort_isnan(T x) {
  if constexpr (is_half_v<T>) {
    return sort_isnan(static_cast<float>(x));
  } else if constexpr (is_complex_v<T>) {
    return sort_isnan(x.re) || sort_isnan(x.im);
  } else {
    return !(x == x);  // false for integers and bool
  }
}

// Real numbers, NaN last (NumPy's FLOAT_LT in npysort).
template <class T>
ACCEL_HD bool sort_less_real(T a, T b) {
  return a < b || (b != b && a == a);
}

// a before b in NumPy's ascending order.
template <class T>
ACCEL_HD bool sort_less(T a, T b) {
  if constexpr (is_half_v<T>) {
    return sort_less_real(static_cast<float>(a), static_cast<float>(b));
  } else if constexpr (is_complex_v<T>) {
    // NumPy's CFLOAT_LT, case by case.
    if (a.re < b.re) return a.im == a.im || b.im != b.im;
    if (a.re > b.re) return b.im != b.im && a.im == a.im;
    if (a.re == b.re || (a.re != a.re && b.re != b.re)) {
      return a.im < b.im || (b.im != b.im && a.im == a.im);
    }
    return b.re != b.re;
  } else if constexpr (is_same_v<T, bool>) {
    return !a && b;
  } else {
    return sort_less_real(a, b);
  }
}

}  // namespace accel
