// Matrix products on CUDA devices: cuBLAS (GemmEx / GemmStridedBatchedEx) for the floating and
// complex dtypes, a generated NVRTC kernel for integers and bool (which cuBLAS does not cover).
#pragma once

#include <string>

#include "src/core/backend_matmul.hpp"
#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

// Queues g on the device's current stream.
void gemm(DeviceContext& c, const Gemm& g);

// The CUDA C source of the integer/bool GEMM kernel for `dtype`, and its entry point's name
// (exposed so that the codegen test compiles it for every dtype without a GPU).
std::string integer_gemm_source(DType dtype, std::string& name);

}  // namespace accel::cuda
