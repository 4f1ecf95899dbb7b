// Shared pieces of the CUB library: temporary-storage carving, dtype dispatch, row iterators.
#pragma once

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/sort_ops.h"
#include "src/cuda/libraries/cub/accel_cub.h"

namespace accel::cub_lib {

// Carves 256-byte aligned pieces out of one temporary allocation. With a null base it only
// adds up the sizes (the query pass of CUB's temporary-storage protocol).
class TempCarver {
 public:
  explicit TempCarver(void* base) : base_(static_cast<char*>(base)) {}
  template <class T>
  T* take(size_t count) {
    const size_t at = (used_ + 255) & ~size_t(255);
    used_ = at + count * sizeof(T);
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }
  void* take_bytes(size_t bytes) { return take<char>(bytes); }
  bool querying() const { return base_ == nullptr; }
  size_t used() const { return used_; }

 private:
  char* base_;
  size_t used_ = 0;
};

// Ends a call: in the query pass stores the bytes needed.
inline int finish(TempCarver& carver, size_t* temp_bytes, cudaError_t status = cudaSuccess) {
  if (status != cudaSuccess) return int(status);
  if (carver.querying()) *temp_bytes = carver.used() + 256;
  return int(cudaGetLastError());
}

#define ACCEL_CUB_TRY(expr)                                      \
  do {                                                           \
    const cudaError_t accel_status_ = (expr);                    \
    if (accel_status_ != cudaSuccess) return int(accel_status_); \
  } while (0)

// Row starts and ends (row * len) and row numbers (i / len), as iterators over 0, 1, 2, ...
struct RowOffset {
  int64_t len;
  __host__ __device__ int64_t operator()(int64_t row) const { return row * len; }
};
struct RowOf {
  int64_t len;
  __host__ __device__ int64_t operator()(int64_t i) const { return i / len; }
};
inline auto row_begins(int64_t len) {
  return thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), RowOffset{len});
}
inline auto row_ends(int64_t len) {
  return thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(1), RowOffset{len});
}
inline auto row_numbers(int64_t len) {
  return thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), RowOf{len});
}

// An opaque element of `Bytes` bytes, for algorithms that only move data.
template <int Bytes>
struct alignas(Bytes) Blob {
  unsigned char b[Bytes];
};

// Calls f(type_tag<Blob<N>>{}) for an element size; returns false for other sizes.
template <class F>
bool dispatch_size(size_t elem_size, F&& f) {
  switch (elem_size) {
    case 1:
      f(type_tag<uint8_t>{});
      return true;
    case 2:
      f(type_tag<uint16_t>{});
      return true;
    case 4:
      f(type_tag<uint32_t>{});
      return true;
    case 8:
      f(type_tag<uint64_t>{});
      return true;
    case 16:
      f(type_tag<Blob<16>>{});
      return true;
    default:
      return false;
  }
}

inline unsigned grid_for(int64_t n, unsigned block) {
  const int64_t blocks = (n + block - 1) / block;
  return unsigned(blocks < 65536 * 8 ? (blocks > 0 ? blocks : 1) : 65536 * 8);
}

}  // namespace accel::cub_lib
