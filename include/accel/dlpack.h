// The DLPack ABI, version 1.1 (https://github.com/dmlc/dlpack, include/dlpack/dlpack.h): the
// structs and enum values that array libraries exchange in "dltensor" / "dltensor_versioned"
// capsules. Declared here from the published ABI rather than vendored, so that the build needs
// no extra download; the layout is fixed by the standard (checked by tests/cpp/core/dlpack_test).
#pragma once

#include <cstdint>

extern "C" {

#define ACCEL_DLPACK_MAJOR_VERSION 1
#define ACCEL_DLPACK_MINOR_VERSION 1

// DLManagedTensorVersioned::flags
#define ACCEL_DLPACK_FLAG_READ_ONLY (UINT64_C(1) << 0)
#define ACCEL_DLPACK_FLAG_IS_COPIED (UINT64_C(1) << 1)
#define ACCEL_DLPACK_FLAG_IS_SUBBYTE_TYPE_PADDED (UINT64_C(1) << 2)

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

enum DLDeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // pinned host memory, readable by the CPU
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,  // unified memory, readable by the CPU and the GPU
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
};

struct DLDevice {
  DLDeviceType device_type;
  int32_t device_id;
};

enum DLDataTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
  // 1.1: the float8 and float4 formats (7-17), which accelpy does not store.
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;  // the data pointer; element 0 is at data + byte_offset
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; NULL means C-contiguous
  uint64_t byte_offset;
};

// The legacy (pre-1.0) capsule payload: no version, no flags.
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// The versioned (1.0+) capsule payload.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // extern "C"
