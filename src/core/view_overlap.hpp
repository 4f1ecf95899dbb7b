// Whether two views of one storage can touch the same elements: an assignment whose value reads
// only elements the destination does not hold can compute straight into it (x[0, 1:-1] =
// -x[1, 1:-1], x[1:-1, 0] = -x[1:-1, 1]), one that reads an overlapping other view cannot.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>

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

// Whether views `a` and `b` of the same storage may share an element. Exact where both views
// step by multiples of one number m (the gcd of their strides over dimensions longer than one)
// and their first elements differ modulo m: every element of either lies at its first element's
// residue, so none is shared (columns of a grid: x[1:-1, 0] and x[1:-1, 1], whose byte ranges
// interleave). Otherwise as byte_ranges_overlap. Views of another element size are compared by
// bytes alone.
inline bool may_share_elements(const Array& a, const Array& b) {
  if (!byte_ranges_overlap(a, b)) return false;
  if (itemsize(a.dtype()) != itemsize(b.dtype())) return true;
  int64_t m = 0;
  for (const Array* v : {&a, &b}) {
    for (int d = 0; d < v->ndim(); ++d) {
      if (v->shape()[d] > 1)
        m = std::gcd(m, v->strides()[d] < 0 ? -v->strides()[d] : v->strides()[d]);
    }
  }
  if (m == 0) return a.offset() == b.offset();  // one element each
  return m == 1 || a.offset() % m == b.offset() % m;
}

}  // namespace accel
