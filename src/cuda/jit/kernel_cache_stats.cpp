#include "src/cuda/jit/kernel_cache_stats.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>

#include "accel/cuda.hpp"
#include "src/cuda/jit/kernel_cache.hpp"
#include "src/cuda/jit/kernel_upgrades.hpp"
#include "src/util/disk_cache.hpp"

namespace accel::cuda {

namespace {

struct Stats {
  std::mutex mutex;
  KernelCacheStats s;
  std::atomic<uint64_t> memory_hits{0};  // the dispatch path: no lock
};
Stats& stats() {
  static Stats* st = new Stats;
  return *st;
}

}  // namespace

void record_compilation(double ms) {
  std::lock_guard<std::mutex> lock(stats().mutex);
  ++stats().s.compiled;
  stats().s.compile_ms += ms;
}

void record_disk_hit() {
  std::lock_guard<std::mutex> lock(stats().mutex);
  ++stats().s.disk_hits;
}

void record_memory_hit() { stats().memory_hits.fetch_add(1, std::memory_order_relaxed); }

KernelCacheStats kernel_cache_stats() {
  KernelCacheStats s;
  {
    std::lock_guard<std::mutex> lock(stats().mutex);
    s = stats().s;
  }
  s.memory_hits = stats().memory_hits.load(std::memory_order_relaxed);
  const UpgradeCounts u = upgrade_counts();
  s.upgrades_pending = u.pending;
  s.upgraded = u.done;
  s.upgrade_failures = u.failed;
  s.kernels = loaded_kernel_count();
  s.cache_dir = disk_cache().dir();
  return s;
}

bool wait_for_optimized_kernels(double timeout_s) { return wait_for_upgrades(timeout_s); }

}  // namespace accel::cuda
