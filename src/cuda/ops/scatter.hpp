// The CUDA scatter-add (bincount, histogram): a grid-stride kernel of atomic adds.
#pragma once

#include "src/core/backend_scatter.hpp"

namespace accel::cuda {

ScatterBackend& cuda_scatter(int device);

}  // namespace accel::cuda
