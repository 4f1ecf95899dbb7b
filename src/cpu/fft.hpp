// The CPU's FFTs: pocketfft (the library NumPy runs), batches split over the thread pool.
#pragma once

#include "src/core/backend_fft.hpp"

namespace accel::cpu {

FftBackend& cpu_fft();

}  // namespace accel::cpu
