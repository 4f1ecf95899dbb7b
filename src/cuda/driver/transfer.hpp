// Copies between host and device memory, within a device, and between devices.
#pragma once

#include <cstddef>

#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

// Returns once `src` may be reused: pinned sources are copied asynchronously; pageable ones go
// through pinned staging buffers in pipelined chunks.
void copy_host_to_device(DeviceContext& c, const void* src, void* dst, size_t nbytes);
// Returns once `dst` holds the data (after everything queued before it on the stream).
void copy_device_to_host(DeviceContext& c, const void* src, void* dst, size_t nbytes);
// Queues the copy on the current stream and returns; dst must be pinned.
void copy_device_to_host_async(DeviceContext& c, const void* src, void* dst, size_t nbytes);
void copy_device_to_device(DeviceContext& c, const void* src, void* dst, size_t nbytes);
// From device `from` to c's device; returns when the copy is done.
void copy_peer(DeviceContext& from, const void* src, DeviceContext& c, void* dst, size_t nbytes);

bool is_pinned(const void* ptr);

// Makes the pinned buffer of small downloads of c's device now, while the device is idle (see
// prepare_waits: made at a first host read behind a long kernel, it kept Ctrl-C waiting).
void prepare_transfers(DeviceContext& c);

// memcpy with non-temporal stores (downloads' staging copies: the destination is not read
// again by this CPU soon); any alignment and size.
void host_stream_copy(void* dst, const void* src, size_t n);

}  // namespace accel::cuda
