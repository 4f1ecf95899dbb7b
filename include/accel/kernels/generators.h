// The generators (fill, arange, linspace, eye) as functions of the logical flat index, shared by
// the CPU loops and the CUDA kernels (embedded into every NVRTC program like scalar_ops.h).
#pragma once

#include "scalar_ops.h"

namespace accel::gen {

// arange steps in float for the 16-bit floats (as NumPy's HALF_fill), int64 for bool, else in
// the output dtype.
template <class T>
struct arange_step {
  using type = T;
};
template <>
struct arange_step<float16> {
  using type = float;
};
template <>
struct arange_step<bfloat16> {
  using type = float;
};
template <>
struct arange_step<bool> {
  using type = int64_t;
};
template <class T>
using arange_step_t = typename arange_step<T>::type;

// arange, as NumPy's fill functions compute it: elements 0 and 1 are the stored `first` and
// `second` (start and start + step, converted to T); element i >= 2 is
// first + i * (second - first) in the step type (float for the 16-bit floats, per component for
// complex), and integers wrap instead of overflowing.
template <class T>
ACCEL_HD T arange(int64_t i, T first, T second) {
  using C = arange_step_t<T>;
  if (i < 2) return i == 0 ? first : second;
  const C start = cast<C>(first);
  const C delta = ops::Subtract{}(cast<C>(second), start);
  if constexpr (is_int_v<C>) {
    return cast<T>(C(uint64_t(start) + uint64_t(i) * uint64_t(delta)));
  } else if constexpr (is_complex_v<C>) {
    using R = real_t<C>;
    return cast<T>(C(R(start.re + R(i) * delta.re), R(start.im + R(i) * delta.im)));
  } else {
    return cast<T>(C(start + C(i) * delta));
  }
}

// math::floor takes float and double: the 16-bit floats go through float (exactly).
template <class C>
struct floor_arg {
  using type = C;
};
template <>
struct floor_arg<float16> {
  using type = float;
};
template <>
struct floor_arg<bfloat16> {
  using type = float;
};

// linspace in the compute type C (the result type of start and stop), as NumPy computes it:
// i * step + start with step = (stop - start) / div, or (i / div) * (stop - start) when the
// step underflows to zero, or i * (stop - start) + start when div is 0; element `last` is
// exactly `stop`; integer results round toward -inf (NumPy 2), bool takes truthiness.
template <class T, class C>
ACCEL_HD T linspace(int64_t i, C start, C stop, int64_t div, int64_t last) {
  const C cdiv = cast<C>(div);
  const C delta = stop - start;
  const C step = div > 0 ? C(delta / cdiv) : C(0);
  const bool divide_mode = div > 0 && step == C(0);
  const C x = cast<C>(i);
  C v = div <= 0 ? C(x * delta) : divide_mode ? C(C(x / cdiv) * delta) : C(x * step);
  v = i == last ? stop : C(v + start);
  if constexpr (is_int_v<T> && !is_complex_v<C>) {
    return cast<T>(math::floor(cast<typename floor_arg<C>::type>(v)));
  } else {
    return cast<T>(v);
  }
}

// eye: 1 where column - row == k, for a matrix with `cols` columns.
template <class T>
ACCEL_HD T eye(int64_t i, int64_t cols, int64_t k) {
  return cast<T>(i % cols - i / cols == k);
}

// tri: 1 where column - row <= k, for a matrix with `cols` columns.
template <class T>
ACCEL_HD T tri(int64_t i, int64_t cols, int64_t k) {
  return cast<T>(i % cols - i / cols <= k);
}

}  // namespace accel::gen
