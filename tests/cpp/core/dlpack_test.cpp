// DLPack tensors (src/core/dlpack.cpp): the ABI layout of include/accel/dlpack.h, dtype and
// device mappings both ways, zero-copy export and import, ownership through the deleter, and
// the refusals (BufferError).
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "accel/interop.hpp"
#include "accel/ops.hpp"
#include "accel/storage.hpp"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

// The published ABI (dlpack.h 1.x) on 64-bit platforms.
static_assert(sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4);
static_assert(offsetof(DLTensor, device) == 8 && offsetof(DLTensor, ndim) == 16 &&
              offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
              offsetof(DLTensor, strides) == 32 && offsetof(DLTensor, byte_offset) == 40 &&
              sizeof(DLTensor) == 48);
static_assert(offsetof(DLManagedTensor, manager_ctx) == 48 &&
              offsetof(DLManagedTensor, deleter) == 56 && sizeof(DLManagedTensor) == 64);
static_assert(offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
              offsetof(DLManagedTensorVersioned, deleter) == 16 &&
              offsetof(DLManagedTensorVersioned, flags) == 24 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32 &&
              sizeof(DLManagedTensorVersioned) == 80);

TEST(DLPack, DTypesMapBothWays) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType dt = static_cast<DType>(i);
    const DLDataType d = to_dlpack_dtype(dt);
    EXPECT_EQ(d.lanes, 1);
    EXPECT_EQ(d.bits, itemsize(dt) * 8);
    EXPECT_EQ(from_dlpack_dtype(d), dt) << dtype_name(dt);
  }
  EXPECT_EQ(to_dlpack_dtype(DType::Bool).code, kDLBool);
  EXPECT_EQ(to_dlpack_dtype(DType::BFloat16).code, kDLBfloat);
  EXPECT_EQ(to_dlpack_dtype(DType::Complex64).code, kDLComplex);
  EXPECT_THROW(from_dlpack_dtype({kDLFloat, 32, 4}), BufferError);  // vector lanes
  EXPECT_THROW(from_dlpack_dtype({kDLFloat, 8, 1}), BufferError);   // no float8 here
  EXPECT_THROW(from_dlpack_dtype({kDLOpaqueHandle, 64, 1}), BufferError);
}

TEST(DLPack, DevicesMapBothWays) {
  EXPECT_EQ(from_dlpack_device(to_dlpack_device(Device::cpu())), Device::cpu());
  EXPECT_EQ(from_dlpack_device(to_dlpack_device(Device::cuda(3))), Device::cuda(3));
  EXPECT_EQ(from_dlpack_device({kDLCUDAHost, 0}), Device::cpu());
  EXPECT_EQ(from_dlpack_device({kDLCUDAManaged, 1}), Device::cuda(1));
  EXPECT_THROW(from_dlpack_device({kDLROCM, 0}), BufferError);
}

TEST(DLPack, ExportViewsTheMemoryAndOwnsIt) {
  const std::vector<double> v = test::random_values(24, test::fresh_seed());
  Array base = test::make(v, {4, 6});
  const Array view = index(base, {Slice{std::nullopt, std::nullopt, -2}, Slice{1, 5, 3}});
  const Array ready = prepare_export(view, false);
  DLManagedTensorVersioned* t = to_dlpack_versioned(ready, ACCEL_DLPACK_FLAG_READ_ONLY);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->flags, ACCEL_DLPACK_FLAG_READ_ONLY);
  const DLTensor& dl = t->dl_tensor;
  ASSERT_EQ(dl.ndim, 2);
  EXPECT_EQ(dl.shape[0], 2);
  EXPECT_EQ(dl.shape[1], 2);
  EXPECT_EQ(dl.strides[0], -12);
  EXPECT_EQ(dl.strides[1], 3);
  EXPECT_EQ(dl.data, ready.data());
  EXPECT_EQ(dl.byte_offset, 0u);
  const std::weak_ptr<Storage> storage = base.storage();
  base = Array();  // the tensor keeps the memory alive
  EXPECT_FALSE(storage.expired());
  EXPECT_EQ(static_cast<const double*>(dl.data)[0], v[3 * 6 + 1]);
  t->deleter(t);
  EXPECT_FALSE(storage.expired());  // `view` and `ready` still hold it
}

TEST(DLPack, ImportWrapsWithoutCopyAndReleasesTheProducer) {
  const std::vector<double> v = test::random_values(12, test::fresh_seed());
  const Array src = test::make(v, {3, 4});
  DLManagedTensor* t = to_dlpack_legacy(prepare_export(src, false));
  bool released = false;
  {
    auto owner = std::shared_ptr<void>(t, [&released](void* p) {
      auto* m = static_cast<DLManagedTensor*>(p);
      m->deleter(m);
      released = true;
    });
    const Array a = from_dltensor(t->dl_tensor, owner, true);
    owner.reset();
    EXPECT_EQ(a.data(), src.data());
    EXPECT_EQ(a.shape(), (Shape{3, 4}));
    EXPECT_EQ(test::values(transpose(a)), test::values(transpose(src)));
    EXPECT_FALSE(released);
  }
  EXPECT_TRUE(released);  // the last view is gone: the producer's deleter ran
}

// A float32 DLTensor over host memory, with NULL strides (compact row-major, DLPack < 1.0).
DLTensor host_floats(std::vector<float>& buf, int64_t* shape, int32_t ndim) {
  DLTensor t{};
  t.data = buf.data();
  t.device = {kDLCPU, 0};
  t.ndim = ndim;
  t.dtype = {kDLFloat, 32, 1};
  t.shape = shape;
  return t;
}

TEST(DLPack, ImportHandlesNullStridesAndByteOffsets) {
  std::vector<float> buf = {0, 1, 2, 3, 4, 5, 6, 7};
  int64_t shape[] = {2, 3};
  DLTensor t = host_floats(buf, shape, 2);
  t.byte_offset = 2 * sizeof(float);
  const Array a = from_dltensor(t, nullptr, false);
  EXPECT_EQ(test::values(a), (std::vector<double>{2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(a.writeable());
  int64_t bad[] = {-1, 3};
  t.shape = bad;
  EXPECT_THROW(from_dltensor(t, nullptr, false), BufferError);
}

TEST(DLPack, ImportRefusesMemoryNotAlignedToItsElements) {
  // Kernels load whole elements: a float at an odd address is undefined on the CPU and a
  // sticky fault on a GPU. Empty tensors never load, so any address does.
  std::vector<float> buf(8, 1.0f);
  int64_t shape[] = {3};
  DLTensor t = host_floats(buf, shape, 1);
  t.byte_offset = 2;
  EXPECT_THROW(from_dltensor(t, nullptr, false), BufferError);
  EXPECT_THROW(Array::wrap(reinterpret_cast<char*>(buf.data()) + 2, DType::Float32, {3}, {1},
                           Device::cpu(), nullptr, true),
               ValueError);
  // complex64 needs its parts' alignment (4 bytes), not its size.
  t.dtype = {kDLComplex, 64, 1};
  t.byte_offset = 4;
  EXPECT_EQ(from_dltensor(t, nullptr, false).size(), 3);
  shape[0] = 0;
  t.byte_offset = 1;
  EXPECT_EQ(from_dltensor(t, nullptr, false).size(), 0);
}

TEST(DLPack, ExportRunsTheWriteBarrier) {
  const Array x = test::make({1, 2, 3});
  const Array pending = multiply(x, 10.0);  // reads x, not computed yet
  ASSERT_TRUE(pending.is_pending());
  DLManagedTensorVersioned* t = to_dlpack_versioned(prepare_export(x, false), 0);
  static_cast<double*>(t->dl_tensor.data)[0] = 100;  // the consumer writes
  EXPECT_EQ(test::values(pending), (std::vector<double>{10, 20, 30}));
  t->deleter(t);
}

}  // namespace
}  // namespace accel
