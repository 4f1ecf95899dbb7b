// The evaluator: plans the pending graph behind some storages into groups and runs them.
#pragma once

#include <vector>

#include "accel/array.hpp"
#include "accel/storage.hpp"

namespace accel {

// Computes every pending storage given, and everything they depend on, in one plan.
void evaluate_storages(const std::vector<Storage*>& targets);
void evaluate_storage(Storage* target);

// Writes `value` (dst's shape, any dtype) through the view `dst`, computing pending work
// straight into it where that is safe. A value whose result nobody else holds is never
// written to memory of its own: pass it by move.
void evaluate_into(const Array& dst, Array value);

// Whether the planner fuses elementwise chains (ACCELPY_FUSION=0 turns it off).
bool fusion_enabled();
void set_fusion_enabled(bool enabled);

}  // namespace accel
