// Small writes into computed CPU arrays, made at the call (a[i] = v, a[0, 1:-1] = b[1, 1:-1],
// and the store of an in-place operator on a small view).
//
// The evaluator's write (evaluate_into) builds a fill or cast node, plans it and runs the write
// barrier: for a few elements several times what the write costs. When nothing pending reads or
// writes the destination, the write is run at once as the one-step group the evaluator would
// make of it, on the CPU's step interpreter: the same loops, so the same bits, and the same
// floating-point error report. docs/subsystems/host-cost.md (seventh round) measures it.
#pragma once

#include "accel/array.hpp"
#include "accel/scalar.hpp"

namespace accel::eager {

// Writes `src` (an array of dst's shape: broadcast already) or, when src is null, `value` into
// dst now, when dst is on the CPU, computed, written by nothing pending, read by nothing pending,
// not shared with other storages, and small (eager::max_elements(), in any layout). A pending src
// is computed first. Returns false, having written nothing, otherwise.
bool try_assign(const Array& dst, const Array* src, const Scalar* value);

}  // namespace accel::eager
