// Sorting and searching: sort, argsort, partition, argpartition, searchsorted. Each computes
// its inputs, then runs eagerly through the backend's SortScanOps (src/core/backend_sort.hpp).
#include <string>

#include "accel/errors.hpp"
#include "src/core/backend.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/ops/library_ops.hpp"
#include "src/core/result_layout.hpp"

namespace accel {

namespace detail {

SortScanOps& sort_scan_ops(Device device) { return backend_for(device).sort_scan(); }

Array computed(const Array& a) {
  Array c = a.is_contiguous() ? a : copy(a);
  c.eval();
  return c;
}

Array computed_rows(const Array& a, int axis) {
  return computed(axis == a.ndim() - 1 ? a : moveaxis(a, {axis}, {-1}));
}

std::pair<Array, Array> sort_last_axis(const Array& rows, bool descending, bool want_values,
                                       bool want_indices) {
  const int64_t len = rows.ndim() ? rows.shape().back() : 1;
  const int64_t count = len ? rows.size() / len : 0;
  Array values = want_values ? Array::empty(rows.shape(), rows.dtype(), rows.device()) : Array();
  Array indices = want_indices ? Array::empty(rows.shape(), DType::Int64, rows.device()) : Array();
  sort_scan_ops(rows.device()).sort_rows(rows, count, len, descending, values, indices);
  return {values, indices};
}

Array select_flagged(const Array& in, const Array& flags) {
  const Array f = computed(flags);
  const Array src = in.defined() ? computed(in) : Array();
  const DType dt = in.defined() ? in.dtype() : DType::Int64;
  const Array out = Array::empty({f.size()}, dt, f.device());
  const int64_t n = sort_scan_ops(f.device()).select_flagged(src, f, out);
  return out.view(Shape{n}, Strides{1}, out.offset());
}

Array gather(const Array& src, const Array& index) {
  const Array s = computed(src), i = computed(index);
  const Array out = Array::empty(i.shape(), s.dtype(), s.device());
  if (out.size()) sort_scan_ops(s.device()).gather(s, i, out);
  return out;
}

}  // namespace detail

namespace {

// Sorted values and/or positions along `axis` (none: the flattened array).
std::pair<Array, Array> sort_along(const Array& a, std::optional<int64_t> axis, bool descending,
                                   bool want_values, bool want_indices) {
  const Array src = axis ? a : ravel(a);
  const int ax = normalize_axis(axis.value_or(0), src.ndim());
  auto [values, indices] =
      detail::sort_last_axis(detail::computed_rows(src, ax), descending, want_values, want_indices);
  // The rows come back C-ordered with the sorted axis last. NumPy sorts a copy of `src` in its
  // memory order (order='K') and returns argsort's positions in C order.
  const auto along = [&](const Array& r) {
    return ax == src.ndim() - 1 ? r : moveaxis(r, {-1}, {ax});
  };
  if (values.defined()) {
    values = with_strides(along(values), values.dtype(), like_strides(src.shape(), src.strides()));
  }
  if (indices.defined()) {
    indices = with_strides(along(indices), DType::Int64, new_array_strides(src.shape()));
  }
  return {values, indices};
}

// NumPy's check of partition's kth: each within [-n, n) of the axis' length.
void check_kth(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis) {
  const int64_t n = axis ? a.shape()[normalize_axis(*axis, a.ndim())] : a.size();
  for (const int64_t k : kth) {
    if (k < -n || k >= n) {
      throw ValueError("kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) + ")");
    }
  }
}

}  // namespace

Array sort(const Array& a, std::optional<int64_t> axis, bool descending) {
  return sort_along(a, axis, descending, true, false).first;
}

Array argsort(const Array& a, std::optional<int64_t> axis, bool descending) {
  // NumPy's argsort takes a 0-d array along an axis as one of shape (1,); its sort does not.
  if (axis && a.ndim() == 0) return argsort(reshape(a, Shape{1}), axis, descending);
  return sort_along(a, axis, descending, false, true).second;
}

// A full sort is a valid partition for every kth (NumPy promises only the partition property).
Array partition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis) {
  if (axis && a.ndim() == 0) normalize_axis(*axis, 0);  // AxisError, as NumPy
  check_kth(a, kth, axis);
  return sort(a, axis);
}

Array argpartition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis) {
  if (axis && a.ndim() == 0) normalize_axis(*axis, 0);
  check_kth(a, kth, axis);
  return argsort(a, axis);
}

Array searchsorted(const Array& a, const ArrayOrScalar& v, bool right,
                   const std::optional<Array>& sorter) {
  if (a.ndim() != 1) {
    throw ValueError("searchsorted needs a one-dimensional sorted array, got " +
                     std::to_string(a.ndim()) + " dimensions (object too deep for desired array)");
  }
  const ArrayOrScalar sorted_op(a);
  const DType dt = result_type({sorted_op, v});
  const Device device = a.device();
  const Array values = v.is_array() ? v.array() : full({}, v.scalar(), dt, device);
  if (values.device() != device) {
    throw ValueError("searchsorted: the values are on " + values.device().str() +
                     " and the sorted array on " + device.str());
  }
  const Array s = detail::computed(cast_to(a, dt));
  const Array vals = detail::computed(cast_to(values, dt));
  Array perm;
  if (sorter) {
    if (sorter->ndim() != 1 || sorter->size() != a.size()) {
      throw ValueError("sorter must be one-dimensional with the length of the sorted array (" +
                       std::to_string(a.size()) + ")");
    }
    if (!is_integer(sorter->dtype())) {
      throw TypeError("sorter must hold integers, got " + std::string(dtype_name(sorter->dtype())));
    }
    if (sorter->device() != device) throw ValueError("sorter is on another device than the array");
    perm = detail::computed(cast_to(*sorter, DType::Int64));
    // An index out of range would read outside the array: checked (one wait on queued devices).
    if (perm.size()) {
      const Array bad = any(logical_or(less(perm, int64_t(0)), greater_equal(perm, a.size())));
      bool host = false;
      to_host(bad, &host);
      if (host) throw ValueError("Sorter index out of range.");
    }
  }
  const Array out = Array::empty(vals.shape(), DType::Int64, device);
  if (out.size()) detail::sort_scan_ops(device).searchsorted(s, perm, vals, right, out);
  return out;
}

}  // namespace accel
