// Casts between every pair of dtypes, and the generators (fill, arange, linspace, eye).
#include <array>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/generators.h"
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

// The generators' semantics are in kernels/generators.h, shared with the CUDA backend.
template <class T>
void arange_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const T first = node->inputs[0].scalar.as<T>();
  const T second = node->inputs[1].scalar.as<T>();
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = gen::arange<T>(idx[i], first, second);
}

// Operands: start and stop in the compute type (their dtype), and div (int64); params.k is the
// index that is exactly `stop`. See ops/creation.cpp.
template <class T>
void linspace_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  T* o = reinterpret_cast<T*>(out);
  dispatch_dtype(node->inputs[0].scalar.dtype, [&](auto tag) {
    using C = typename decltype(tag)::type;
    if constexpr (is_float_v<C> || is_complex_v<C>) {
      const C start = node->inputs[0].scalar.as<C>();
      const C stop = node->inputs[1].scalar.as<C>();
      const int64_t div = node->inputs[2].scalar.as<int64_t>();
      for (int64_t i = 0; i < n; ++i)
        o[i] = gen::linspace<T>(idx[i], start, stop, div, node->params.k);
    }
  });
}

template <class T>
void eye_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const int64_t cols = node->shape[1];
  const int64_t k = node->params.k;
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = gen::eye<T>(idx[i], cols, k);
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
