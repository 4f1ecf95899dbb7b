// Casts between every pair of dtypes, and the generators (fill, arange, linspace, eye).
#include <array>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/generators.h"
#include "accel/kernels/random.h"
#include "src/cpu/loops.hpp"

namespace accel::cpu {

namespace {

template <class From, class To>
void cast_loop_impl(const char* const* in, char* out, int64_t n, const Node*) {
  To* o = reinterpret_cast<To*>(out);
  if constexpr (is_same_v<From, bool> && !is_same_v<To, bool>) {
    // Bytes, not bools: GCC vectorizes no loop loading bool (a mask's astype(int) ran one
    // element at a time). A byte other than 0 reads as True.
    const uint8_t* a = reinterpret_cast<const uint8_t*>(in[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = cast<To>(a[i] != 0);
  } else {
    const From* a = reinterpret_cast<const From*>(in[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = cast<To>(a[i]);
  }
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

// Random draws: each Philox block is computed once for the run of indices that read it (the
// common, contiguous case computes every block once). Operands: key, offset[, low, span].
template <class T, class FillBlock>
void random_loop(const int64_t* idx, T* o, int64_t n, uint64_t offset, FillBlock&& fill) {
  constexpr int L = rng::kLanes<T>;
  T values[L];
  uint64_t current = 0;
  bool have = false;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t j = uint64_t(idx[i]);
    const uint64_t block = offset + j / L;
    if (!have || block != current) {
      fill(block, values);
      current = block;
      have = true;
    }
    o[i] = values[j % L];
  }
}

template <class T>
void random_generator_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  T* o = reinterpret_cast<T*>(out);
  const uint64_t key = node->inputs[0].scalar.as<uint64_t>();
  const uint64_t offset = node->inputs[1].scalar.as<uint64_t>();
  switch (node->op) {
    case OpKind::RandomUniform:
      random_loop(idx, o, n, offset,
                  [&](uint64_t b, T* v) { rng::uniform_block<T>(rng::block_at(key, b), v); });
      break;
    case OpKind::RandomNormal:
      random_loop(idx, o, n, offset,
                  [&](uint64_t b, T* v) { rng::normal_block<T>(rng::block_at(key, b), v); });
      break;
    case OpKind::RandomExponential:
      random_loop(idx, o, n, offset,
                  [&](uint64_t b, T* v) { rng::exponential_block<T>(rng::block_at(key, b), v); });
      break;
    default:
      break;
  }
}

template <class T>
void random_integers_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const uint64_t key = node->inputs[0].scalar.as<uint64_t>();
  const uint64_t low = node->inputs[2].scalar.as<uint64_t>();
  const uint64_t span = node->inputs[3].scalar.as<uint64_t>();
  random_loop(reinterpret_cast<const int64_t*>(in[0]), reinterpret_cast<T*>(out), n,
              node->inputs[1].scalar.as<uint64_t>(), [&](uint64_t b, T* v) {
                rng::integers_block<T>(rng::block_at(key, b), key, b, low, span, v);
              });
}

template <class T>
void tri_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const int64_t cols = node->shape[1];
  const int64_t k = node->params.k;
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = gen::tri<T>(idx[i], cols, k);
}

template <class T>
void random_permutation_loop(const char* const* in, char* out, int64_t n, const Node* node) {
  const int64_t* idx = reinterpret_cast<const int64_t*>(in[0]);
  const uint64_t key = node->inputs[0].scalar.as<uint64_t>();
  const uint64_t block = node->inputs[1].scalar.as<uint64_t>();
  const uint64_t count = node->inputs[2].scalar.as<uint64_t>();
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = T(rng::permutation_at(idx[i], key, block, count));
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
      case OpKind::Tri:
        return &tri_loop<T>;
      case OpKind::RandomUniform:
      case OpKind::RandomNormal:
      case OpKind::RandomExponential:
        if constexpr (is_same_v<T, float> || is_same_v<T, double>) return &random_generator_loop<T>;
        return nullptr;
      case OpKind::RandomIntegers:
        if constexpr (is_int_v<T> || is_same_v<T, bool>) return &random_integers_loop<T>;
        return nullptr;
      case OpKind::RandomPermutation:
        if constexpr (is_same_v<T, int64_t>) return &random_permutation_loop<T>;
        return nullptr;
      default:
        return nullptr;
    }
  });
}

}  // namespace accel::cpu
