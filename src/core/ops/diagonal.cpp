// diagonal: a view whose last axis walks a diagonal of two axes (stride = the sum of theirs),
// as numpy.diagonal; read-only, as NumPy's.
#include <algorithm>
#include <string>

#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"

namespace accel {

Array diagonal(const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
  if (a.ndim() < 2) {
    throw ValueError("diag requires an array of at least two dimensions (got " +
                     std::to_string(a.ndim()) + ")");
  }
  const int ax1 = normalize_axis(axis1, a.ndim()), ax2 = normalize_axis(axis2, a.ndim());
  if (ax1 == ax2) throw ValueError("axis1 and axis2 cannot be the same");
  const int64_t n1 = a.shape()[ax1], n2 = a.shape()[ax2];
  const int64_t s1 = a.strides()[ax1], s2 = a.strides()[ax2];
  int64_t start = a.offset(), len = 0;
  if (offset >= 0) {
    len = std::max<int64_t>(0, std::min(n1, n2 - offset));
    if (len > 0) start += offset * s2;
  } else {
    len = std::max<int64_t>(0, std::min(n1 + offset, n2));
    if (len > 0) start -= offset * s1;
  }
  Shape shape;
  Strides strides;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == ax1 || d == ax2) continue;
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  shape.push_back(len);
  strides.push_back(s1 + s2);
  return a.view(shape, strides, len > 0 ? start : a.offset()).as_readonly();
}

}  // namespace accel
