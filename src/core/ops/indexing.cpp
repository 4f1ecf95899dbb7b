// Basic indexing (integers, slices, Ellipsis, newaxis) as views, and assignment through views.
#include <algorithm>
#include <string>

#include "accel/errors.hpp"
#include "src/core/eager_write.hpp"
#include "src/core/eval.hpp"
#include "src/core/ops/advanced_indexing.hpp"
#include "src/core/ops/common.hpp"

namespace accel {

namespace {

// Python's PySlice_AdjustIndices (missing bounds as PySlice_Unpack fills them): clamps start
// and stop for `len`, returns the element count, never overflowing for extreme bounds.
int64_t adjust_slice(const Slice& s, int64_t len, int64_t& start, int64_t& step) {
  step = s.step.value_or(1);
  if (step == 0) throw ValueError("slice step cannot be zero");
  if (step < -INT64_MAX) step = -INT64_MAX;
  start = s.start.value_or(step < 0 ? INT64_MAX : 0);
  int64_t stop = s.stop.value_or(step < 0 ? INT64_MIN : INT64_MAX);
  auto clamp = [&](int64_t& v) {
    if (v < 0) {
      v += len;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= len) {
      v = step < 0 ? len - 1 : len;
    }
  };
  clamp(start);
  clamp(stop);
  if (step < 0) return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  return start < stop ? (stop - start - 1) / step + 1 : 0;
}

}  // namespace

Array index(const Array& a, const std::vector<Index>& indices) {
  if (has_array_index(indices)) return advanced_index(a, indices);
  const int consumed = check_index_arity(a, indices);
  Shape shape;
  Strides strides;
  int64_t offset = a.offset();
  int dim = 0;
  auto take_full = [&](int count) {
    for (int i = 0; i < count; ++i, ++dim) {
      shape.push_back(a.shape()[dim]);
      strides.push_back(a.strides()[dim]);
    }
  };
  for (const Index& ix : indices) {
    if (const int64_t* i = std::get_if<int64_t>(&ix)) {
      offset += normalize_index(*i, dim, a.shape()[dim]) * a.strides()[dim];
      ++dim;
    } else if (const Slice* s = std::get_if<Slice>(&ix)) {
      int64_t start, step;
      const int64_t n = adjust_slice(*s, a.shape()[dim], start, step);
      if (n > 0) offset += start * a.strides()[dim];
      shape.push_back(n);
      int64_t stride;  // a huge step selects at most one element: any stride will do then
      if (__builtin_mul_overflow(a.strides()[dim], step, &stride)) stride = a.strides()[dim];
      strides.push_back(stride);
      ++dim;
    } else if (std::holds_alternative<NewAxis>(ix)) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      take_full(a.ndim() - consumed);
    }
  }
  take_full(a.ndim() - dim);
  return a.view(shape, strides, offset);
}

void assign(const Array& dst, ArrayOrScalar value) {
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  Array src;
  if (value.is_array()) {
    Array v = std::move(value).array();
    if (v.device() != dst.device()) {
      throw ValueError("cannot assign an array on " + v.device().str() + " into an array on " +
                       dst.device().str() + "; move it with .to(device)");
    }
    bool ok = v.ndim() <= dst.ndim();
    for (int i = 0; ok && i < v.ndim(); ++i) {
      const int64_t s = v.shape()[v.ndim() - 1 - i], t = dst.shape()[dst.ndim() - 1 - i];
      ok = s == t || s == 1;
    }
    if (!ok) {
      // NumPy also accepts extra leading length-1 dimensions on the value.
      Array squeezed = v;
      while (squeezed.ndim() > dst.ndim() && squeezed.shape()[0] == 1)
        squeezed = squeeze(squeezed, std::vector<int64_t>{0});
      if (squeezed.ndim() == v.ndim() || squeezed.ndim() > dst.ndim()) {
        throw ValueError("could not broadcast input array from shape " + shape_str(v.shape()) +
                         " into shape " + shape_str(dst.shape()));
      }
      return assign(dst, squeezed);
    }
    // The view written back onto itself (Python's `a[i] += v` stores the updated a[i] into a[i]
    // after the in-place add): nothing changes, and nothing is evaluated.
    if (v.same_view(dst)) return;
    src = v.shape() == dst.shape() ? std::move(v) : broadcast_view(v, dst.shape());
    if (eager::try_assign(dst, &src, nullptr)) return;
  } else {
    if (eager::try_assign(dst, nullptr, &value.scalar())) return;
    src = full(dst.shape(), value.scalar(), dst.dtype(), dst.device());
  }
  if (dst.size() == 0) return;
  evaluate_into(dst, std::move(src));
}

void index_assign(const Array& a, const std::vector<Index>& indices, ArrayOrScalar value) {
  if (has_array_index(indices)) return advanced_index_assign(a, indices, std::move(value));
  // An integer for every dimension selects one element, which NumPy sets as a scalar: a value
  // with dimensions is refused even when it holds one element (a[0, 1] = [5]).
  const bool element = int(indices.size()) == a.ndim() &&
                       std::all_of(indices.begin(), indices.end(), [](const Index& ix) {
                         return std::holds_alternative<int64_t>(ix);
                       });
  const Array dst = index(a, indices);
  if (element && value.is_array() && value.array().ndim() > 0) {
    // NumPy converts the value with complex() for a complex element, float()/int() otherwise.
    if (is_complex(a.dtype()))
      throw TypeError("only 0-dimensional arrays can be converted to Python scalars");
    throw ValueError("setting an array element with a sequence.");
  }
  assign(dst, std::move(value));
}

}  // namespace accel
