#include "src/core/result_layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "accel/small_vector.hpp"

namespace accel {

namespace {

// NumPy's F_CONTIGUOUS flag: contiguous with the first axis fastest, ignoring the strides of
// length-1 axes (and any array without elements).
bool is_fortran_contiguous(const Shape& shape, const Strides& strides) {
  int64_t s = 1;
  bool contiguous = true;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != s) contiguous = false;
    s = wrapping_mul(s, shape[i]);
  }
  return contiguous;
}

// Whether no comparison of NpyIter's axis sort would move an axis: every operand's absolute
// strides, over its axes of length > 1 that it does not broadcast, never grow from slower to
// faster axes. Then the order is C order. (The common case, checked without sorting.)
bool keeps_c_order(const Shape& shape, std::span<const Strides> operands) {
  for (const Strides& st : operands) {
    int64_t slower = INT64_MAX;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1 || st[d] == 0) continue;
      const int64_t s = std::llabs(st[d]);
      if (s > slower) return false;
      slower = s;
    }
  }
  return true;
}

Strides broadcast_strides(const Array& a, const Shape& shape) {
  const size_t lead = shape.size() - a.shape().size();
  Strides st(shape.size(), 0);
  for (size_t i = 0; i < a.shape().size(); ++i) {
    st[lead + i] = a.shape()[i] == 1 && shape[lead + i] != 1 ? 0 : a.strides()[i];
  }
  return st;
}

// NumPy's stable insertion sort of axes by their operands' strides, the one shared by NpyIter's
// axis ordering (npyiter_find_best_axis_ordering) and concatenate's
// (PyArray_CreateMultiSortedStridePerm). `perm` starts in C order, listed fastest first or
// slowest first as `order` says; an axis moves past another only when some operand says so and
// none says otherwise (ties and conflicts keep C order). `abs_stride(operand, axis)`: the
// operand's absolute stride along the axis, or -1 where it takes no part in comparisons of that
// axis.
enum class AxisOrder { FastestFirst, SlowestFirst };

template <class AbsStride>
SmallVector<int, 6> sorted_axes(int nd, size_t n_operands, AxisOrder order, AbsStride abs_stride) {
  const bool fastest_first = order == AxisOrder::FastestFirst;
  SmallVector<int, 6> perm(nd);
  for (int p = 0; p < nd; ++p) perm[p] = fastest_first ? nd - 1 - p : p;
  for (int i0 = 1; i0 < nd; ++i0) {
    const int a0 = perm[i0];
    int ipos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int a1 = perm[i1];
      bool ambiguous = true, swap = false;
      for (size_t op = 0; op < n_operands; ++op) {
        const int64_t s0 = abs_stride(op, a0), s1 = abs_stride(op, a1);
        if (s0 < 0 || s1 < 0) continue;
        // a0 belongs before a1 only if it is the faster (slower) of the two: any operand
        // against it keeps C order.
        if (fastest_first ? s1 <= s0 : s0 <= s1) {
          swap = false;
        } else if (ambiguous) {
          swap = true;
        }
        ambiguous = false;
      }
      if (ambiguous) continue;
      if (!swap) break;
      ipos = i1;
    }
    for (int i = i0; i > ipos; --i) perm[i] = perm[i - 1];
    perm[ipos] = a0;
  }
  return perm;
}

// NpyIter's axis order over operands of `shape` (their strides broadcast to it): the axes from
// fastest to slowest. An operand takes no part along axes it broadcasts (stride 0) or of length
// 1 (NpyIter counts their stride as 0).
SmallVector<int, 6> k_order_perm(const Shape& shape, std::span<const Strides> operands) {
  const int nd = int(shape.size());
  if (nd <= 1 || keeps_c_order(shape, operands)) {
    SmallVector<int, 6> perm(nd);
    for (int p = 0; p < nd; ++p) perm[p] = nd - 1 - p;
    return perm;
  }
  return sorted_axes(nd, operands.size(), AxisOrder::FastestFirst,
                     [&](size_t op, int axis) -> int64_t {
                       const int64_t s = operands[op][axis];
                       return shape[axis] == 1 || s == 0 ? -1 : std::llabs(s);
                     });
}

}  // namespace

Strides allocated_strides(const Shape& shape, Strides strides) {
  if (shape_size(shape) == 0) std::fill(strides.begin(), strides.end(), 0);
  return strides;
}

Strides new_array_strides(const Shape& shape) {
  return allocated_strides(shape, contiguous_strides(shape));
}

Strides k_order_strides(const Shape& shape, std::span<const Strides> operands) {
  const int nd = int(shape.size());
  if (nd <= 1 || keeps_c_order(shape, operands)) return new_array_strides(shape);
  const SmallVector<int, 6> perm = k_order_perm(shape, operands);
  Strides out(nd);
  int64_t s = 1;
  for (int p = 0; p < nd; ++p) {
    out[perm[p]] = s;
    s = wrapping_mul(s, std::max<int64_t>(shape[perm[p]], 1));
  }
  return allocated_strides(shape, out);
}

Strides reduction_result_strides(const Array& a, uint64_t reduced, bool keepdims) {
  const Strides st = a.strides();
  const SmallVector<int, 6> perm = k_order_perm(a.shape(), std::span<const Strides>(&st, 1));
  Shape out_shape;
  for (int d = 0; d < a.ndim(); ++d) {
    const bool r = (reduced >> d) & 1;
    if (!r || keepdims) out_shape.push_back(r ? 1 : a.shape()[d]);
  }
  // Axis d of the input is axis out_axis[d] of the result (-1: dropped).
  SmallVector<int, 6> out_axis(a.ndim());
  for (int d = 0, k = 0; d < a.ndim(); ++d) {
    out_axis[d] = ((reduced >> d) & 1) && !keepdims ? -1 : k++;
  }
  Strides out(out_shape.size());
  int64_t s = 1;
  for (const int d : perm) {
    if (out_axis[d] < 0) continue;
    out[out_axis[d]] = s;
    s = wrapping_mul(s, out_shape[out_axis[d]]);
  }
  return allocated_strides(out_shape, out);
}

Strides concatenate_strides(const Shape& shape, std::span<const Array> inputs) {
  const int nd = int(shape.size());
  // Concatenate compares an input's strides wherever both lengths differ from 1, even where
  // one stride is 0 (a broadcast input).
  const SmallVector<int, 6> perm =
      sorted_axes(nd, inputs.size(), AxisOrder::SlowestFirst, [&](size_t op, int axis) -> int64_t {
        const Array& in = inputs[op];
        return in.shape()[axis] == 1 ? -1 : std::llabs(in.strides()[axis]);
      });
  Strides out(nd);
  int64_t s = 1;
  for (int p = nd; p-- > 0;) {
    out[perm[p]] = s;
    s = wrapping_mul(s, shape[perm[p]]);
  }
  return allocated_strides(shape, out);
}

Strides elementwise_result_strides(const Shape& shape, std::span<const LayoutInput> inputs,
                                   bool ufunc) {
  if (shape.size() <= 1) return new_array_strides(shape);
  if (ufunc) {
    // NumPy's trivial loop: inputs of the result's shape (0-d ones aside), none cast, each
    // C- or F-contiguous; the result is Fortran-ordered when all are F and not all C.
    bool trivial = true, all_c = true, all_f = true;
    for (const LayoutInput& in : inputs) {
      const Array& a = *in.array;
      if (a.ndim() == 0) continue;
      if (in.cast || a.shape() != shape) {
        trivial = false;
        break;
      }
      all_c = all_c && is_contiguous(a.shape(), a.strides());
      all_f = all_f && is_fortran_contiguous(a.shape(), a.strides());
    }
    if (trivial && (all_c || all_f))
      return allocated_strides(shape, all_c ? contiguous_strides(shape) : fortran_strides(shape));
  }
  // Inputs in C order (the common case) need no sort, nor the vector of their strides.
  bool c_order = true;
  for (const LayoutInput& in : inputs) {
    const Strides st = broadcast_strides(*in.array, shape);
    c_order = c_order && keeps_c_order(shape, std::span<const Strides>(&st, 1));
  }
  if (c_order) return new_array_strides(shape);
  std::vector<Strides> operands;
  for (const LayoutInput& in : inputs) operands.push_back(broadcast_strides(*in.array, shape));
  return k_order_strides(shape, operands);
}

Strides fortran_strides(const Shape& shape) {
  Strides out(shape.size());
  int64_t s = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    out[d] = s;
    s = wrapping_mul(s, std::max<int64_t>(shape[d], 1));
  }
  return allocated_strides(shape, out);
}

Strides sorted_stride_strides(const Shape& shape, const Strides& strides) {
  SmallVector<int, 6> perm(shape.size());  // slowest first
  for (size_t d = 0; d < shape.size(); ++d) perm[d] = int(d);
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int a, int b) { return std::llabs(strides[a]) > std::llabs(strides[b]); });
  Strides out(shape.size());
  int64_t s = 1;
  for (size_t i = perm.size(); i-- > 0;) {
    out[perm[i]] = s;
    s = wrapping_mul(s, std::max<int64_t>(shape[perm[i]], 1));
  }
  return allocated_strides(shape, out);
}

Strides like_strides(const Shape& shape, const Shape& proto_shape, const Strides& proto_strides) {
  if (shape.size() <= 1 || is_contiguous(proto_shape, proto_strides))
    return new_array_strides(shape);
  if (is_fortran_contiguous(proto_shape, proto_strides)) return fortran_strides(shape);
  return sorted_stride_strides(shape, proto_strides);
}

Strides like_strides(const Shape& shape, const Strides& strides) {
  return like_strides(shape, shape, strides);
}

}  // namespace accel
