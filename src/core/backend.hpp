// The interface between the core and a device backend.
#pragma once

#include <cstddef>

#include "accel/device.hpp"
#include "src/core/group.hpp"

namespace accel {

class Backend {
 public:
  virtual ~Backend() = default;

  virtual void* allocate(size_t nbytes) = 0;
  virtual void deallocate(void* ptr, size_t nbytes) = 0;

  // Runs one group; every output's destination memory exists when this is called.
  virtual void run(const Group& group) = 0;

  // Copies between this device's memory and host memory (contiguous bytes).
  virtual void copy_to_host(const void* src, void* dst, size_t nbytes) = 0;
  virtual void copy_from_host(const void* src, void* dst, size_t nbytes) = 0;

  // Waits until all work queued on this device has finished.
  virtual void synchronize() = 0;
};

Backend& backend_for(Device device);

}  // namespace accel
