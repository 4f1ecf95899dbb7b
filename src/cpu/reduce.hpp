// Reduction groups on the CPU.
#pragma once

#include "src/core/group.hpp"

namespace accel::cpu {

void run_reduction(const Group& group);

// Whether the order in which the reduction group combines each output's values depends on how
// its outputs are split across threads (few long outputs, or few columns of many rows). When it
// does not, running the group over a slice of its kept axes gives the same bits per output.
bool reduction_order_depends_on_threads(const Group& group);

}  // namespace accel::cpu
