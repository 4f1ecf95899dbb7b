// The per-thread lists of small blocks (include/accel/pool_allocator.hpp).
#include "accel/pool_allocator.hpp"

#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#define ACCEL_POOL_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACCEL_POOL_OFF 1
#endif
#endif

namespace accel::pool {

namespace {

constexpr size_t kClassBytes = 16;
constexpr size_t kClasses = kMaxBlockBytes / kClassBytes;

struct FreeBlock {
  FreeBlock* next;
};

// One thread's lists. Plain data (no constructor or destructor), so that reaching it is one
// thread-local lookup and no initialisation guard: these are taken on every lazy operation.
struct Lists {
  FreeBlock* head[kClasses];
  uint32_t count[kClasses];
  bool reaper_set;  // the thread's Reaper exists
  bool gone;        // the thread (or the process) is ending: blocks go to operator delete
};
thread_local Lists t_lists{};

// Empties the thread's lists when it ends; made when the thread first keeps a block.
struct Reaper {
  Reaper() = default;
  Reaper(const Reaper&) = delete;
  Reaper& operator=(const Reaper&) = delete;
  ~Reaper() {
    Lists& l = t_lists;
    l.gone = true;
    for (size_t c = 0; c < kClasses; ++c) {
      while (FreeBlock* b = l.head[c]) {
        l.head[c] = b->next;
        ::operator delete(b);
      }
      l.count[c] = 0;
    }
  }
  void touch() {}
};
thread_local Reaper t_reaper;

constexpr size_t class_of(size_t bytes) { return (bytes - 1) / kClassBytes; }

}  // namespace

void* allocate(size_t bytes) {
#ifndef ACCEL_POOL_OFF
  if (bytes != 0 && bytes <= kMaxBlockBytes) {
    const size_t c = class_of(bytes);
    Lists& l = t_lists;
    if (!l.gone) {
      if (FreeBlock* b = l.head[c]) {
        l.head[c] = b->next;
        --l.count[c];
        return b;
      }
    }
    // Every block of a class has the class's full size, whichever thread's list it joins
    // when it is freed.
    return ::operator new((c + 1) * kClassBytes);
  }
#endif
  return ::operator new(bytes);
}

void deallocate(void* p, [[maybe_unused]] size_t bytes) noexcept {
#ifndef ACCEL_POOL_OFF
  Lists& l = t_lists;
  if (bytes != 0 && bytes <= kMaxBlockBytes && !l.gone) {
    const size_t c = class_of(bytes);
    if (l.count[c] < kMaxFreeBlocks) {
      if (!l.reaper_set) {
        l.reaper_set = true;
        t_reaper.touch();
      }
      auto* b = static_cast<FreeBlock*>(p);
      b->next = l.head[c];
      l.head[c] = b;
      ++l.count[c];
      return;
    }
  }
#endif
  ::operator delete(p);
}

}  // namespace accel::pool
