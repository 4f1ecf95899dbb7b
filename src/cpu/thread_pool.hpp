// A small persistent thread pool for splitting loops across cores.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace accel::cpu {

// Number of threads work is split over (ACCELPY_NUM_THREADS, else available_cpus()).
int num_threads();
void set_num_threads(int n);

// The CPUs this process may run on: its affinity mask, capped by a cgroup CPU quota (a container
// started with --cpus=4 on a 64-core host gets 4; more threads than that are throttled, not
// faster). At least 1.
int available_cpus();
// Whole CPUs (rounded up) of a cgroup quota given as cgroup v2's cpu.max ("150000 100000") or
// cgroup v1's "quota period" pair; 0 when unlimited ("max ...", a negative quota) or malformed.
int cpus_of_quota(const std::string& quota_period);

// Calls fn(begin, end, thread_index) over [0, n) split into at most num_threads() contiguous
// chunks (chunk boundaries are multiples of `grain`); runs inline when one chunk suffices.
// The first exception thrown by fn is rethrown here after every chunk has finished.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t, int)>& fn);

}  // namespace accel::cpu
