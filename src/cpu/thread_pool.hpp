// A small persistent thread pool for splitting loops across cores.
#pragma once

#include <cstdint>
#include <functional>

namespace accel::cpu {

// Number of threads work is split over (ACCELPY_NUM_THREADS, else the hardware's count).
int num_threads();
void set_num_threads(int n);

// Calls fn(begin, end, thread_index) over [0, n) split into at most num_threads() contiguous
// chunks (chunk boundaries are multiples of `grain`); runs inline when one chunk suffices.
// The first exception thrown by fn is rethrown here after every chunk has finished.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t, int)>& fn);

}  // namespace accel::cpu
