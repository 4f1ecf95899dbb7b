#include "src/cuda/jit/kernel_cache_stats.hpp"

#include <atomic>
#include <cstdint>

#include "accel/cuda.hpp"
#include "src/cuda/jit/kernel_cache.hpp"
#include "src/cuda/jit/kernel_upgrades.hpp"
#include "src/util/disk_cache.hpp"

namespace accel::cuda {

namespace {

// The dispatch path counts memory hits without a lock.
std::atomic<uint64_t>& memory_hits() {
  static auto* n = new std::atomic<uint64_t>(0);
  return *n;
}

}  // namespace

void record_memory_hit() { memory_hits().fetch_add(1, std::memory_order_relaxed); }

KernelCacheStats kernel_cache_stats() {
  KernelCacheStats s;
  const util::CompileCounts c = util::compile_counts();
  s.compiled = c.compiled;
  s.compile_ms = c.compile_ms;
  s.disk_hits = c.disk_hits;
  s.memory_hits = memory_hits().load(std::memory_order_relaxed);
  const UpgradeCounts u = upgrade_counts();
  s.upgrades_pending = u.pending;
  s.upgraded = u.done;
  s.upgrade_failures = u.failed;
  s.kernels = loaded_kernel_count();
  s.cache_dir = util::disk_cache().dir();
  return s;
}

bool wait_for_optimized_kernels(double timeout_s) { return wait_for_upgrades(timeout_s); }

}  // namespace accel::cuda
