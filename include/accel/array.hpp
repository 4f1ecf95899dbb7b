// Array: a handle to a view (dtype, shape, strides, offset) of a Storage.
//
// A Storage is one allocation. It is either materialized (it has memory) or pending: a graph
// Node will compute it when something needs the data. Views of a pending array share its
// pending Storage, so they see the result once it exists, exactly as NumPy views would.
// Arrays are cheap handles (one shared_ptr), like MLX's array: copying one never copies data.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "accel/device.hpp"
#include "accel/dtype.hpp"
#include "accel/scalar.hpp"
#include "accel/shape.hpp"

namespace accel {

struct Node;
class Storage;

class Array {
 public:
  Array() = default;

  DType dtype() const;
  const Shape& shape() const;
  const Strides& strides() const;  // in elements
  int64_t offset() const;          // in elements, from the start of the storage
  int ndim() const { return static_cast<int>(shape().size()); }
  int64_t size() const { return shape_size(shape()); }
  size_t nbytes() const { return static_cast<size_t>(size()) * itemsize(dtype()); }
  Device device() const;
  bool writeable() const;
  bool is_contiguous() const { return accel::is_contiguous(shape(), strides()); }

  // True while the data has not been computed yet.
  bool is_pending() const;
  // Computes the data if it is pending (and everything it depends on).
  void eval() const;
  // Pointer to element 0 on the array's device; evaluates first.
  void* data() const;
  template <class T>
  T* data() const {
    return static_cast<T*>(data());
  }

  // A view with another layout of the same storage (no checks; ops validate first).
  Array view(DType dtype, Shape shape, Strides strides, int64_t offset) const;
  Array view(Shape shape, Strides strides, int64_t offset) const;
  Array as_readonly() const;

  const std::shared_ptr<Storage>& storage() const;
  bool defined() const { return impl_ != nullptr; }
  bool same_view(const Array& other) const;

  // A new array over new (uninitialized) memory on `device`.
  static Array empty(Shape shape, DType dtype, Device device);
  // A view over an existing storage.
  static Array from_storage(std::shared_ptr<Storage> storage, DType dtype, Shape shape,
                            Strides strides, int64_t offset, bool writeable = true);
  // The output of a pending node: contiguous, over a new pending storage.
  static Array pending(std::shared_ptr<Node> node);
  // Wraps memory owned elsewhere; `owner` keeps it alive (and is released with the storage).
  // `shared`: whether anything but `owner` may reach the memory (Storage::is_shared).
  static Array wrap(void* ptr, DType dtype, Shape shape, Strides strides, Device device,
                    std::shared_ptr<void> owner, bool writeable, bool shared = true);

  struct Impl;
  Impl* impl() const { return impl_.get(); }
  long use_count() const { return impl_.use_count(); }

 private:
  explicit Array(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

struct Array::Impl {
  DType dtype;
  bool writeable = true;
  Shape shape;
  Strides strides;
  int64_t offset = 0;
  std::shared_ptr<Storage> storage;
  // The copy that an integer index of every axis returns (a[1, 2]): it stands for NumPy's
  // immutable scalar, so in-place operators on it rebind the name instead of writing.
  bool scalar_value = false;
};

// Evaluates all pending arrays given, together (one plan: shared work is done once).
void eval(const std::vector<Array>& arrays);

}  // namespace accel
