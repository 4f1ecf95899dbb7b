// A group that only copies one array into another of the same dtype (a concatenation's pieces,
// np.roll, copy(), slice assignment `a[1:-1, 1:-1] = b`) runs as a strided copy: each run along
// the layout's last dimension is one memmove where both sides are dense along it, else a typed
// loop. The block executor would gather a non-contiguous source into a buffer, copy it into a
// second buffer with the cast loop and scatter that element by element: three passes where one
// does. The copy is bit for bit the same-dtype cast loop's (a plain load and store).
#pragma once

#include "src/core/group.hpp"
#include "src/cpu/layout.hpp"

namespace accel::cpu {

// Runs `group` over `layout` (make_layout's) if it is a same-dtype copy; false (nothing done)
// otherwise. The caller keeps large copies, which it spreads over threads, for the executor.
bool run_copy_group(const Group& group, const Layout& layout);

}  // namespace accel::cpu
