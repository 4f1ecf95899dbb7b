// Host memory for CPU arrays.
//
// Large blocks are the expensive ones: fresh pages fault in one at a time and the kernel zeroes
// each (for a 64 MiB result that is ~16K faults, several milliseconds, more than the arithmetic
// itself). So blocks of at least kLargeBlock bytes are 2 MiB-aligned, asked to be backed by
// transparent huge pages, and kept after they are freed, up to a cap, for the next array of
// the same size class. Blocks up to 64 KiB are kept on short per-thread lists by size class
// (allocator.cpp says why); the rest go to malloc.
#pragma once

#include <cstddef>

namespace accel::cpu {

inline constexpr size_t kLargeBlock = size_t{1} << 20;

void* host_allocate(size_t nbytes);
void host_deallocate(void* ptr, size_t nbytes);

// Returns cached blocks to the system; returns how many bytes were released.
size_t host_free_cache();
// Bytes currently held in the cache (freed by arrays, not yet reused or released).
size_t host_cached_bytes();

}  // namespace accel::cpu
