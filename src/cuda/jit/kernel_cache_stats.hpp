// The counts behind kernel_cache_stats() (accel/cuda.hpp): kernels compiled (and the time they
// took), found on disk and found in memory.
#pragma once

namespace accel::cuda {

// Counts a compilation (and its time) or a disk-cache hit; users' kernels, compiled outside
// the kernel cache, count theirs too.
void record_compilation(double ms);
void record_disk_hit();
// The dispatch path: no lock.
void record_memory_hit();

}  // namespace accel::cuda
