// The loop table of every row of elementwise_ops.def, for every dtype the row supports, and of
// Where. The rows themselves are instantiated in elementwise_loops_*.cpp.
#include <string>

#include "accel/errors.hpp"
#include "src/cpu/elementwise_loops.hpp"
#include "src/cpu/vector_math.hpp"

namespace accel::cpu {

namespace {

using loops::Table;

template <class T>
void where_loop(const char* const* in, char* out, int64_t n, const Node*) {
  const bool* c = reinterpret_cast<const bool*>(in[0]);
  const T* a = reinterpret_cast<const T*>(in[1]);
  const T* b = reinterpret_cast<const T*>(in[2]);
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
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
