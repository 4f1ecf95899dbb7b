// Stream-ordered allocation (cuMemAllocFromPoolAsync / cuMemFreeAsync) from each device's
// default pool. The pool's release threshold is set to "never", so freed memory stays cached in
// the pool and the next allocation of a similar size costs no device round trip; free_cache()
// or an out-of-memory retry trims it.
//
// Small blocks (up to 1 MiB) freed on the device's default stream are also kept here, by
// power-of-two size class, and handed to the next allocation of that class on the default
// stream: the driver calls cost about 1 us each per allocation and free on an H100, a large
// part of a one-element operation's 9 us dispatch. Reuse on the same stream is ordered after
// every earlier use of the block, as the pool's own reuse is. Blocks freed on other streams, and
// large ones, go back to the pool at once. At most kSmallCacheBytes are kept per device;
// free_cache() and an out-of-memory retry return them; ACCELPY_CUDA_SMALL_BLOCK_CACHE=0 turns
// the cache off (every allocation then reaches the driver).
#include "src/cuda/driver/allocator.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "accel/errors.hpp"

namespace accel::cuda {

namespace {

constexpr int kSmallClasses = 12;  // 512 B, 1 KiB, ..., 1 MiB

// A device's allocator state (one per device, never destroyed: arrays may be freed at exit).
struct DeviceMemory {
  api::CUmemoryPool pool = nullptr;  // the device's default pool
  std::mutex mutex;                  // guards everything below but the counters
  size_t allocated = 0, peak = 0, limit = 0;
  uint64_t allocations = 0, frees = 0, oom_retries = 0;
  // The small-block cache: blocks freed on the default stream, by size class.
  std::vector<void*> small_blocks[kSmallClasses];
  size_t small_cached_bytes = 0;
  bool small_cache_enabled = true;

  // The counts of split reductions, one set per stream that ran one.
  struct StreamCounters {
    api::CUstream stream;
    unsigned* ptr;
    size_t n;
  };
  std::mutex counters_mutex;
  std::vector<StreamCounters> counters;
};

DeviceMemory& memory_of(const DeviceContext& c) {
  static DeviceMemory* all = new DeviceMemory[kMaxDevices];
  return all[c.index];
}

size_t parse_bytes(const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  double scale = 1;
  if (end && *end) {
    switch (std::toupper(static_cast<unsigned char>(*end))) {
      case 'K':
        scale = 1024.0;
        break;
      case 'M':
        scale = 1024.0 * 1024;
        break;
      case 'G':
        scale = 1024.0 * 1024 * 1024;
        break;
      default:
        throw ValueError(std::string("ACCELPY_CUDA_MEMORY_LIMIT: cannot parse '") + text +
                         "' (expected bytes, optionally with a K, M or G suffix)");
    }
  }
  if (!(v >= 0)) throw ValueError(std::string("ACCELPY_CUDA_MEMORY_LIMIT: invalid '") + text + "'");
  return static_cast<size_t>(v * scale);
}

std::string mib(size_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes / (1024 * 1024)) + " MiB)";
}

[[noreturn]] void out_of_memory(DeviceContext& c, size_t nbytes, const std::string& why) {
  const DeviceMemory& m = memory_of(c);
  size_t free = 0, total = 0;
  drv().cuMemGetInfo(&free, &total);
  throw OutOfMemoryError("CUDA out of memory on cuda:" + std::to_string(c.index) + " allocating " +
                         mib(nbytes) + ": " + why + "; device free " + mib(free) + " of " +
                         mib(total) + ", in use by accelpy arrays " + mib(m.allocated));
}

constexpr size_t kSmallMinBytes = 512;
constexpr size_t kSmallMaxBytes = kSmallMinBytes << (kSmallClasses - 1);  // 1 MiB
constexpr size_t kSmallCacheBytes = 64u << 20;

// The size class of a small block (bytes <= kSmallMaxBytes), and the bytes its blocks have.
int small_class(size_t bytes) {
  int k = 0;
  while ((kSmallMinBytes << k) < bytes) ++k;
  return k;
}
size_t class_bytes(int k) { return kSmallMinBytes << k; }

// Returns every cached small block to the pool (in stream order on the default stream).
// m.mutex held.
void release_small_blocks(const DeviceContext& c, DeviceMemory& m, const Driver& d) {
  for (std::vector<void*>& list : m.small_blocks) {
    for (void* p : list) {
      d.cuMemFreeAsync(reinterpret_cast<api::CUdeviceptr>(p), c.default_stream);
    }
    list.clear();
  }
  m.small_cached_bytes = 0;
}

}  // namespace

void init_pool(DeviceContext& c) {
  DeviceMemory& m = memory_of(c);
  const Driver& d = drv();
  check(d.cuDeviceGetDefaultMemPool(&m.pool, c.dev), "cuDeviceGetDefaultMemPool", c.index);
  uint64_t threshold = std::numeric_limits<uint64_t>::max();
  check(d.cuMemPoolSetAttribute(m.pool, api::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold),
        "cuMemPoolSetAttribute", c.index);
  if (const char* env = std::getenv("ACCELPY_CUDA_MEMORY_LIMIT"); env && *env) {
    m.limit = parse_bytes(env);
  }
  if (const char* env = std::getenv("ACCELPY_CUDA_SMALL_BLOCK_CACHE"); env && *env) {
    m.small_cache_enabled = std::string(env) != "0";
  }
}

void* device_allocate(DeviceContext& c, size_t nbytes) {
  DeviceMemory& m = memory_of(c);
  // Zero-byte arrays still get a distinct, valid pointer.
  const size_t bytes = nbytes ? nbytes : 1;
  const api::CUstream s = c.stream();
  // Small blocks are allocated whole-class (on any stream), so that once freed on the default
  // stream, any request of their class fits; on the default stream they come from the cache.
  const bool small = m.small_cache_enabled && bytes <= kSmallMaxBytes;
  const int cls = small ? small_class(bytes) : 0;
  // Callers may rely on the device's context being current afterwards (cuBLAS, CUB calls).
  c.make_current();
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    if (m.limit && m.allocated + bytes > m.limit) {
      const size_t left = m.limit > m.allocated ? m.limit - m.allocated : 0;
      throw OutOfMemoryError("CUDA out of memory on cuda:" + std::to_string(c.index) +
                             " allocating " + mib(nbytes) + ": over accelpy's memory limit of " +
                             mib(m.limit) + " (" + mib(left) + " left under the limit)");
    }
    if (small && s == c.default_stream && !m.small_blocks[cls].empty()) {
      void* p = m.small_blocks[cls].back();
      m.small_blocks[cls].pop_back();
      m.small_cached_bytes -= class_bytes(cls);
      m.allocated += bytes;
      if (m.allocated > m.peak) m.peak = m.allocated;
      ++m.allocations;
      return p;
    }
  }
  const size_t alloc_bytes = small ? class_bytes(cls) : bytes;
  const Driver& d = drv();
  api::CUdeviceptr p = 0;
  api::CUresult r = d.cuMemAllocFromPoolAsync(&p, alloc_bytes, m.pool, s);
  if (r == api::CUDA_ERROR_OUT_OF_MEMORY) {
    // Memory freed on other streams returns to the pool only once they get there; wait for
    // them, give the caches back to the driver, and try once more.
    {
      std::lock_guard<std::mutex> lock(m.mutex);
      release_small_blocks(c, m, d);
      ++m.oom_retries;
    }
    check(d.cuCtxSynchronize(), "cuCtxSynchronize", c.index);
    check(d.cuMemPoolTrimTo(m.pool, 0), "cuMemPoolTrimTo", c.index);
    r = d.cuMemAllocFromPoolAsync(&p, alloc_bytes, m.pool, s);
    if (r == api::CUDA_ERROR_OUT_OF_MEMORY) {
      // The refused request leaves the pool holding what it reserved for it (81 GiB of an
      // H100's after asking for twice the device's memory), so that no other process could
      // create a context: give it back before reporting.
      d.cuMemPoolTrimTo(m.pool, 0);
      out_of_memory(c, nbytes, "the device has no block that large, even after freeing the cache");
    }
  }
  check(r, "cuMemAllocFromPoolAsync", c.index);
  std::lock_guard<std::mutex> lock(m.mutex);
  m.allocated += bytes;
  if (m.allocated > m.peak) m.peak = m.allocated;
  ++m.allocations;
  return reinterpret_cast<void*>(p);
}

void device_free(DeviceContext& c, void* ptr, size_t nbytes) {
  DeviceMemory& m = memory_of(c);
  const Driver* d = driver();
  if (!d || !ptr) return;
  const size_t bytes = nbytes ? nbytes : 1;
  {
    // A block of this size was allocated whole-class (device_allocate), so it can serve any
    // request of its class.
    std::lock_guard<std::mutex> lock(m.mutex);
    m.allocated -= bytes;
    ++m.frees;
    if (m.small_cache_enabled && bytes <= kSmallMaxBytes && c.stream() == c.default_stream) {
      const int cls = small_class(bytes);
      if (m.small_cached_bytes + class_bytes(cls) <= kSmallCacheBytes) {
        try {
          m.small_blocks[cls].push_back(ptr);
          m.small_cached_bytes += class_bytes(cls);
          return;
        } catch (const std::bad_alloc&) {  // no host memory for the list: free it instead
        }
      }
    }
  }
  // Errors here (a poisoned context, the driver shutting down at exit) have nowhere to go;
  // the next synchronizing call reports a poisoned context.
  api::CUcontext cur = nullptr;
  if (d->cuCtxGetCurrent(&cur) == api::CUDA_SUCCESS && cur != c.ctx) d->cuCtxSetCurrent(c.ctx);
  d->cuMemFreeAsync(reinterpret_cast<api::CUdeviceptr>(ptr), c.stream());
}

MemoryStats memory_stats(int device) {
  DeviceContext& c = context(device);
  DeviceMemory& m = memory_of(c);
  c.make_current();
  MemoryStats s;
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    s.allocated = m.allocated;
    s.peak_allocated = m.peak;
    s.limit = m.limit;
    s.allocations = m.allocations;
    s.frees = m.frees;
    s.oom_retries = m.oom_retries;
    for (const std::vector<void*>& list : m.small_blocks) s.small_cached_blocks += list.size();
    s.small_cached_bytes = m.small_cached_bytes;
  }
  const Driver& d = drv();
  uint64_t reserved = 0;
  check(d.cuMemPoolGetAttribute(m.pool, api::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved),
        "cuMemPoolGetAttribute", device);
  s.reserved = reserved;
  check(d.cuMemGetInfo(&s.device_free, &s.device_total), "cuMemGetInfo", device);
  return s;
}

unsigned* stream_counters(DeviceContext& c, size_t n) {
  DeviceMemory& m = memory_of(c);
  const api::CUstream stream = c.stream();
  std::lock_guard<std::mutex> lock(m.counters_mutex);
  DeviceMemory::StreamCounters* entry = nullptr;
  for (DeviceMemory::StreamCounters& e : m.counters) {
    if (e.stream == stream) entry = &e;
  }
  if (entry && entry->n >= n) return entry->ptr;
  // Kept outside the allocator's accounting: a few KiB per stream, for the stream's lifetime.
  const Driver& d = drv();
  n = std::max<size_t>(n, 1024);
  const std::vector<unsigned> zeros(n, 0u);
  api::CUdeviceptr ptr = 0;
  check(d.cuMemAllocFromPoolAsync(&ptr, n * sizeof(unsigned), m.pool, stream),
        "cuMemAllocFromPoolAsync", c.index);
  // From pageable memory: the driver stages the zeros before returning.
  check(d.cuMemcpyHtoDAsync(ptr, zeros.data(), n * sizeof(unsigned), stream), "cuMemcpyHtoDAsync",
        c.index);
  unsigned* counters = reinterpret_cast<unsigned*>(ptr);
  if (entry) {
    d.cuMemFreeAsync(reinterpret_cast<api::CUdeviceptr>(entry->ptr), stream);
    *entry = {stream, counters, n};
  } else {
    m.counters.push_back({stream, counters, n});
  }
  return counters;
}

void release_stream_counters(DeviceContext& c, api::CUstream stream) noexcept {
  DeviceMemory& m = memory_of(c);
  std::lock_guard<std::mutex> lock(m.counters_mutex);
  for (size_t i = 0; i < m.counters.size(); ++i) {
    if (m.counters[i].stream != stream) continue;
    if (const Driver* d = driver()) {
      d->cuMemFreeAsync(reinterpret_cast<api::CUdeviceptr>(m.counters[i].ptr), stream);
    }
    m.counters.erase(m.counters.begin() + std::ptrdiff_t(i));
    return;
  }
}

void free_cache(int device) {
  DeviceContext& c = context(device);
  DeviceMemory& m = memory_of(c);
  c.make_current();
  const Driver& d = drv();
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    release_small_blocks(c, m, d);
  }
  check_sync(d.cuCtxSynchronize(), "cuCtxSynchronize", device);
  check(d.cuMemPoolTrimTo(m.pool, 0), "cuMemPoolTrimTo", device);
}

void set_memory_limit(int device, size_t bytes) {
  DeviceContext& c = context(device);
  DeviceMemory& m = memory_of(c);
  std::lock_guard<std::mutex> lock(m.mutex);
  m.limit = bytes;
}

void* pinned_alloc(size_t nbytes) {
  const Driver& d = drv();
  api::CUcontext cur = nullptr;
  if (d.cuCtxGetCurrent(&cur) != api::CUDA_SUCCESS || !cur) context(0).make_current();
  void* p = nullptr;
  // Portable: usable for copies with every device, not only the current context's.
  const api::CUresult r = d.cuMemHostAlloc(&p, nbytes ? nbytes : 1, api::CU_MEMHOSTALLOC_PORTABLE);
  if (r == api::CUDA_ERROR_OUT_OF_MEMORY) {
    throw OutOfMemoryError("out of pinned host memory allocating " + mib(nbytes));
  }
  check(r, "cuMemHostAlloc", -1);
  return p;
}

void pinned_free(void* ptr) {
  if (const Driver* d = driver(); d && ptr) d->cuMemFreeHost(ptr);
}

}  // namespace accel::cuda
