// Per-device state of the CUDA backend: the primary context, the default stream, the device's
// properties and the last kernel launched; plus error checking. The allocator keeps its own
// per-device state (allocator.cpp).
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
  DeviceProperties props;

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

// The one T(device) of `device` (a library family's object), made on first use and never
// destroyed: other statics' destructors may still use it at exit.
template <class T>
T& per_device(int device) {
  static T* objects[kMaxDevices] = {};
  static std::once_flag once[kMaxDevices];
  std::call_once(once[device], [&] { objects[device] = new T(device); });
  return *objects[device];
}

}  // namespace accel::cuda
