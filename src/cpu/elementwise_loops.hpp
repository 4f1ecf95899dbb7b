// Internal to the CPU elementwise loops: the loop table and how its rows are instantiated.
//
// Instantiating every functor of kernels/scalar_ops.h for every dtype is the slowest part of
// the build, so the rows are compiled in several translation units (elementwise_loops_*.cpp),
// one per part. A row's part follows from its columns in elementwise_ops.def, so a new row
// lands in a part without anyone listing it.
#pragma once

#include <array>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/scalar_ops.h"
#include "src/cpu/loops.hpp"

namespace accel::cpu::loops {

enum class Result { Same, Bool, Real, Int32 };

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
template <class T>
struct result_type<Result::Int32, T> {
  using type = int32_t;
};

constexpr int kNumOps = static_cast<int>(OpKind::Cast);  // the table rows plus Where
template <class Entry>
using PerOpDType = std::array<std::array<Entry, kNumDTypes>, kNumOps>;
struct Table {
  PerOpDType<LoopFn> arrays{};  // every operand an array of n values
  // Binary rows with one scalar operand, [0] for a scalar first operand and [1] for a scalar
  // second one: in[k] of that operand points to a single value, held in a register for the
  // whole loop instead of read from a buffer of copies. Null where the array loop computes
  // differently from the functor (vector_math.cpp), so both agree bit for bit.
  PerOpDType<std::array<LoopFn, 2>> scalar{};
};

enum class Part {
  Logic,     // results are bool: comparisons, logical ops, classification
  Integral,  // rows with integer loops: arithmetic, bitwise, rounding
  Floating,  // rows with only floating loops: the transcendental functions
};
constexpr Part part_of(DTypeSet inputs, Result result) {
  if (result == Result::Bool) return Part::Logic;
  return (inputs & dtypes::kIntegral) != 0 ? Part::Integral : Part::Floating;
}

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

template <class Op, class T, class R>
void binary_scalar_a_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const T a = *reinterpret_cast<const T*>(in[0]);
  const T* b = reinterpret_cast<const T*>(in[1]);
  R* o = reinterpret_cast<R*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = Op{}(a, b[i]);
}

template <class Op, class T, class R>
void binary_scalar_b_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const T* a = reinterpret_cast<const T*>(in[0]);
  const T b = *reinterpret_cast<const T*>(in[1]);
  R* o = reinterpret_cast<R*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = Op{}(a[i], b);
}

template <class Op, int Arity, DTypeSet Inputs, Result R>
void add_row(Table& table, OpKind op) {
  for_each_dtype([&](auto d) {
    constexpr DType D = decltype(d)::value;
    if constexpr (contains(Inputs, D)) {
      using T = dtype_t<D>;
      using Out = typename result_type<R, T>::type;
      const int row = static_cast<int>(op), col = static_cast<int>(D);
      if constexpr (Arity == 1) {
        table.arrays[row][col] = &unary_loop<Op, T, Out>;
      } else {
        table.arrays[row][col] = &binary_loop<Op, T, Out>;
        table.scalar[row][col] = {&binary_scalar_a_loop<Op, T, Out>,
                                  &binary_scalar_b_loop<Op, T, Out>};
      }
    }
  });
}

// Fills the rows of part P; each part is instantiated in its own translation unit.
template <Part P>
void add_part(Table& table) {
  using namespace dtypes;  // NOLINT: the masks named in the table
#define ACCEL_ELEMENTWISE(Name, name, arity, inputs, result, flags, ...)    \
  if constexpr (part_of(inputs, Result::result) == P) {                     \
    add_row<ops::Name, arity, inputs, Result::result>(table, OpKind::Name); \
  }
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
}

extern template void add_part<Part::Logic>(Table&);
extern template void add_part<Part::Integral>(Table&);
extern template void add_part<Part::Floating>(Table&);

}  // namespace accel::cpu::loops
