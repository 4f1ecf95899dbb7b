// Accounting of the memory pending work keeps alive (see pending_memory.cpp).
#pragma once

#include <cstdint>
#include <span>

#include "src/core/graph.hpp"

namespace accel::pending {

// Counts the computed storages a new node reads (make_pending), and releases them when the node
// is computed or dropped (~Node).
void capture(Node& node);
void release(Node& node);
// A storage just computed that pending nodes still read (a reduction's input evaluated early,
// before the reduction): counted for each of them, as if it had been computed when they were
// made. Without this the memory is held but invisible to the bound.
void capture_computed(Storage& storage);

// Before a node with these operands is made: when computed arrays that only pending work holds
// exceed max_pending_bytes(), evaluates the pending work holding them.
void enforce(std::span<const Operand> inputs);

// How often enforce() evaluated early (since the last reset).
uint64_t early_evaluations();
void reset_early_evaluations();

}  // namespace accel::pending
