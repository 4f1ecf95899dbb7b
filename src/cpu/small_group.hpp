// Groups of up to one block (kBlock elements, in any layout: the 0-d chains behind float(),
// bool() and assert, corner and edge updates of small grids, loop bodies over arrays of a few
// thousand elements or over views of them, such as a grid's interior, and their sums) run as an
// interpreter over the group's steps: each step's precompiled loop is called
// once over all the elements, without the block executor's layout analysis, program binding
// and thread dispatch, which cost more than the work itself at this size. The loops are the
// block executor's (program.cpp), and none depends on where an element lies in its block (tails
// run as padded vectors), so the results agree bit for bit.
#pragma once

#include "src/core/group.hpp"

namespace accel::cpu {

// Runs `group` (an elementwise group) if it is small enough; false (nothing done) otherwise.
bool run_small_group(const Group& group);

// Runs the elementwise steps [0, num_steps) of `group` (a reduction group whose last step
// reduces every axis) if it is small enough, and returns the values the last step reduces, in
// C order of the group's shape; nullptr (nothing done) otherwise. The values stay valid until
// the thread's next small group.
const char* run_small_reduction_values(const Group& group);

}  // namespace accel::cpu
