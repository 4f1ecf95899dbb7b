// The CUDA backend's gathers, scatters and selection (src/core/backend_indexing.hpp).
#pragma once

#include "src/core/backend_indexing.hpp"

namespace accel::cuda {

IndexingBackend& cuda_indexing(int device);

}  // namespace accel::cuda
