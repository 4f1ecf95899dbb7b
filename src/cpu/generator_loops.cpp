// Casts between every pair of dtypes, and the generators (fill, arange, linspace, eye).
#include <array>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/scalar_ops.h"
#include "src/cpu/loops.hpp"

namespace accel::cpu {

namespace {

// floor() works on float and double: the 16-bit floats go through float (exactly).
template <class C>
using floor_arg_t = std::conditional_t<is_half_v<C>, float, C>;

template <class From, class To>
void cast_loop_impl(const char* const* in, char* out, int64_t n, const Node*) {
  const From* a = reinterpret_cast<const From*>(in[0]);
  To* o = reinterpret_cast<To*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = cast<To>(a[i]);
}

template <class T>
void fill_loop(const char* const*, char* out, int64_t n, const Node* node) {
  const T v = node->inputs[0].scalar.as<T>();
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = v;
}

// arange, as NumPy's fill functions: elements 0 and 1 are the stored start and start + step;
// element i >= 2 is first + i * (second - first), computed in float for the 16-bit floats, per
// component for complex, and wrapping for integers.
template <class T>
using arange_step_t =
    std::conditional_t<is_half_v<T>, float, std::conditional_t<is_same_v<T, bool>, int64_t, T>>;

template <class T>
void arange_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  using C = arange_step_t<T>;
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const T first = node->inputs[0].scalar.as<T>();
  const T second = node->inputs[1].scalar.as<T>();
  const C start = cast<C>(first);
  const C delta = ops::Subtract{}(cast<C>(second), start);
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = idx[i];
    if (k < 2) {
      o[i] = k == 0 ? first : second;
    } else if constexpr (is_int_v<C>) {
      o[i] = cast<T>(C(uint64_t(start) + uint64_t(k) * uint64_t(delta)));
    } else if constexpr (is_complex_v<C>) {
      using R = real_t<C>;
      o[i] = C(R(start.re + R(k) * delta.re), R(start.im + R(k) * delta.im));
    } else {
      o[i] = cast<T>(C(start + C(k) * delta));
    }
  }
}

// linspace in compute type C (the result type of start and stop): operands start, stop (in C)
// and div; params.k is the index that is exactly `stop`. See ops/creation.cpp.
template <class T, class C>
void linspace_fill(const int64_t* idx, T* o, int64_t n, const Node* node) {
  const C start = node->inputs[0].scalar.as<C>();
  const C stop = node->inputs[1].scalar.as<C>();
  const int64_t div = node->inputs[2].scalar.as<int64_t>();
  const C cdiv = cast<C>(div);
  const C delta = stop - start;
  const C step = div > 0 ? C(delta / cdiv) : C(0);
  const bool divide_mode = div > 0 && step == C(0);  // the step underflowed (denormal range)
  for (int64_t i = 0; i < n; ++i) {
    const C x = cast<C>(idx[i]);
    C v = div <= 0 ? C(x * delta) : divide_mode ? C(C(x / cdiv) * delta) : C(x * step);
    v = idx[i] == node->params.k ? stop : C(v + start);
    if constexpr (is_int_v<T> && !is_complex_v<C>) {
      o[i] = cast<T>(math::floor(cast<floor_arg_t<C>>(v)));
    } else {
      o[i] = cast<T>(v);
    }
  }
}

template <class T>
void linspace_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  T* o = reinterpret_cast<T*>(out);
  dispatch_dtype(node->inputs[0].scalar.dtype, [&](auto tag) {
    using C = typename decltype(tag)::type;
    if constexpr (is_float_v<C> || is_complex_v<C>) linspace_fill<T, C>(idx, o, n, node);
  });
}

template <class T>
void eye_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const int64_t cols = node->shape[1];
  const int64_t k = node->params.k;
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = cast<T>(idx[i] % cols - idx[i] / cols == k);
}

using CastTable = std::array<std::array<LoopFn, kNumDTypes>, kNumDTypes>;

CastTable build_casts() {
  CastTable t{};
  for_each_dtype([&](auto f) {
    for_each_dtype([&](auto d) {
      using From = dtype_t<decltype(f)::value>;
      using To = dtype_t<decltype(d)::value>;
      t[static_cast<int>(decltype(f)::value)][static_cast<int>(decltype(d)::value)] =
          &cast_loop_impl<From, To>;
    });
  });
  return t;
}

}  // namespace

LoopFn cast_loop(DType from, DType to) {
  static const CastTable table = build_casts();
  return table[static_cast<int>(from)][static_cast<int>(to)];
}

LoopFn generator_loop(OpKind op, DType out) {
  return dispatch_dtype(out, [&](auto tag) -> LoopFn {
    using T = typename decltype(tag)::type;
    switch (op) {
      case OpKind::Fill:
        return &fill_loop<T>;
      case OpKind::Arange:
        return &arange_loop<T>;
      case OpKind::Linspace:
        return &linspace_loop<T>;
      case OpKind::Eye:
        return &eye_loop<T>;
      default:
        return nullptr;
    }
  });
}

}  // namespace accel::cpu
