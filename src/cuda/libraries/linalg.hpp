// Linear algebra on CUDA devices: cuSOLVER's dense 64-bit API.
#pragma once

#include "src/core/backend_linalg.hpp"

namespace accel::cuda {

LinalgBackend& cuda_linalg(int device);

}  // namespace accel::cuda
