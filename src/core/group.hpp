// A Group is one kernel's worth of work, as the planner (planner.cpp) cuts the pending graph:
// elementwise steps over one iteration space, optionally ended by one reduction; a row group
// (reductions over the same axes and the elementwise work that reads their results broadcast
// back over the rows: softmax, layer norm); or a single node of another kind. Backends execute
// groups; they never walk the graph themselves.
#pragma once

#include <memory>
#include <vector>

#include "src/core/graph.hpp"

namespace accel {

struct StepArg {
  enum Kind : uint8_t { Input, Step, Scalar } kind;
  int index = 0;                      // Input: into Group::inputs; Step: into Group::steps
  const ScalarArg* scalar = nullptr;  // Scalar
};

struct Step {
  const Node* node;
  SmallVector<StepArg, 3> args;  // one per node operand, in order
  // Rows groups: the step computes one value per row (a reduction, or elementwise work over
  // the reductions' results); the others compute one value per element of the space.
  bool per_row = false;
};

struct GroupOutput {
  int step;    // the step whose result is written
  Array dest;  // where: the node's fresh contiguous storage, or a view for assignments
};

// What a backend keeps for one group of a cached plan (the CPU: its compiled block program),
// found again when the plan cache replays the plan. The core only carries it; the backend
// checks that what it kept still fits the group it is given before reusing it.
struct BackendSlot {
  std::shared_ptr<void> state;
};

struct Group {
  enum class Kind : uint8_t { Elementwise, Reduction, Rows, Single };
  Kind kind = Kind::Elementwise;
  Device device;
  // Elementwise and Reduction: the iteration space of the elementwise steps (for a reduction,
  // the shape of its input). Every Input array has exactly this shape (broadcast views).
  Shape shape;
  std::vector<Array> inputs;
  std::vector<Step> steps;  // in dependency order; a Reduction group's last step reduces
  std::vector<GroupOutput> outputs;
  // Rows groups (row_groups.cpp): every reduction step reduces the axes of this mask (bit d:
  // dimension d of `shape`); a row is one index of the other (kept) axes, and rows are numbered
  // in C order of the kept axes. Per-row steps have the reduction's result shape, with or
  // without the reduced axes as 1s; they read per-row values as laid out and per-element steps
  // read them broadcast over the reduced axes. An input read by per-row steps has their shape
  // (row_inputs[i] set), the others the group's shape. Outputs of per-row steps have the step's
  // shape.
  uint64_t row_axes = 0;
  std::vector<char> row_inputs;
  // The slot of this group in the plan cache's entry (null when the plan is not cached).
  std::shared_ptr<BackendSlot> slot = nullptr;
};

}  // namespace accel
