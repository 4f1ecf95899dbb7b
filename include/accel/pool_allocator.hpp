// Small blocks from a per-thread free list: the allocator of the objects every lazy operation
// makes and every evaluation frees (its Node, the pending Storage and the Array's Impl, through
// std::allocate_shared, and a storage's short list of readers).
//
// A loop over small arrays builds a chain of up to 64 pending nodes and frees them all when the
// chain is evaluated; that burst overflows the C library's small per-thread cache (7 blocks a
// size), so most of these blocks took malloc's and free's slow paths (about 350 instructions a
// block, a quarter of an operation's host cost). Here a block is a push or a pop on a list of
// its size class. A block may be freed on another thread than the one that allocated it: it
// joins the freeing thread's list. Each list keeps at most kMaxFreeBlocks blocks and gives the
// rest back to operator delete; a thread's lists are emptied when it ends. Under
// AddressSanitizer every block comes from operator new, so that use after free stays visible.
#pragma once

#include <cstddef>
#include <new>

namespace accel::pool {

// Blocks up to this size (bytes) come from the lists, in classes of 16 bytes.
inline constexpr size_t kMaxBlockBytes = 512;
// Blocks kept per size class and thread; the rest go back to operator delete.
inline constexpr size_t kMaxFreeBlocks = 512;

void* allocate(size_t bytes);
void deallocate(void* p, size_t bytes) noexcept;

// A standard allocator over the lists (for std::allocate_shared and containers).
template <class T>
struct Allocator {
  using value_type = T;
  Allocator() noexcept = default;
  template <class U>
  Allocator(const Allocator<U>&) noexcept {}  // NOLINT: rebinding is implicit by design

  T* allocate(size_t n) {
    static_assert(alignof(T) <= 16, "the lists hand out 16-byte-aligned blocks");
    return static_cast<T*>(pool::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept { pool::deallocate(p, n * sizeof(T)); }

  template <class U>
  bool operator==(const Allocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace accel::pool
