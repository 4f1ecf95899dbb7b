// Helpers shared by the op front-ends.
#pragma once

#include <vector>

#include "accel/ops.hpp"
#include "src/core/graph.hpp"
#include "src/core/type_rules.hpp"

namespace accel {

// The generic elementwise front-end: resolves dtypes (type_rules.hpp), broadcasts, converts
// operands, and returns the pending result.
Array elementwise(OpKind op, OperandSpan operands);
inline Array elementwise(OpKind op, std::initializer_list<const ArrayOrScalar*> operands) {
  return elementwise(op, OperandSpan(operands.begin(), operands.size()));
}

// The device all array operands share (the default device when there are none); ValueError
// naming both devices when they differ.
Device common_device(OperandSpan operands);
Device common_device(const std::vector<Array>& arrays);

// A lazy conversion (no node when the dtype already matches).
Array cast_to(const Array& a, DType dtype);
// `a` converted to `dtype` and laid out with exactly `strides` (the layout NumPy gives the
// result being made, result_layout.hpp): `a` itself when it already is, else a lazy copy.
Array with_strides(const Array& a, DType dtype, const Strides& strides);
// A view of `a` broadcast to `shape` (already known to be compatible).
Array broadcast_view(const Array& a, const Shape& shape);
// A copy of a scalar in `dtype`, checking that Python integers fit integer dtypes.
ScalarArg scalar_arg(const Scalar& s, DType dtype);

}  // namespace accel
