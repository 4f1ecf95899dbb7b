// Device memory: stream-ordered allocation from the driver's default memory pool.
#pragma once

#include <cstddef>

#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

// Configures the device's default pool (called once from context initialization).
void init_pool(DeviceContext& c);

// Allocates on the device's current stream. Over the memory limit, or when the driver is out
// of memory even after the pool's cache was released, throws OutOfMemoryError naming the
// bytes requested, free and total.
void* device_allocate(DeviceContext& c, size_t nbytes);
// Frees in stream order on the current stream; never throws (it runs from destructors).
void device_free(DeviceContext& c, void* ptr, size_t nbytes);

// At least n counters, zero, for split reductions on the current stream (codegen_reduce.cpp):
// the last block of each grid column resets its counter, so each kernel leaves them zero and
// the next kernel of the stream finds them so. Kernels of other streams may run at the same
// time, so each stream has its own; they are kept until release_stream_counters.
unsigned* stream_counters(DeviceContext& c, size_t n);
// Frees the counters of a stream about to be destroyed (in stream order); never throws.
void release_stream_counters(DeviceContext& c, api::CUstream stream) noexcept;

}  // namespace accel::cuda
