// Casts between every pair of dtypes, and the generators (fill, arange, linspace, eye).
#include <array>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/scalar_ops.h"
#include "src/cpu/loops.hpp"

namespace accel::cpu {

namespace {

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

// arange: first + i * delta in the step dtype (float for the 16-bit floats), as NumPy's fill
// functions compute it; integers wrap instead of overflowing.
template <class T>
using arange_step_t =
    std::conditional_t<is_half_v<T>, float, std::conditional_t<is_same_v<T, bool>, int64_t, T>>;

template <class T>
void arange_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  using C = arange_step_t<T>;
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const C first = node->inputs[0].scalar.as<C>();
  const C delta = node->inputs[1].scalar.as<C>();
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (is_int_v<C>) {
      o[i] = cast<T>(C(uint64_t(first) + uint64_t(idx[i]) * uint64_t(delta)));
    } else if constexpr (is_complex_v<C>) {
      o[i] = cast<T>(first + C(real_t<C>(idx[i])) * delta);
    } else {
      o[i] = cast<T>(C(first + C(idx[i]) * delta));
    }
  }
}

// linspace: i * step + start in float64 (complex128), or (i / div) * delta when the step
// underflowed to zero; the last element is exactly `stop` when included; integer dtypes
// round toward -inf, as NumPy 2 does. Operands: start, step, stop, delta, div.
template <class T>
void linspace_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  using W = std::conditional_t<is_complex_v<T>, complex128, double>;
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const W start = node->inputs[0].scalar.as<W>();
  const W step = node->inputs[1].scalar.as<W>();
  const W stop = node->inputs[2].scalar.as<W>();
  const W delta = node->inputs[3].scalar.as<W>();
  const W div = node->inputs[4].scalar.as<W>();
  const bool divide_mode = node->params.axis == 1;
  const int64_t last = node->params.k;
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) {
    const W x = W(double(idx[i]));
    const W v = idx[i] == last ? stop : (divide_mode ? (x / div) * delta : x * step) + start;
    if constexpr (is_int_v<T> || is_same_v<T, bool>) {
      o[i] = cast<T>(math::floor(v));
    } else {
      o[i] = cast<T>(v);
    }
  }
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
