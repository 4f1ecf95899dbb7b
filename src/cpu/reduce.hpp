// Reduction groups on the CPU.
#pragma once

#include "src/core/group.hpp"

namespace accel::cpu {

void run_reduction(const Group& group);

}  // namespace accel::cpu
