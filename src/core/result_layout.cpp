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

Strides fortran_strides(const Shape& shape) {
  Strides out(shape.size());
  int64_t s = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    out[d] = s;
    s = wrapping_mul(s, std::max<int64_t>(shape[d], 1));
  }
  return out;
}

Strides broadcast_strides(const Array& a, const Shape& shape) {
  const size_t lead = shape.size() - a.shape().size();
  Strides st(shape.size(), 0);
  for (size_t i = 0; i < a.shape().size(); ++i) {
    st[lead + i] = a.shape()[i] == 1 && shape[lead + i] != 1 ? 0 : a.strides()[i];
  }
  return st;
}

// NpyIter's axis order over operands of `shape` (their strides broadcast to it): the axes from
// fastest to slowest. Its stable insertion sort starts from C order (the last axis fastest); an
// operand's stride counts as 0 along length-1 axes, as in NpyIter.
SmallVector<int, 6> k_order_perm(const Shape& shape, std::span<const Strides> operands) {
  const int nd = int(shape.size());
  SmallVector<int, 6> perm(nd);  // perm[p]: the axis at iteration position p, fastest first
  for (int p = 0; p < nd; ++p) perm[p] = nd - 1 - p;
  if (nd <= 1 || keeps_c_order(shape, operands)) return perm;
  const auto stride = [&](const Strides& st, int axis) { return shape[axis] == 1 ? 0 : st[axis]; };
  for (int i0 = 1; i0 < nd; ++i0) {
    const int a0 = perm[i0];
    int ipos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int a1 = perm[i1];
      bool ambiguous = true, swap = false;
      for (const Strides& st : operands) {
        const int64_t s0 = stride(st, a0), s1 = stride(st, a1);
        if (s0 == 0 || s1 == 0) continue;
        // Any operand against the swap keeps C order.
        if (std::llabs(s1) <= std::llabs(s0)) {
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
  SmallVector<int, 6> perm(nd);  // slowest first
  for (int d = 0; d < nd; ++d) perm[d] = d;
  for (int i0 = 1; i0 < nd; ++i0) {
    const int a0 = perm[i0];
    int ipos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int a1 = perm[i1];
      bool ambiguous = true, swap = false;
      for (const Array& in : inputs) {
        if (in.shape()[a0] == 1 || in.shape()[a1] == 1) continue;
        // Any input against the swap keeps C order.
        if (std::llabs(in.strides()[a0]) <= std::llabs(in.strides()[a1])) {
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

Strides like_strides(const Shape& shape, const Strides& strides) {
  if (shape.size() <= 1 || is_contiguous(shape, strides)) return new_array_strides(shape);
  if (is_fortran_contiguous(shape, strides))
    return allocated_strides(shape, fortran_strides(shape));
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

}  // namespace accel
