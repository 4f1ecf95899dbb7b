// Elementwise groups over a few elements (scalars and short rows in Python loops: the 0-d
// chains behind float(), bool() and assert, corner and edge updates of small grids) run as an
// interpreter over the group's steps: each step's precompiled loop is called once over all the
// elements, without the block executor's layout analysis, buffer planning and thread dispatch,
// which cost several times the work itself at this size. The loops are the block executor's
// (program.cpp), so the results agree bit for bit.
#pragma once

#include "src/core/group.hpp"

namespace accel::cpu {

// Up to this many elements an elementwise group runs on the interpreter.
inline constexpr int64_t kSmallGroupElements = 64;

// Runs `group` (an elementwise group) if it is small enough; false (nothing done) otherwise.
bool run_small_group(const Group& group);

}  // namespace accel::cpu
