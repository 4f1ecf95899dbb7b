// The loop table of every row of elementwise_ops.def, for every dtype the row supports, and of
// Where. The rows themselves are instantiated in elementwise_loops_*.cpp.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "accel/errors.hpp"
#include "src/cpu/elementwise_loops.hpp"
#include "src/cpu/vector_math.hpp"

namespace accel::cpu {

namespace {

using loops::Table;

// The unsigned integer of an element's size (complex128 blends as two 8-byte words).
template <size_t kSize>
using BlendWord = std::conditional_t<
    kSize == 1, uint8_t,
    std::conditional_t<kSize == 2, uint16_t, std::conditional_t<kSize == 4, uint32_t, uint64_t>>>;

// where(c, a, b) without a branch per element: a mask that is true at random (the points of a
// Mandelbrot set still bounded, `N[I] = n`) mispredicts such a branch at every other element.
// Both operands are read and the chosen one's bits blended through an all-ones or all-zeros word,
// which is a copy of that element (NaN payloads and signed zeros included) and vectorizes.
template <class T>
void where_loop(const char* const* in, char* out, int64_t n, const Node*) {
  using W = BlendWord<(sizeof(T) < 8 ? sizeof(T) : 8)>;
  static_assert(sizeof(T) % sizeof(W) == 0);
  constexpr int64_t kWords = sizeof(T) / sizeof(W);
  const auto* c = reinterpret_cast<const unsigned char*>(in[0]);
  const char* a = in[1];
  const char* b = in[2];
  for (int64_t i = 0; i < n; ++i) {
    const W m = W(W(0) - W(c[i] != 0));
    for (int64_t k = 0; k < kWords; ++k) {
      W x, y;
      const int64_t at = (i * kWords + k) * int64_t(sizeof(W));
      std::memcpy(&x, a + at, sizeof(W));
      std::memcpy(&y, b + at, sizeof(W));
      const W r = W((x & m) | (y & W(~m)));
      std::memcpy(out + at, &r, sizeof(W));
    }
  }
}

Table build_table() {
  Table table{};
  loops::add_part<loops::Part::Logic>(table);
  loops::add_part<loops::Part::Integral>(table);
  loops::add_part<loops::Part::Floating>(table);
  for_each_dtype([&](auto d) {
    constexpr DType D = decltype(d)::value;
    table.arrays[static_cast<int>(OpKind::Where)][static_cast<int>(D)] = &where_loop<dtype_t<D>>;
  });
  add_vector_math_loops(table);
  add_exact_simd_loops(table);
  return table;
}

const Table& table() {
  static const Table t = build_table();
  return t;
}

}  // namespace

LoopFn elementwise_loop(OpKind op, DType compute) {
  const int row = static_cast<int>(op);
  return row < loops::kNumOps ? table().arrays[row][static_cast<int>(compute)] : nullptr;
}

LoopFn elementwise_scalar_loop(OpKind op, DType compute, int scalar_operand) {
  const int row = static_cast<int>(op);
  if (row >= loops::kNumOps || scalar_operand < 0 || scalar_operand > 1) return nullptr;
  return table().scalar[row][static_cast<int>(compute)][scalar_operand];
}

LoopFn step_loop(const Node& node) {
  LoopFn fn = nullptr;
  if (op_class(node.op) == OpClass::Generator) {
    fn = generator_loop(node.op, node.dtype);  // some have no inputs (eye, tri)
  } else if (op_class(node.op) == OpClass::Elementwise) {
    fn = node.op == OpKind::Cast ? cast_loop(node.compute, node.dtype)
                                 : elementwise_loop(node.op, node.compute);
  }
  if (!fn) {
    throw NotImplementedError(std::string("no CPU loop for ") + op_name(node.op) + " with output " +
                              std::string(dtype_name(node.dtype)));
  }
  return fn;
}

}  // namespace accel::cpu
