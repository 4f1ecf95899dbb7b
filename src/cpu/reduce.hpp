// Reduction groups on the CPU.
#pragma once

#include "src/core/group.hpp"

namespace accel::cpu {

void run_reduction(const Group& group);

// Copies `src` into `dst`, a view of the same shape and dtype laid out any way.
void copy_view(const Array& src, const Array& dst);

// Whether the order in which the reduction group combines each output's values depends on how
// its outputs are split across threads (few long outputs, or few columns of many rows). When it
// does not, running the group over a slice of its kept axes gives the same bits per output.
bool reduction_order_depends_on_threads(const Group& group);

}  // namespace accel::cpu
