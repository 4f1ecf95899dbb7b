// Elementwise operations (and full reductions) over small computed operands, computed at the call
// (on the CPU).
//
// A loop over small arrays pays, per operation, for a pending node, its storage and reader
// registration, and a share of the chain's planning and teardown: more than computing a few
// thousand elements costs. Such an operation is run at once instead, as the one-step group the
// planner would make of it with fusion off; fused and unfused results agree bit for bit, so the
// values are those of the lazy path. docs/subsystems/host-cost.md (sixth round) measures it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "src/core/graph.hpp"

namespace accel::eager {

// Largest result (in elements) computed at the call; 0 turns eager evaluation off. The default,
// one block of the CPU's executor, is where fusing starts to save passes over memory: below it
// a fused chain also runs one loop per step over all of its elements.
inline constexpr int64_t kDefaultMaxElements = 2048;
int64_t max_elements();
void set_max_elements(int64_t n);

// Computes the elementwise node (op, dtype, shape, strides, device, inputs, params) now when it
// is one of those: on the CPU, every array operand computed, at most max_elements() elements, in
// any layout (views of a grid, broadcast operands). A reduction over every axis of
// such an array (at most max_elements() of them) too: a loop that reads a sum each iteration
// would otherwise make its node and evaluate it at once. Otherwise returns nothing and leaves
// `inputs` as it was, for the pending node.
std::optional<Array> try_compute(OpKind op, DType dtype, const Shape& shape, const Strides* strides,
                                 Device device, std::vector<Operand>& inputs,
                                 const NodeParams& params);

}  // namespace accel::eager
