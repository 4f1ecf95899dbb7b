// Stream-ordered allocation (cuMemAllocFromPoolAsync / cuMemFreeAsync) from each device's
// default pool. The pool's release threshold is set to "never", so freed memory stays cached in
// the pool and the next allocation of a similar size costs no driver round trip; free_cache()
// or an out-of-memory retry trims it. accelpy keeps no cache of its own on top: the pool already
// reuses blocks in stream order, which is what a caching allocator would do.
#include "src/cuda/allocator.hpp"

#include <cctype>
#include <cstdlib>
#include <limits>
#include <string>

#include "accel/errors.hpp"

namespace accel::cuda {

namespace {

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
  size_t free = 0, total = 0;
  drv().cuMemGetInfo(&free, &total);
  throw OutOfMemoryError("CUDA out of memory on cuda:" + std::to_string(c.index) + " allocating " +
                         mib(nbytes) + ": " + why + "; device free " + mib(free) + " of " +
                         mib(total) + ", in use by accelpy arrays " + mib(c.allocated));
}

}  // namespace

void init_pool(DeviceContext& c) {
  const Driver& d = drv();
  check(d.cuDeviceGetDefaultMemPool(&c.pool, c.dev), "cuDeviceGetDefaultMemPool", c.index);
  uint64_t threshold = std::numeric_limits<uint64_t>::max();
  check(d.cuMemPoolSetAttribute(c.pool, api::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold),
        "cuMemPoolSetAttribute", c.index);
  if (const char* env = std::getenv("ACCELPY_CUDA_MEMORY_LIMIT"); env && *env) {
    c.limit = parse_bytes(env);
  }
}

void* device_allocate(DeviceContext& c, size_t nbytes) {
  // Zero-byte arrays still get a distinct, valid pointer.
  const size_t bytes = nbytes ? nbytes : 1;
  {
    std::lock_guard<std::mutex> lock(c.mem_mutex);
    if (c.limit && c.allocated + bytes > c.limit) {
      const size_t left = c.limit > c.allocated ? c.limit - c.allocated : 0;
      throw OutOfMemoryError("CUDA out of memory on cuda:" + std::to_string(c.index) +
                             " allocating " + mib(nbytes) + ": over accelpy's memory limit of " +
                             mib(c.limit) + " (" + mib(left) + " left under the limit)");
    }
  }
  const Driver& d = drv();
  c.make_current();
  const api::CUstream s = c.stream();
  api::CUdeviceptr p = 0;
  api::CUresult r = d.cuMemAllocFromPoolAsync(&p, bytes, c.pool, s);
  if (r == api::CUDA_ERROR_OUT_OF_MEMORY) {
    // Memory freed on other streams returns to the pool only once they get there; wait for
    // them, give the pool's cache back to the driver, and try once more.
    check(d.cuCtxSynchronize(), "cuCtxSynchronize", c.index);
    check(d.cuMemPoolTrimTo(c.pool, 0), "cuMemPoolTrimTo", c.index);
    {
      std::lock_guard<std::mutex> lock(c.mem_mutex);
      ++c.oom_retries;
    }
    r = d.cuMemAllocFromPoolAsync(&p, bytes, c.pool, s);
    if (r == api::CUDA_ERROR_OUT_OF_MEMORY) {
      out_of_memory(c, nbytes, "the device has no block that large, even after freeing the cache");
    }
  }
  check(r, "cuMemAllocFromPoolAsync", c.index);
  std::lock_guard<std::mutex> lock(c.mem_mutex);
  c.allocated += bytes;
  if (c.allocated > c.peak) c.peak = c.allocated;
  ++c.allocations;
  return reinterpret_cast<void*>(p);
}

void device_free(DeviceContext& c, void* ptr, size_t nbytes) {
  const Driver* d = driver();
  if (!d || !ptr) return;
  {
    std::lock_guard<std::mutex> lock(c.mem_mutex);
    c.allocated -= nbytes ? nbytes : 1;
    ++c.frees;
  }
  // Errors here (a poisoned context, the driver shutting down at exit) have nowhere to go;
  // the next synchronizing call reports a poisoned context.
  api::CUcontext cur = nullptr;
  if (d->cuCtxGetCurrent(&cur) == api::CUDA_SUCCESS && cur != c.ctx) d->cuCtxSetCurrent(c.ctx);
  d->cuMemFreeAsync(reinterpret_cast<api::CUdeviceptr>(ptr), c.stream());
}

MemoryStats memory_stats(int device) {
  DeviceContext& c = context(device);
  c.make_current();
  MemoryStats s;
  {
    std::lock_guard<std::mutex> lock(c.mem_mutex);
    s.allocated = c.allocated;
    s.peak_allocated = c.peak;
    s.limit = c.limit;
    s.allocations = c.allocations;
    s.frees = c.frees;
    s.oom_retries = c.oom_retries;
  }
  const Driver& d = drv();
  uint64_t reserved = 0;
  check(d.cuMemPoolGetAttribute(c.pool, api::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved),
        "cuMemPoolGetAttribute", device);
  s.reserved = reserved;
  check(d.cuMemGetInfo(&s.device_free, &s.device_total), "cuMemGetInfo", device);
  return s;
}

void free_cache(int device) {
  DeviceContext& c = context(device);
  c.make_current();
  const Driver& d = drv();
  check_sync(d.cuCtxSynchronize(), "cuCtxSynchronize", device);
  check(d.cuMemPoolTrimTo(c.pool, 0), "cuMemPoolTrimTo", device);
}

void set_memory_limit(int device, size_t bytes) {
  DeviceContext& c = context(device);
  std::lock_guard<std::mutex> lock(c.mem_mutex);
  c.limit = bytes;
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
