// The CUDA backend's sorting, scans, selection, gathers and binary searches, through the CUB
// library (src/cuda/libraries/cub_library.hpp).
#pragma once

#include "src/core/backend_sort.hpp"

namespace accel::cuda {

SortScanOps& cuda_sort_scan(int device);

}  // namespace accel::cuda
