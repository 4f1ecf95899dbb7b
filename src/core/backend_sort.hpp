// The "library" operations behind sorting, searching, sets and cumulative ops: what the op
// front-ends (src/core/ops/sorting.cpp, sets.cpp, cumulative.cpp) need from a backend.
//
// Every array given is materialized, contiguous, with offset 0 data at Array::data(), on the
// backend's device. Queued devices (CUDA) run the work in stream order and return at once,
// except where a count must reach the host (select_flagged).
#pragma once

#include <cstdint>

#include "accel/array.hpp"

namespace accel {

enum class ScanOp : uint8_t { Sum, Prod };

class SortScanOps {
 public:
  virtual ~SortScanOps() = default;

  // Sorts each of `rows` rows of `len` elements of `keys`, stably, in NumPy's order (NaN last;
  // descending: the reverse order, equal elements still in input order). `sorted` (keys'
  // dtype) and `indices` (int64 positions within each row) may each be undefined.
  virtual void sort_rows(const Array& keys, int64_t rows, int64_t len, bool descending,
                         const Array& sorted, const Array& indices) = 0;

  // Inclusive scan of each of `rows` rows of `len` elements; `in` and `out` have the same
  // dtype (integers are given as int64 or uint64) and may be the same array.
  virtual void scan_rows(const Array& in, const Array& out, int64_t rows, int64_t len,
                         ScanOp op) = 0;

  // Copies the elements of `in` whose flag (bool, same size) is true to the start of `out`, in
  // order, and returns how many; `in` undefined selects the int64 positions themselves.
  virtual int64_t select_flagged(const Array& in, const Array& flags, const Array& out) = 0;

  // out[i] = src[index[i]] over flat, contiguous arrays; the indices are known to be valid.
  virtual void gather(const Array& src, const Array& index, const Array& out) = 0;

  // out[i] (int64) = where values[i] goes in the ascending `sorted` (through `sorter` when it
  // is defined) to keep it sorted: before equal elements (left) or after them (right).
  virtual void searchsorted(const Array& sorted, const Array& sorter, const Array& values,
                            bool right, const Array& out) = 0;
};

}  // namespace accel
