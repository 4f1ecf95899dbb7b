// FFTs on CUDA devices: cuFFT with a per-device plan cache.
#pragma once

#include "src/core/backend_fft.hpp"

namespace accel::cuda {

FftBackend& cuda_fft(int device);

}  // namespace accel::cuda
