// Rows groups on the CPU (group.hpp): reductions and the elementwise work that reads their
// results broadcast back over the rows, one block of rows at a time.
#pragma once

#include "src/core/group.hpp"

namespace accel::cpu {

void run_rows(const Group& group);

}  // namespace accel::cpu
