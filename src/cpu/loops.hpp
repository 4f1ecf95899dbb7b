// Precompiled loops over contiguous buffers, one per (operation, dtype), instantiated from the
// functors of kernels/scalar_ops.h. The block executor (program.cpp) strings them together.
#pragma once

#include <cstdint>

#include "src/core/graph.hpp"

namespace accel::cpu {

// in: one pointer per array operand (scalars arrive as buffers of copies); out: the result;
// n: element count; node: the graph node, for parameters.
using LoopFn = void (*)(const char* const* in, char* out, int64_t n, const Node* node);

// The loop of an elementwise op (a row of elementwise_ops.def, or Where) computing in
// `compute`; null when the op has no loop for that dtype.
LoopFn elementwise_loop(OpKind op, DType compute);
// The loop of a binary row whose operand `scalar_operand` (0 or 1) is one value: in[k] of that
// operand points to it. Null when the row has none; the array loop then takes a buffer of copies.
LoopFn elementwise_scalar_loop(OpKind op, DType compute, int scalar_operand);
LoopFn cast_loop(DType from, DType to);
// Generators read int64 logical flat indices from in[0].
LoopFn generator_loop(OpKind op, DType out);

// The loop that computes `node` (an elementwise or generator node); NotImplementedError when
// there is none for its dtypes.
LoopFn step_loop(const Node& node);

}  // namespace accel::cpu
