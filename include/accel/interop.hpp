// Exchanging memory with other array libraries without copies: DLPack tensors (any version)
// and the CUDA stream ordering the exchange protocols ask for. The Python protocols
// (__dlpack__, from_dlpack, __cuda_array_interface__) are built on these.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "accel/array.hpp"
#include "accel/dlpack.h"
#include "accel/errors.hpp"

namespace accel {

// The exchange cannot be done as asked (an unsupported device or dtype, a copy that copy=False
// forbids): Python's BufferError, as the DLPack protocol specifies.
struct BufferError : Error {
  using Error::Error;
};

// The DLPack description of accelpy's dtypes and devices, and back (BufferError for what
// accelpy does not store: lanes > 1, float8, opaque handles, other device types).
DLDataType to_dlpack_dtype(DType dtype);
DType from_dlpack_dtype(DLDataType dtype);
DLDevice to_dlpack_device(Device device);
Device from_dlpack_device(DLDevice device);

// Prepares `a` for export to a library that may read it at any time and, unless `read_only`,
// write into it: computes it, runs the write barrier (pending readers of its memory are
// evaluated now, so they see the current values) and marks its storage shared (the memory
// may come back wrapped in another storage). Returns the computed array.
Array prepare_export(const Array& a, bool read_only);

// A DLPack tensor over `a`'s memory (no copy), which keeps the memory alive until its deleter
// runs. Call prepare_export first. The versioned form carries `flags` (read-only, is-copied).
DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, uint64_t flags);
DLManagedTensor* to_dlpack_legacy(const Array& a);

// An array over the memory a DLTensor describes (no copy). `owner` keeps the memory alive: it
// is released when the last view of the array is gone (for a DLPack capsule: it calls the
// tensor's deleter). Negative and zero strides, byte offsets and empty tensors are accepted.
Array from_dltensor(const DLTensor& tensor, std::shared_ptr<void> owner, bool writeable);

namespace cuda {

// Stream handles as the exchange protocols spell them: 1 is CUDA's legacy default stream, 2
// the per-thread default stream, anything else a CUstream. 0 is ambiguous and refused.
//
// Makes later work on `stream` (another library's) wait for the work queued so far on this
// thread's current stream of `device` (an event recorded here, waited for there). Nothing is
// done when `stream` is the current stream itself.
void stream_wait_for_current(int device, uintptr_t stream);
// Makes later work on this thread's current stream of `device` wait for the work queued so
// far on `stream` (another library's).
void current_wait_for_stream(int device, uintptr_t stream);
// The handle of this thread's current stream on `device`.
uintptr_t current_stream_handle(int device);
// The device a CUDA pointer belongs to (ValueError for a pointer CUDA does not know).
int pointer_device(uintptr_t ptr);

}  // namespace cuda

}  // namespace accel
