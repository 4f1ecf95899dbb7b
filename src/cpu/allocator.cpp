#include "src/cpu/allocator.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "accel/errors.hpp"

namespace accel::cpu {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;

size_t size_class(size_t nbytes) { return (nbytes + kHugePage - 1) / kHugePage * kHugePage; }

// At most this many bytes stay cached: ACCELPY_CPU_CACHE_BYTES, else an eighth of the
// machine's memory capped at 4 GiB.
size_t cache_limit() {
  if (const char* v = std::getenv("ACCELPY_CPU_CACHE_BYTES")) return std::strtoull(v, nullptr, 10);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const size_t total = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t{8} << 30;
  return std::min(total / 8, size_t{4} << 30);
}

struct Cache {
  std::mutex mu;
  std::map<size_t, std::vector<void*>> free;  // size class -> blocks
  size_t cached = 0;
  const size_t limit = cache_limit();

  void* take(size_t cls) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = free.find(cls);
    if (it == free.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    cached -= cls;
    return p;
  }
  bool put(void* p, size_t cls) {
    std::lock_guard<std::mutex> lock(mu);
    if (cached + cls > limit) return false;
    free[cls].push_back(p);
    cached += cls;
    return true;
  }
  size_t clear() {
    std::lock_guard<std::mutex> lock(mu);
    for (auto& [cls, blocks] : free) {
      for (void* p : blocks) std::free(p);
    }
    free.clear();
    return std::exchange(cached, 0);
  }
};

Cache& cache() {
  static Cache* c = new Cache;  // leaked on purpose: arrays may be freed during interpreter exit
  return *c;
}

void* fresh_large(size_t cls) {
  void* p = std::aligned_alloc(kHugePage, cls);
  if (!p && cache().clear() > 0) p = std::aligned_alloc(kHugePage, cls);
  if (p) madvise(p, cls, MADV_HUGEPAGE);  // advisory; ignored where THP is off
  return p;
}

}  // namespace

void* host_allocate(size_t nbytes) {
  void* p;
  if (nbytes >= kLargeBlock) {
    const size_t cls = size_class(nbytes);
    p = cache().take(cls);
    if (!p) p = fresh_large(cls);
  } else {
    p = std::aligned_alloc(64, std::max<size_t>(64, (nbytes + 63) / 64 * 64));
  }
  if (!p) {
    throw OutOfMemoryError("out of host memory: could not allocate " + std::to_string(nbytes) +
                           " bytes");
  }
  return p;
}

void host_deallocate(void* ptr, size_t nbytes) {
  if (!ptr) return;
  if (nbytes >= kLargeBlock && cache().put(ptr, size_class(nbytes))) return;
  std::free(ptr);
}

size_t host_free_cache() { return cache().clear(); }

size_t host_cached_bytes() {
  std::lock_guard<std::mutex> lock(cache().mu);
  return cache().cached;
}

}  // namespace accel::cpu
