// The counts behind kernel_cache_stats() (accel/cuda.hpp): kernels compiled (and the time they
// took), found on disk and found in memory.
#pragma once

#include "src/util/compile_counts.hpp"

namespace accel::cuda {

// Counts a compilation (and its time) or a disk-cache hit (src/util: users' kernels on the CPU
// count theirs there too).
using util::record_compilation;
using util::record_disk_hit;
// The dispatch path: no lock.
void record_memory_hit();

}  // namespace accel::cuda
