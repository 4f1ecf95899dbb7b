// Type rules: which dtype each elementwise op computes in and returns (NumPy 2, NEP 50).
#pragma once

#include <vector>

#include "accel/ops.hpp"
#include "src/core/graph.hpp"

namespace accel {

enum class ResultRule : uint8_t { Same, Bool, Real };

inline constexpr uint32_t kIntsToDefaultFloat = 1;  // true_divide: integers compute in float64
inline constexpr uint32_t kInputsToBool = 2;        // logical_*: inputs are cast to bool
inline constexpr uint32_t kNoBool = 4;              // sign, positive: bool raises TypeError

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
DType result_type_of(const std::vector<const ArrayOrScalar*>& operands);

struct Resolution {
  DType compute;  // what the operands are converted to
  DType result;   // what the op returns
};
// Resolves an op over its operands; TypeError when no loop accepts them.
Resolution resolve(OpKind op, const std::vector<const ArrayOrScalar*>& operands);

}  // namespace accel
