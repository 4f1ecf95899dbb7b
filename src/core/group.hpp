// A Group is one kernel's worth of work, as the planner (planner.cpp) cuts the pending graph:
// elementwise steps over one iteration space, optionally ended by one reduction, or a single
// node of another kind. Backends execute groups; they never walk the graph themselves.
#pragma once

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
};

struct GroupOutput {
  int step;    // the step whose result is written
  Array dest;  // where: the node's fresh contiguous storage, or a view for assignments
};

struct Group {
  enum class Kind : uint8_t { Elementwise, Reduction, Single };
  Kind kind = Kind::Elementwise;
  Device device;
  // Elementwise and Reduction: the iteration space of the elementwise steps (for a reduction,
  // the shape of its input). Every Input array has exactly this shape (broadcast views).
  Shape shape;
  std::vector<Array> inputs;
  std::vector<Step> steps;  // in dependency order; a Reduction group's last step reduces
  std::vector<GroupOutput> outputs;
};

}  // namespace accel
