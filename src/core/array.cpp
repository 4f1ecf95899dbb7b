#include "accel/array.hpp"

#include "accel/errors.hpp"
#include "accel/pool_allocator.hpp"
#include "accel/storage.hpp"
#include "src/core/backend.hpp"
#include "src/core/eval.hpp"
#include "src/core/graph.hpp"
#include "src/core/result_layout.hpp"

namespace accel {

namespace {
// Impls and Storages are made and freed once per lazy operation: from the per-thread lists.
std::shared_ptr<Array::Impl> new_impl() {
  return std::allocate_shared<Array::Impl>(pool::Allocator<Array::Impl>());
}
}  // namespace

DType Array::dtype() const { return impl_->dtype; }
const Shape& Array::shape() const { return impl_->shape; }
const Strides& Array::strides() const { return impl_->strides; }
int64_t Array::offset() const { return impl_->offset; }
Device Array::device() const { return impl_->storage->device(); }
bool Array::writeable() const { return impl_->writeable; }
bool Array::is_pending() const { return impl_->storage->is_pending(); }
const std::shared_ptr<Storage>& Array::storage() const { return impl_->storage; }

void Array::eval() const {
  if (is_pending()) evaluate_storage(impl_->storage.get());
}

void* Array::data() const {
  eval();
  return static_cast<char*>(impl_->storage->data()) +
         impl_->offset * static_cast<int64_t>(itemsize(impl_->dtype));
}

bool Array::same_view(const Array& other) const {
  return impl_->storage == other.impl_->storage && impl_->dtype == other.impl_->dtype &&
         impl_->offset == other.impl_->offset && impl_->shape == other.impl_->shape &&
         impl_->strides == other.impl_->strides;
}

Array Array::view(DType dtype, Shape shape, Strides strides, int64_t offset) const {
  // A view allocates nothing: only its element count must fit (broadcast_to, as_strided).
  check_size_fits(shape, 1);
  auto impl = new_impl();
  impl->dtype = dtype;
  impl->writeable = impl_->writeable;
  impl->shape = std::move(shape);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->storage = impl_->storage;
  return Array(std::move(impl));
}

Array Array::view(Shape shape, Strides strides, int64_t offset) const {
  return view(impl_->dtype, std::move(shape), std::move(strides), offset);
}

Array Array::as_readonly() const {
  Array v = view(impl_->shape, impl_->strides, impl_->offset);
  v.impl_->writeable = false;
  return v;
}

Array Array::empty(Shape shape, DType dtype, Device device) {
  check_size_fits(shape, itemsize(dtype));
  const size_t nbytes = static_cast<size_t>(shape_size(shape)) * itemsize(dtype);
  void* ptr = backend_for(device).allocate(nbytes);
  auto impl = new_impl();
  impl->dtype = dtype;
  impl->strides = new_array_strides(shape);
  impl->shape = std::move(shape);
  impl->storage = std::allocate_shared<Storage>(pool::Allocator<Storage>(), device, nbytes, ptr);
  return Array(std::move(impl));
}

Array Array::from_storage(std::shared_ptr<Storage> storage, DType dtype, Shape shape,
                          Strides strides, int64_t offset, bool writeable) {
  check_size_fits(shape, 1);
  auto impl = new_impl();
  impl->dtype = dtype;
  impl->writeable = writeable;
  impl->shape = std::move(shape);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->storage = std::move(storage);
  return Array(std::move(impl));
}

Array Array::pending(std::shared_ptr<Node> node) {
  // Every lazy result passes here, so zeros(2**61), arange(2**62) and x + huge_broadcast_view
  // raise at the call instead of crashing when evaluated.
  check_size_fits(node->shape, itemsize(node->dtype));
  const size_t nbytes = static_cast<size_t>(shape_size(node->shape)) * itemsize(node->dtype);
  auto impl = new_impl();
  impl->dtype = node->dtype;
  impl->shape = node->shape;
  impl->strides = node->strides;
  Node* raw = node.get();
  impl->storage = std::allocate_shared<Storage>(pool::Allocator<Storage>(), node->device, nbytes,
                                                std::move(node));
  raw->output = impl->storage.get();
  return Array(std::move(impl));
}

Array Array::wrap(void* ptr, DType dtype, Shape shape, Strides strides, Device device,
                  std::shared_ptr<void> owner, bool writeable, bool shared) {
  check_size_fits(shape, itemsize(dtype));
  // The storage spans the elements the view can reach; `ptr` points at element 0, which need
  // not be the lowest address when strides are negative.
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) {
      lo = hi = 0;
      break;
    }
    const int64_t span = (shape[i] - 1) * strides[i];
    (span < 0 ? lo : hi) += span;
  }
  const int64_t n = shape_size(shape) == 0 ? 0 : hi - lo + 1;
  const size_t isz = itemsize(dtype);
  // Kernels load whole elements: a misaligned address is undefined behaviour on the CPU and a
  // sticky "misaligned address" fault on a GPU. Strides count elements, so element 0 decides.
  if (n != 0 && !is_aligned_for(ptr, dtype)) {
    throw ValueError("cannot use this memory as " + std::string(dtype_name(dtype)) +
                     ": it is not aligned to its " + std::to_string(element_alignment(dtype)) +
                     "-byte elements (copy it to aligned memory first)");
  }
  char* base = static_cast<char*>(ptr) + lo * static_cast<int64_t>(isz);
  auto impl = new_impl();
  impl->dtype = dtype;
  impl->writeable = writeable;
  impl->shape = std::move(shape);
  impl->strides = std::move(strides);
  impl->offset = -lo;
  impl->storage =
      std::allocate_shared<Storage>(pool::Allocator<Storage>(), device,
                                    static_cast<size_t>(n) * isz, base, std::move(owner), shared);
  return Array(std::move(impl));
}

void eval(const std::vector<Array>& arrays) {
  std::vector<Storage*> targets;
  for (const Array& a : arrays) {
    if (a.defined() && a.is_pending()) targets.push_back(a.storage().get());
  }
  if (!targets.empty()) evaluate_storages(targets);
}

}  // namespace accel
