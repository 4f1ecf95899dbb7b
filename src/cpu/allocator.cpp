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

#if defined(__SANITIZE_ADDRESS__)
#define ACCEL_HOST_CACHE_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACCEL_HOST_CACHE_OFF 1
#endif
#endif

namespace accel::cpu {

namespace {

#ifndef ACCEL_HOST_CACHE_OFF
// Small blocks: a per-thread list per size class. A loop over arrays of a few thousand
// elements frees a result and asks for one of the same size at every evaluation; malloc serves
// such a request (above its fast bins, 64-byte aligned) by consolidating its fast bins and
// splitting an aligned chunk first: a tenth of a one-operation evaluation's time at 1,000
// float32 elements. Classes are 4 per power of two from 64 bytes (at most a quarter wasted).
constexpr size_t kSmallCachedMax = size_t{64} << 10;
constexpr size_t kSmallPerClass = 8;                   // blocks kept per class and thread
constexpr size_t kSmallThreadBytes = size_t{1} << 20;  // bytes kept per thread
constexpr int kSmallClasses = 4 * 11;                  // 64 B (2^6) .. 64 KiB (2^16)

// The class of a request of `nbytes` (1 <= nbytes <= kSmallCachedMax) and its block size.
int small_class(size_t nbytes, size_t& block) {
  if (nbytes <= 64) {
    block = 64;
    return 0;
  }
  const int top = 63 - __builtin_clzll(uint64_t(nbytes - 1));  // 2^top < nbytes <= 2^(top+1)
  const size_t quarter = size_t{1} << (top - 2);
  const size_t steps = (nbytes - 1 - (size_t{1} << top)) / quarter;  // 0..3
  block = (size_t{1} << top) + (steps + 1) * quarter;
  return (top - 6) * 4 + int(steps) + 1;
}

struct SmallBlock {
  SmallBlock* next;
};

// One thread's lists; plain data, so that reaching it is one thread-local lookup.
struct SmallLists {
  SmallBlock* head[kSmallClasses + 1];
  uint8_t count[kSmallClasses + 1];
  size_t bytes;
  bool reaper_set;
  bool gone;  // the thread is ending: blocks go back to free()
};
thread_local SmallLists t_small{};

void empty_small_lists() {
  SmallLists& l = t_small;
  for (int c = 0; c <= kSmallClasses; ++c) {
    while (SmallBlock* b = l.head[c]) {
      l.head[c] = b->next;
      std::free(b);
    }
    l.count[c] = 0;
  }
  l.bytes = 0;
}

struct SmallReaper {
  SmallReaper() = default;
  SmallReaper(const SmallReaper&) = delete;
  SmallReaper& operator=(const SmallReaper&) = delete;
  ~SmallReaper() {
    t_small.gone = true;
    empty_small_lists();
  }
  void touch() {}
};
thread_local SmallReaper t_small_reaper;

void* small_take(size_t nbytes) {
  size_t block;
  const int c = small_class(nbytes, block);
  SmallLists& l = t_small;
  if (SmallBlock* b = l.head[c]) {
    l.head[c] = b->next;
    --l.count[c];
    l.bytes -= block;
    return b;
  }
  return std::aligned_alloc(64, block);
}

void small_put(void* p, size_t nbytes) {
  size_t block;
  const int c = small_class(nbytes, block);
  SmallLists& l = t_small;
  if (l.gone || l.count[c] >= kSmallPerClass || l.bytes + block > kSmallThreadBytes) {
    std::free(p);
    return;
  }
  if (!l.reaper_set) {
    l.reaper_set = true;
    t_small_reaper.touch();
  }
  auto* b = static_cast<SmallBlock*>(p);
  b->next = l.head[c];
  l.head[c] = b;
  ++l.count[c];
  l.bytes += block;
}
#endif  // ACCEL_HOST_CACHE_OFF

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

#ifndef ACCEL_HOST_CACHE_OFF
// Medium blocks (above the small lists, below kLargeBlock) are kept in the same cache, in
// classes of 4 per power of two (at most a quarter wasted). malloc serves them from the heap
// (past its dynamic mmap threshold) and gives the top of the heap back to the system when a
// loop frees its arrays at the end of a step (the trim threshold), so every step of a loop
// over arrays of 64K int64 faulted its pages in again.
size_t medium_class(size_t nbytes) {
  size_t block;
  small_class(nbytes, block);
  return block;
}
#endif

}  // namespace

void* host_allocate(size_t nbytes) {
  void* p;
  if (nbytes >= kLargeBlock) {
    const size_t cls = size_class(nbytes);
    p = cache().take(cls);
    if (!p) p = fresh_large(cls);
  } else {
#ifndef ACCEL_HOST_CACHE_OFF
    if (nbytes <= kSmallCachedMax) {
      p = small_take(std::max<size_t>(nbytes, 1));
    } else {
      const size_t cls = medium_class(nbytes);
      p = cache().take(cls);
      if (!p) p = std::aligned_alloc(64, cls);
      if (!p && cache().clear() > 0) p = std::aligned_alloc(64, cls);
    }
#else
    p = std::aligned_alloc(64, std::max<size_t>(64, (nbytes + 63) / 64 * 64));
#endif
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
#ifndef ACCEL_HOST_CACHE_OFF
  if (nbytes <= kSmallCachedMax) return small_put(ptr, std::max<size_t>(nbytes, 1));
  if (nbytes < kLargeBlock && cache().put(ptr, medium_class(nbytes))) return;
#endif
  std::free(ptr);
}

size_t host_free_cache() {
#ifndef ACCEL_HOST_CACHE_OFF
  const size_t small = t_small.bytes;
  empty_small_lists();
#else
  const size_t small = 0;
#endif
  return cache().clear() + small;
}

size_t host_cached_bytes() {
  std::lock_guard<std::mutex> lock(cache().mu);
  return cache().cached;
}

}  // namespace accel::cpu
