// The indexing family of backend operations: integer gathers and scatters at computed offsets
// and boolean selection (compaction). The front-ends (src/core/ops/advanced_indexing.cpp)
// describe each as an IndexMap over materialized arrays and run it eagerly on the device's
// backend, in stream order.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/array.hpp"

namespace accel {

// What an index outside [-len, len) does: raise IndexError (NumPy's default), wrap around, or
// clip to the ends (numpy.take's mode=).
enum class IndexMode : uint8_t { Raise, Wrap, Clip };

// One integer index array and the source dimension it selects along.
struct IndexOperand {
  Array index;     // int64, materialized, the iteration shape (usually a broadcast view)
  int64_t stride;  // of the selected source dimension, in elements
  int64_t len;     // of that dimension
  int axis;        // of the array the user indexed, for error messages
};

// The element offset into `base` for iteration index i (coordinates c_d over dense's shape):
//   base.offset() + sum_d c_d * base_strides[d] + sum_j normalize(index_j[c]) * stride_j.
// A gather writes dense[c] = base[offset]; a scatter base[offset] = dense[c].
struct IndexMap {
  Array base;            // materialized; its storage, dtype and offset are used
  Strides base_strides;  // per iteration dimension (0 where only the indices move)
  Array dense;  // materialized, the iteration shape: the output of a gather (contiguous), the
                // values of a scatter (any strides, already in base's dtype)
  std::vector<IndexOperand> indices;
  IndexMode mode = IndexMode::Raise;
};

// The map with dimensions merged where every operand walks them alike and length-1 dimensions
// dropped: what the loops iterate over. strides[0] is base, [1] dense, [2 + j] index j.
struct IndexLoop {
  Shape shape;
  std::vector<Strides> strides;
  int64_t size = 0;
};
IndexLoop make_index_loop(const IndexMap& map);

// "index 7 is out of bounds for axis 0 with size 5" (NumPy's wording).
[[noreturn]] void throw_index_out_of_bounds(int64_t index, int axis, int64_t len);

class IndexingBackend {
 public:
  virtual ~IndexingBackend() = default;
  // Both throw IndexError (mode Raise) for an index out of range, before returning.
  virtual void gather(const IndexMap& map) = 0;
  // Duplicate indices: the last write wins on the CPU (NumPy's order); any one on a GPU.
  virtual void scatter(const IndexMap& map) = 0;
  // The elements of `values` where `mask` is true, in order, as a new 1-D array; with
  // `values` undefined, their flat indices (int64). Both contiguous, of the same size.
  virtual Array select(const Array& mask, const Array& values) = 0;
  // a[mask] = values (boolean mask assignment): `a`, `mask` (bool, a's size) and `values` (a's
  // dtype) contiguous and materialized. When the mask's true elements are as many as `values`,
  // they take its elements in order; otherwise nothing is written. Returns the mask's count.
  // The default selects the flat positions and scatters (src/core/ops/advanced_indexing.cpp).
  virtual int64_t place(const Array& a, const Array& mask, const Array& values);
};

}  // namespace accel
