// The lazy graph: nodes, their operands and parameters.
//
// Op front-ends (src/core/ops/) validate arguments eagerly and then create a Node; the node's
// output is a pending Storage. Nothing is computed until the evaluator (eval.cpp) runs a plan.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "accel/array.hpp"
#include "accel/scalar.hpp"
#include "accel/small_vector.hpp"
#include "accel/storage.hpp"

namespace accel {

// One enumerator per row of accel/elementwise_ops.def, then per row of graph_ops.def.
enum class OpKind : uint16_t {
#define ACCEL_ELEMENTWISE(Name, ...) Name,
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
#define ACCEL_GRAPH_OP(Name, ...) Name,
#include "src/core/graph_ops.def"
#undef ACCEL_GRAPH_OP
};

// What the tables say of every op (the columns are described in elementwise_ops.def).
enum class OpClass : uint8_t { Elementwise, Generator, Reduction, Other };
// The floating-point errors NumPy reports for the op.
enum class FpReport : uint8_t { NoFpe, Fpe, FpeDiv };
// How the CUDA code generator compiles a step: inlined (light) or as a called function.
enum class OpCost : uint8_t { Light, LightIfFloat, Heavy };
struct OpInfo {
  const char* name;
  OpClass cls;
  FpReport fp;
  OpCost cost;
};
const OpInfo& op_info(OpKind op);
inline OpClass op_class(OpKind op) { return op_info(op).cls; }
inline const char* op_name(OpKind op) { return op_info(op).name; }

// A scalar operand, already converted to the dtype the op computes in.
struct ScalarArg {
  DType dtype = DType::Bool;
  alignas(16) unsigned char bytes[16] = {};

  static ScalarArg of(const Scalar& value, DType dtype);
  template <class T>
  T as() const {
    return *reinterpret_cast<const T*>(bytes);
  }
};

struct Operand {
  Array array;  // defined for array operands
  ScalarArg scalar;

  Operand(Array a) : array(std::move(a)) {}  // NOLINT: implicit by design
  Operand(ScalarArg s) : scalar(s) {}        // NOLINT
  bool is_scalar() const { return !array.defined(); }
};

struct NodeParams {
  uint64_t axes = 0;  // reductions: bit i set when input dimension i is reduced
  double ddof = 0;    // Var
  int axis = 0;       // Concatenate
  int64_t k = 0;      // Eye: the diagonal
};

struct Node {
  OpKind op;
  DType dtype;    // of the output
  DType compute;  // what the op computes in (compute_dtype() in type_rules.hpp); backends read it
  Device device;
  Shape shape;      // of the output, at offset 0 of its storage
  Strides strides;  // of the output: C order, or the layout NumPy gives it (result_layout.hpp)
  std::vector<Operand> inputs;
  NodeParams params;
  int depth = 1;  // the longest chain of pending nodes that ends here
  // The pending storage this node computes; it owns the node. Null once computed.
  Storage* output = nullptr;
  // The computed storages this node reads, counted as memory pending work keeps alive
  // (pending_memory.cpp) until the node is computed or dropped.
  SmallVector<Storage*, 2> captured;

  // `strides`: the output's layout; null for C order (computed here: not twice).
  Node(OpKind op, DType dtype, Device device, Shape shape, std::vector<Operand> inputs,
       NodeParams params = {}, const Strides* strides = nullptr);
  ~Node();  // tears deep graphs down iteratively, never by deep recursion
};

// The longest pending chain allowed before its inputs are evaluated: keeps plans and kernels
// bounded in loops such as `for _ in range(n): b = b + 1`.
inline constexpr int kMaxPendingDepth = 64;

// Creates the node and returns its (pending) output; registers the node as a reader of every
// array operand's storage, for the write barrier. Small elementwise work over computed CPU
// arrays is computed at once instead, and its result returned computed (eager.hpp).
Array make_pending(OpKind op, DType dtype, Shape shape, Device device, std::vector<Operand> inputs,
                   NodeParams params = {});
// As make_pending, with the output laid out by `strides` (a permutation of C order's strides, as
// result_layout.hpp decides them) instead of C order.
Array make_pending_strided(OpKind op, DType dtype, Shape shape, Strides strides, Device device,
                           std::vector<Operand> inputs, NodeParams params = {});
// The node whose output the caller redirects into an existing view at once (evaluate_into): it
// must stay pending whatever make_pending decides (evaluating reads of memory its owner may
// write at the call is planned there: docs/decisions.md).
Array make_pending_lazy(OpKind op, DType dtype, Shape shape, Device device,
                        std::vector<Operand> inputs, NodeParams params = {});

}  // namespace accel
