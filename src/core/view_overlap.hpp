// Whether two views of one storage can touch the same bytes, from their byte ranges: an
// assignment whose value reads only ranges disjoint from the destination's can compute straight
// into it (x[0, 1:-1] = -x[1, 1:-1]), one that reads an overlapping other view cannot.
#pragma once

#include <algorithm>
#include <cstdint>

#include "accel/array.hpp"

namespace accel {

// The bytes [first, last) that the elements of `a` span within its storage; empty for a view
// without elements.
inline std::pair<int64_t, int64_t> byte_range(const Array& a) {
  if (a.size() == 0) return {0, 0};
  const int64_t item = int64_t(itemsize(a.dtype()));
  int64_t lo = a.offset(), hi = a.offset();
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t reach = (a.shape()[d] - 1) * a.strides()[d];
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo * item, hi * item + item};
}

// Whether views `a` and `b` of the same storage may share bytes (conservative: ranges that
// interleave without a common element count as overlapping).
inline bool byte_ranges_overlap(const Array& a, const Array& b) {
  const auto [a0, a1] = byte_range(a);
  const auto [b0, b1] = byte_range(b);
  return a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
}

}  // namespace accel
