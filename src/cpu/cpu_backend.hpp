// The CPU backend (the core reaches it only through the Backend interface).
#pragma once

#include "src/core/backend.hpp"

namespace accel::cpu {

Backend& cpu_backend();
// Registers cpu_backend() with the core (called by register_builtin_backends()).
void register_cpu_backend();

// Runs an elementwise group over all cores (used by the backend and by structural ops).
void run_elementwise(const Group& group);

}  // namespace accel::cpu
