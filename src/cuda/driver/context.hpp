// Per-device state of the CUDA backend: the primary context, the default stream, the memory
// pool and the bookkeeping of the allocator and of kernel launches; plus error checking.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "accel/cuda.hpp"
#include "src/cuda/driver/loader.hpp"

namespace accel::cuda {

inline constexpr int kMaxDevices = 64;

// The loaded driver; throws accel::Error saying why when CUDA is unavailable.
const Driver& drv();

// Throws for a failed driver call: OutOfMemoryError for CUDA_ERROR_OUT_OF_MEMORY, accel::Error
// otherwise, naming the call, the error and the device. Errors that poison the context
// (illegal address, launch failure, ...) also name the last kernel launched there.
[[noreturn]] void throw_cuda_error(api::CUresult r, const char* call, int device);
inline void check(api::CUresult r, const char* call, int device) {
  if (r != api::CUDA_SUCCESS) throw_cuda_error(r, call, device);
}
std::string error_name(api::CUresult r);

struct DeviceContext {
  int index = 0;
  api::CUdevice dev = 0;
  api::CUcontext ctx = nullptr;
  api::CUstream default_stream = nullptr;
  api::CUmemoryPool pool = nullptr;
  DeviceProperties props;

  // Allocator bookkeeping (allocator.cpp).
  std::mutex mem_mutex;
  size_t allocated = 0, peak = 0, limit = 0;
  uint64_t allocations = 0, frees = 0, oom_retries = 0;
  // The small-block cache (allocator.cpp): blocks freed on the default stream, by size class.
  static constexpr int kSmallClasses = 12;  // 512 B, 1 KiB, ..., 1 MiB
  std::vector<void*> small_blocks[kSmallClasses];
  size_t small_cached_bytes = 0;
  bool small_cache_enabled = true;

  // The counts of split reductions, one set per stream that ran one (allocator.cpp).
  struct StreamCounters {
    api::CUstream stream;
    unsigned* ptr;
    size_t n;
  };
  std::mutex counters_mutex;
  std::vector<StreamCounters> counters;

  // The last kernel launched, for fault reports: written on every launch, so a plain pointer
  // to a name that lives as long as the kernel cache (forever).
  std::atomic<const char*> last_kernel{nullptr};

  // Makes this device's context current on the calling thread (cheap when it already is).
  void make_current() const;
  // The same for destructors: false instead of an exception (at exit the driver may already
  // be shut down, and a destructor that throws terminates the process).
  bool try_make_current() const noexcept;
  // This thread's current stream on this device.
  api::CUstream stream() const;
};

// The context of `device`, initialized on first use; IndexError-like ValueError for a device
// that does not exist.
DeviceContext& context(int device);

// Checks the result of a synchronizing call on `device`.
void check_sync(api::CUresult r, const char* call, int device);

}  // namespace accel::cuda
