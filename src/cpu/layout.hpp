// The iteration space a CPU group runs over: the group's shape with its dimensions in the order
// the caller chooses (the first output's memory order, or the reduction's order) and neighbours
// that every operand walks as one merged, so that the block executor (program.hpp) and the copy
// group (copy_group.hpp) walk the fewest, longest runs.
#pragma once

#include <vector>

#include "src/core/group.hpp"

namespace accel::cpu {

// The layout of the iteration space: a shape, and for each operand its strides in elements
// over that shape. The linear index walks the shape in C order.
struct Layout {
  Shape shape;
  std::vector<Strides> inputs;   // one per Group::inputs
  std::vector<Strides> outputs;  // one per Group::outputs
  Strides index;                 // maps to the logical C-order flat index (for generators)
};

// Reorders dimensions by `perm` and merges neighbours that every operand can walk as one.
Layout make_layout(const Group& group, const std::vector<int>& perm);

}  // namespace accel::cpu
