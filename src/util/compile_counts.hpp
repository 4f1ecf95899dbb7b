// Counts of kernel compilations and disk-cache hits, kept for every compiler (NVRTC for GPU
// kernels, the C++ compiler for users' kernels on the CPU) and reported by
// accel::cuda::kernel_cache_stats().
#pragma once

#include <cstdint>

namespace accel::util {

struct CompileCounts {
  uint64_t compiled = 0;   // compilations a caller waited for
  double compile_ms = 0;   // their total time
  uint64_t disk_hits = 0;  // images found in the disk cache instead
};

void record_compilation(double ms);
void record_disk_hit();
CompileCounts compile_counts();

}  // namespace accel::util
