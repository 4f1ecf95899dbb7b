// Boolean selection: nonzero and the functions built on it (flatnonzero, argwhere, compress,
// extract), and count_nonzero. A selection is one compaction pass on the device's backend.
#include <string>

#include "accel/errors.hpp"
#include "src/core/backend.hpp"
#include "src/core/ops/advanced_indexing.hpp"
#include "src/core/ops/common.hpp"

namespace accel {

namespace {

Array contiguous(const Array& a) { return a.is_contiguous() ? a : copy(a); }

}  // namespace

Array select_true(const Array& mask, const Array& values) {
  Array m = is_bool(mask.dtype()) ? contiguous(mask) : astype(mask, DType::Bool);
  m.eval();
  if (m.size() == 0) {
    return Array::empty(Shape{0}, values.defined() ? values.dtype() : DType::Int64, m.device());
  }
  Array v;
  if (values.defined()) {
    v = contiguous(values);
    v.eval();
  }
  return backend_for(m.device()).indexing().select(m, v);
}

std::vector<Array> nonzero(const Array& a) {
  if (a.ndim() == 0) {
    throw ValueError(
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
        "instead. If the context of this error is of the form `arr[nonzero(cond)]`, just use "
        "`arr[cond]`.");
  }
  const Array flat = select_true(a);
  if (a.ndim() == 1) return {flat};
  // Coordinates from flat C-order indices: (i // stride_d) % shape_d, fused per dimension.
  std::vector<Array> out;
  const Strides cs = contiguous_strides(a.shape());
  for (int d = 0; d < a.ndim(); ++d) {
    Array c = d == a.ndim() - 1 ? flat : floor_divide(flat, cs[d]);
    if (d > 0) c = remainder(c, a.shape()[d]);
    out.push_back(c);
  }
  return out;
}

Array flatnonzero(const Array& a) { return select_true(a); }

Array argwhere(const Array& a) {
  if (a.ndim() == 0) {
    bool t = false;
    to_host(astype(a, DType::Bool), &t);
    return zeros(Shape{t ? 1 : 0, 0}, DType::Int64, a.device());
  }
  return stack(nonzero(a), 1);
}

Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis) {
  if (condition.ndim() != 1) throw ValueError("condition must be a 1-d array");
  const Array idx =
      select_true(condition.device() == a.device() ? condition : to_device(condition, a.device()));
  return take(a, idx, axis);
}

Array extract(const Array& condition, const Array& a) {
  const Array cond =
      condition.device() == a.device() ? condition : to_device(condition, a.device());
  return take(ravel(a), select_true(ravel(cond)));
}

Array count_nonzero(const Array& a, const Axes& axis, bool keepdims) {
  return sum(astype(a, DType::Bool), axis, keepdims, DType::Int64);
}

}  // namespace accel
