// Loops for every row of elementwise_ops.def, for every dtype the row supports.
#include <array>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/scalar_ops.h"
#include "src/cpu/loops.hpp"

namespace accel::cpu {

namespace {

enum class Result { Same, Bool, Real };

template <Result R, class T>
struct result_type {
  using type = T;
};
template <class T>
struct result_type<Result::Bool, T> {
  using type = bool;
};
template <class T>
struct result_type<Result::Real, T> {
  using type = real_t<T>;
};

template <class Op, class T, class R>
void unary_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const T* a = reinterpret_cast<const T*>(in[0]);
  R* o = reinterpret_cast<R*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = Op{}(a[i]);
}

template <class Op, class T, class R>
void binary_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const T* a = reinterpret_cast<const T*>(in[0]);
  const T* b = reinterpret_cast<const T*>(in[1]);
  R* o = reinterpret_cast<R*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = Op{}(a[i], b[i]);
}

template <class T>
void where_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const bool* c = reinterpret_cast<const bool*>(in[0]);
  const T* a = reinterpret_cast<const T*>(in[1]);
  const T* b = reinterpret_cast<const T*>(in[2]);
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
}

constexpr int kNumOps = static_cast<int>(OpKind::Cast);  // the table rows plus Where
using Table = std::array<std::array<LoopFn, kNumDTypes>, kNumOps>;

template <class Op, int Arity, DTypeSet Inputs, Result R>
void add_row(Table& table, OpKind op) {
  for_each_dtype([&](auto d) {
    constexpr DType D = decltype(d)::value;
    if constexpr (contains(Inputs, D)) {
      using T = dtype_t<D>;
      using Out = typename result_type<R, T>::type;
      LoopFn fn;
      if constexpr (Arity == 1) {
        fn = &unary_loop<Op, T, Out>;
      } else {
        fn = &binary_loop<Op, T, Out>;
      }
      table[static_cast<int>(op)][static_cast<int>(D)] = fn;
    }
  });
}

Table build_table() {
  Table table{};
  using namespace dtypes;  // NOLINT: the masks named in the table
#define ACCEL_ELEMENTWISE(Name, name, arity, inputs, result, flags) \
  add_row<ops::Name, arity, inputs, Result::result>(table, OpKind::Name);
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
  for_each_dtype([&](auto d) {
    constexpr DType D = decltype(d)::value;
    table[static_cast<int>(OpKind::Where)][static_cast<int>(D)] = &where_loop<dtype_t<D>>;
  });
  return table;
}

}  // namespace

LoopFn elementwise_loop(OpKind op, DType compute) {
  static const Table table = build_table();
  const int row = static_cast<int>(op);
  return row < kNumOps ? table[row][static_cast<int>(compute)] : nullptr;
}

}  // namespace accel::cpu
