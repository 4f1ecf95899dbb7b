// DLPack tensors over accelpy arrays and accelpy arrays over DLPack tensors, without copies.
#include <cstring>
#include <new>
#include <string>

#include "accel/interop.hpp"
#include "accel/storage.hpp"

namespace accel {

DLDataType to_dlpack_dtype(DType dtype) {
  DLDataType d{};
  d.bits = static_cast<uint8_t>(itemsize(dtype) * 8);
  d.lanes = 1;
  switch (kind(dtype)) {
    case DTypeKind::Bool:
      d.code = kDLBool;
      break;
    case DTypeKind::SignedInt:
      d.code = kDLInt;
      break;
    case DTypeKind::UnsignedInt:
      d.code = kDLUInt;
      break;
    case DTypeKind::Float:
      d.code = dtype == DType::BFloat16 ? kDLBfloat : kDLFloat;
      break;
    case DTypeKind::Complex:
      d.code = kDLComplex;
      break;
  }
  return d;
}

DType from_dlpack_dtype(DLDataType d) {
  auto by_bits = [&](DType b8, DType b16, DType b32, DType b64) -> std::optional<DType> {
    switch (d.bits) {
      case 8:
        return b8;
      case 16:
        return b16;
      case 32:
        return b32;
      case 64:
        return b64;
      default:
        return std::nullopt;
    }
  };
  std::optional<DType> dt;
  if (d.lanes == 1) {
    switch (d.code) {
      case kDLBool:
        if (d.bits == 8) dt = DType::Bool;
        break;
      case kDLInt:
        dt = by_bits(DType::Int8, DType::Int16, DType::Int32, DType::Int64);
        break;
      case kDLUInt:
        dt = by_bits(DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64);
        break;
      case kDLFloat:
        if (d.bits == 16) dt = DType::Float16;
        if (d.bits == 32) dt = DType::Float32;
        if (d.bits == 64) dt = DType::Float64;
        break;
      case kDLBfloat:
        if (d.bits == 16) dt = DType::BFloat16;
        break;
      case kDLComplex:
        if (d.bits == 64) dt = DType::Complex64;
        if (d.bits == 128) dt = DType::Complex128;
        break;
      default:
        break;
    }
  }
  if (!dt) {
    throw BufferError("accelpy cannot store DLPack data type (code " + std::to_string(d.code) +
                      ", " + std::to_string(d.bits) + " bits, " + std::to_string(d.lanes) +
                      " lanes); it stores bool, int8-64, uint8-64, float16, bfloat16, float32, "
                      "float64, complex64 and complex128");
  }
  return *dt;
}

DLDevice to_dlpack_device(Device device) {
  if (device.is_cuda()) return {kDLCUDA, device.index};
  return {kDLCPU, 0};
}

Device from_dlpack_device(DLDevice device) {
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:  // page-locked host memory: the CPU reads it directly
      return Device::cpu();
    case kDLCUDA:
    case kDLCUDAManaged:  // unified memory: used where it is most often touched, the GPU
      return Device::cuda(device.device_id);
    default:
      break;
  }
  throw BufferError("accelpy cannot use memory of DLPack device type " +
                    std::to_string(int(device.device_type)) +
                    "; it reads CPU (1), CUDA (2), CUDA host (3) and CUDA managed (13) memory");
}

Array prepare_export(const Array& a, bool read_only) {
  a.eval();
  if (!read_only) {
    // The consumer may write at any time from now on: readers pending on this memory must
    // read it first.
    prepare_write(*a.storage());
  }
  // The memory may come back wrapped in another storage (from_dlpack of the consumer's view);
  // writes through either must reach the other's pending readers.
  a.storage()->mark_shared();
  return a;
}

namespace {

// What a DLPack tensor of ours points into: the exported view (keeping its storage alive)
// and the shape and strides the DLTensor points at.
template <class Managed>
struct ExportContext {
  Managed managed{};
  Array array;
  std::vector<int64_t> shape, strides;

  explicit ExportContext(const Array& a)
      : array(a),
        shape(a.shape().begin(), a.shape().end()),
        strides(a.strides().begin(), a.strides().end()) {
    DLTensor& t = managed.dl_tensor;
    // Element 0 itself, with byte_offset 0, as NumPy and PyTorch export: consumers that
    // ignore byte_offset still read the right elements.
    t.data = a.size() ? a.data() : a.storage()->data();
    t.device = to_dlpack_device(a.device());
    t.ndim = a.ndim();
    t.dtype = to_dlpack_dtype(a.dtype());
    t.shape = shape.data();
    t.strides = strides.data();  // always given: DLPack 1.0 consumers may require it
    t.byte_offset = 0;
    managed.manager_ctx = this;
    managed.deleter = [](Managed* self) {
      // The last user of the tensor is done: drop the view (and the memory, if it was the
      // last view). Any thread may call this.
      delete static_cast<ExportContext*>(self->manager_ctx);
    };
  }
};

}  // namespace

DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, uint64_t flags) {
  auto* ctx = new ExportContext<DLManagedTensorVersioned>(a);
  ctx->managed.version = {ACCEL_DLPACK_MAJOR_VERSION, ACCEL_DLPACK_MINOR_VERSION};
  ctx->managed.flags = flags;
  return &ctx->managed;
}

DLManagedTensor* to_dlpack_legacy(const Array& a) {
  return &(new ExportContext<DLManagedTensor>(a))->managed;
}

Array from_dltensor(const DLTensor& t, std::shared_ptr<void> owner, bool writeable) {
  const DType dtype = from_dlpack_dtype(t.dtype);
  const Device device = from_dlpack_device(t.device);
  if (t.ndim < 0) throw BufferError("DLPack tensor with negative ndim " + std::to_string(t.ndim));
  Shape shape;
  Strides strides;
  for (int i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0) {
      throw BufferError("DLPack tensor with a negative extent (" + std::to_string(t.shape[i]) +
                        ") in dimension " + std::to_string(i));
    }
    shape.push_back(t.shape[i]);
  }
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) strides.push_back(t.strides[i]);
  } else {
    strides = contiguous_strides(shape);  // NULL strides: compact, row-major (DLPack < 1.0)
  }
  char* data = static_cast<char*>(t.data) + t.byte_offset;
  if (shape_size(shape) != 0 && !is_aligned_for(data, dtype)) {
    throw BufferError("DLPack tensor data is not aligned to its " +
                      std::to_string(element_alignment(dtype)) + "-byte " +
                      std::string(dtype_name(dtype)) +
                      " elements; accelpy shares aligned memory only (asarray copies)");
  }
  return Array::wrap(data, dtype, std::move(shape), std::move(strides), device, std::move(owner),
                     writeable);
}

}  // namespace accel
