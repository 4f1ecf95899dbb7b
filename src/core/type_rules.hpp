// Type rules: which dtype each elementwise op computes in and returns (NumPy 2, NEP 50).
#pragma once

#include <initializer_list>
#include <span>
#include <vector>

#include "accel/ops.hpp"
#include "src/core/graph.hpp"

namespace accel {

enum class ResultRule : uint8_t { Same, Bool, Real, Int32 };

inline constexpr uint32_t kIntsToDefaultFloat = 1;  // true_divide: integers compute in float64
inline constexpr uint32_t kInputsToBool = 2;        // logical_*: inputs are cast to bool
inline constexpr uint32_t kNoBool = 4;              // sign, positive: bool raises TypeError
inline constexpr uint32_t kHiddenInPython = 8;      // frexp's parts: `_name` in Python

struct ElementwiseRule {
  const char* name;
  int arity;
  DTypeSet inputs;
  ResultRule result;
  uint32_t flags;
};

// The row of elementwise_ops.def for `op`.
const ElementwiseRule& elementwise_rule(OpKind op);
// All rows, in table order, with their OpKind.
const std::vector<std::pair<OpKind, ElementwiseRule>>& elementwise_rules();

// NumPy's result_type over operands: arrays and typed scalars promote; Python scalars are weak.
// The operands of an elementwise op, in order (a span, so that callers pass {&a, &b} without
// allocating: this is on every op's dispatch path).
using OperandSpan = std::span<const ArrayOrScalar* const>;

DType result_type_of(OperandSpan operands);

// The dtype of a weak (Python) scalar of `kind` standing alone: bool, the default int (uint64
// for an int above INT64_MAX), the default float or the default complex.
DType weak_scalar_default_dtype(DTypeKind kind);
inline DType result_type_of(std::initializer_list<const ArrayOrScalar*> operands) {
  return result_type_of(OperandSpan(operands.begin(), operands.size()));
}

struct Resolution {
  DType compute;  // what the operands are converted to
  DType result;   // what the op returns
};
// The dtype a node computes in, once its operands are converted (resolve()'s `compute` for an
// elementwise op, whose front-end converts the operands to it; a cast's source dtype; a
// reduction's input dtype; a generator's or structural op's output dtype). Set on every Node at
// creation: backends choose their loops and kernels by it.
DType compute_dtype(OpKind op, DType result, const std::vector<Operand>& inputs);

// Resolves an op over its operands; TypeError when no loop accepts them.
Resolution resolve(OpKind op, OperandSpan operands);
inline Resolution resolve(OpKind op, std::initializer_list<const ArrayOrScalar*> operands) {
  return resolve(op, OperandSpan(operands.begin(), operands.size()));
}

}  // namespace accel
