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

// first + i * delta in the step dtype, as NumPy's fill functions compute it; integers wrap
// instead of overflowing.
template <class T, class C>
ACCEL_HD T arange(int64_t i, C first, C delta) {
  if constexpr (is_int_v<C>) {
    return cast<T>(C(uint64_t(first) + uint64_t(i) * uint64_t(delta)));
  } else if constexpr (is_complex_v<C>) {
    return cast<T>(first + C(real_t<C>(i)) * delta);
  } else {
    return cast<T>(C(first + C(i) * delta));
  }
}

// linspace: i * step + start in float64 (complex128), or (i / div) * delta when the step
// underflowed to zero (divide_mode); element `last` is exactly `stop`; integer dtypes round
// toward -inf, as NumPy 2 does.
template <class T, class W>
ACCEL_HD T linspace(int64_t i, W start, W step, W stop, W delta, W div, bool divide_mode,
                    int64_t last) {
  const W x = W(double(i));
  const W v = i == last ? stop : (divide_mode ? (x / div) * delta : x * step) + start;
  if constexpr (is_int_v<T> || is_same_v<T, bool>) {
    return cast<T>(math::floor(v));
  } else {
    return cast<T>(v);
  }
}

// eye: 1 where column - row == k, for a matrix with `cols` columns.
template <class T>
ACCEL_HD T eye(int64_t i, int64_t cols, int64_t k) {
  return cast<T>(i % cols - i / cols == k);
}

}  // namespace accel::gen
