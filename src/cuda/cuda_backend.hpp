// The CUDA backend (the core reaches it only through the Backend interface).
#pragma once

#include "src/core/backend.hpp"

namespace accel::cuda {

// The backend of device `index`; throws (with the reason) when it does not exist.
Backend& cuda_backend(int index);
// The bounds of the generated kernels (parameter block and layout, steps per group): every CUDA
// device's limits(); computed without a GPU.
const BackendLimits& kernel_limits();
// Registers cuda_backend() with the core (called by register_builtin_backends()).
void register_cuda_backend();

}  // namespace accel::cuda
