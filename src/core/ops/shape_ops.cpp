// Manipulation: reshape, transposes, squeeze/expand_dims, broadcasting, concatenate/stack,
// real/imag. All are views when the layout allows (NumPy's rules), so they cost nothing.
#include <algorithm>
#include <numeric>
#include <string>

#include "accel/errors.hpp"
#include "src/core/eager.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/result_layout.hpp"

namespace accel {

namespace {

// NumPy's _attempt_nocopy_reshape: strides for `shape` over a's memory, if a view can have it.
std::optional<Strides> view_strides(const Array& a, const Shape& shape) {
  Shape old_dims;
  Strides old_strides;
  for (int i = 0; i < a.ndim(); ++i) {
    if (a.shape()[i] != 1) {
      old_dims.push_back(a.shape()[i]);
      old_strides.push_back(a.strides()[i]);
    }
  }
  const size_t oldnd = old_dims.size(), newnd = shape.size();
  Strides out(newnd, 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    int64_t np = shape[ni], op = old_dims[oi];
    while (np != op) {
      if (np < op) {
        np *= shape[nj++];
      } else {
        op *= old_dims[oj++];
      }
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok) {
      if (old_strides[ok] != old_dims[ok + 1] * old_strides[ok + 1]) return std::nullopt;
    }
    out[nj - 1] = old_strides[oj - 1];
    for (size_t nk = nj - 1; nk > ni; --nk) out[nk - 1] = out[nk] * shape[nk];
    ni = nj++;
    oi = oj++;
  }
  const int64_t last = ni >= 1 ? out[ni - 1] : 1;
  for (size_t nk = ni; nk < newnd; ++nk) out[nk] = last;
  return out;
}

Shape resolve_shape(const Array& a, const Shape& shape) {
  // The known lengths must multiply without overflow ((2**62, 2**62, 0) is too big, as NumPy
  // says) before the products below can be trusted.
  Shape known_dims;
  for (int64_t d : shape) {
    if (d >= 0) known_dims.push_back(d);
  }
  check_size_fits(known_dims, 1);
  Shape out = shape;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) {  // NumPy takes any negative length as the unknown one, not only -1
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = int(i);
    } else {
      known *= out[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || a.size() % known != 0) {
      throw ValueError("cannot reshape array of size " + std::to_string(a.size()) + " into shape " +
                       shape_str(shape));
    }
    out[unknown] = a.size() / known;
  }
  if (shape_size(out) != a.size()) {
    throw ValueError("cannot reshape array of size " + std::to_string(a.size()) + " into shape " +
                     shape_str(shape));
  }
  return out;
}

// NumPy's broadcast_to: the view nditer gives of `a` over `shape` (itviews), where every axis of
// length 1, broadcast or not, has stride 0.
Array iterator_view(const Array& a, const Shape& shape) {
  const size_t lead = shape.size() - a.shape().size();
  Strides strides(shape.size(), 0);
  for (size_t i = 0; i < a.shape().size(); ++i) {
    strides[lead + i] = a.shape()[i] == 1 ? 0 : a.strides()[i];
  }
  return a.view(shape, strides, a.offset());
}

Array permuted(const Array& a, const std::vector<int>& perm) {
  Shape shape;
  Strides strides;
  for (int p : perm) {
    shape.push_back(a.shape()[p]);
    strides.push_back(a.strides()[p]);
  }
  return a.view(shape, strides, a.offset());
}

}  // namespace

Array reshape(const Array& a, const Shape& shape) {
  const Shape target = resolve_shape(a, shape);
  // NumPy keeps the strides only for a shape written out equal to a's (PyArray_Newshape's
  // quick check, before -1 is resolved): reshape(-1) of a reversed length-1 array is C's.
  if (shape == a.shape()) return a.view(a.shape(), a.strides(), a.offset());
  // As NumPy's reshape: a C-contiguous array (any without elements too) takes C order's strides,
  // length-1 axes included; another keeps what _attempt_nocopy_reshape gives.
  if (a.size() == 0 || a.is_contiguous()) {
    return a.view(target, contiguous_strides(target), a.offset());
  }
  if (auto strides = view_strides(a, target)) return a.view(target, *strides, a.offset());
  const Array c = copy(a);
  return c.view(target, contiguous_strides(target), 0);
}

// NumPy's ravel (order='C') is a view only of a C-contiguous array; a strided array that
// reshape could still view is copied.
Array ravel(const Array& a) {
  const Shape flat{a.size()};
  if (a.is_contiguous()) return a.view(flat, contiguous_strides(flat), a.offset());
  return copy(a).view(flat, contiguous_strides(flat), 0);
}

Array transpose(const Array& a, const std::optional<std::vector<int64_t>>& axes) {
  std::vector<int> perm(a.ndim());
  if (!axes) {
    std::iota(perm.rbegin(), perm.rend(), 0);
    return permuted(a, perm);
  }
  if (int(axes->size()) != a.ndim()) {
    throw ValueError("axes don't match array: " + std::to_string(axes->size()) +
                     " axes given for an array of dimension " + std::to_string(a.ndim()));
  }
  perm = normalize_axes(*axes, a.ndim());
  return permuted(a, perm);
}

Array swapaxes(const Array& a, int64_t axis1, int64_t axis2) {
  std::vector<int> perm(a.ndim());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[normalize_axis(axis1, a.ndim())], perm[normalize_axis(axis2, a.ndim())]);
  return permuted(a, perm);
}

Array moveaxis(const Array& a, const std::vector<int64_t>& source,
               const std::vector<int64_t>& destination) {
  if (source.size() != destination.size()) {
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  }
  const std::vector<int> src = normalize_axes(source, a.ndim());
  const std::vector<int> dst = normalize_axes(destination, a.ndim());
  std::vector<int> order;
  for (int i = 0; i < a.ndim(); ++i) {
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  }
  std::vector<std::pair<int, int>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.push_back({dst[i], src[i]});
  std::sort(moves.begin(), moves.end());
  for (auto [d, s] : moves) order.insert(order.begin() + d, s);
  return permuted(a, order);
}

Array squeeze(const Array& a, const Axes& axis) {
  std::vector<bool> drop(a.ndim(), false);
  if (axis) {
    for (int d : normalize_axes(*axis, a.ndim())) {
      if (a.shape()[d] != 1) {
        throw ValueError(
            "cannot select an axis to squeeze out which has size not equal to one (axis " +
            std::to_string(d) + " has size " + std::to_string(a.shape()[d]) + ")");
      }
      drop[d] = true;
    }
  } else {
    for (int d = 0; d < a.ndim(); ++d) drop[d] = a.shape()[d] == 1;
  }
  Shape shape;
  Strides strides;
  for (int d = 0; d < a.ndim(); ++d) {
    if (!drop[d]) {
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
  }
  return a.view(shape, strides, a.offset());
}

// NumPy's expand_dims is a reshape: the new axes take the strides reshape gives them.
Array expand_dims(const Array& a, const std::vector<int64_t>& axis) {
  const int nd = a.ndim() + int(axis.size());
  const std::vector<int> axes = normalize_axes(axis, nd);
  Shape shape;
  int src = 0;
  for (int d = 0; d < nd; ++d) {
    const bool added = std::find(axes.begin(), axes.end(), d) != axes.end();
    shape.push_back(added ? 1 : a.shape()[src++]);
  }
  return reshape(a, shape);
}

Array broadcast_to(const Array& a, const Shape& shape) {
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("all elements of broadcast shape must be non-negative");
  }
  bool ok = shape.size() >= a.shape().size();
  for (size_t i = 0; ok && i < a.shape().size(); ++i) {
    const int64_t s = a.shape()[a.ndim() - 1 - i], t = shape[shape.size() - 1 - i];
    ok = s == t || s == 1;
  }
  if (!ok) {
    throw ValueError("cannot broadcast array of shape " + shape_str(a.shape()) + " to shape " +
                     shape_str(shape));
  }
  return iterator_view(a, shape).as_readonly();
}

// NumPy broadcasts every array once one needs it, each through the same iterator view.
std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  std::vector<Shape> shapes;
  for (const Array& a : arrays) shapes.push_back(a.shape());
  const Shape shape = broadcast_shapes(shapes);
  bool all_same = true;
  for (const Array& a : arrays) all_same = all_same && a.shape() == shape;
  if (all_same) return arrays;
  std::vector<Array> out;
  for (const Array& a : arrays) {
    const Array v = iterator_view(a, shape);
    out.push_back(a.shape() == shape ? v : v.as_readonly());
  }
  return out;
}

namespace {

// `a` itself, or, when it views a pending plain copy laid out as its source (np.roll(z, 0, 0)
// joined along another axis), the same view of the source: the join reads what the copy would
// have, and the copy is not computed for it. The write barrier then guards the source (the join
// is registered as its reader).
Array through_pending_copy(const Array& a) {
  const Node* n = a.is_pending() ? a.storage()->producer() : nullptr;
  if (!n || n->op != OpKind::Cast || n->inputs.size() != 1 || n->inputs[0].is_scalar()) return a;
  const Array& src = n->inputs[0].array;
  if (a.dtype() != n->dtype || src.dtype() != n->dtype || src.device() != n->device ||
      src.shape() != n->shape || src.strides() != n->strides) {
    return a;
  }
  return src.view(a.shape(), a.strides(), src.offset() + a.offset());
}

}  // namespace

Array concatenate(const std::vector<Array>& arrays, std::optional<int64_t> axis) {
  if (arrays.empty()) throw ValueError("need at least one array to concatenate");
  if (!axis) {
    std::vector<Array> flat;
    for (const Array& a : arrays) flat.push_back(ravel(a));
    return concatenate(flat, 0);
  }
  const Array& first = arrays[0];
  if (first.ndim() == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
  const int ax = normalize_axis(*axis, first.ndim());
  const Device device = common_device(arrays);
  std::vector<ArrayOrScalar> ops(arrays.begin(), arrays.end());
  const DType dtype = result_type(ops);
  Shape shape = first.shape();
  shape[ax] = 0;
  std::vector<Operand> inputs;
  for (size_t i = 0; i < arrays.size(); ++i) {
    const Array& a = arrays[i];
    if (a.ndim() != first.ndim()) {
      throw ValueError(
          "all the input arrays must have same number of dimensions, but the array at index 0 "
          "has " +
          std::to_string(first.ndim()) + " dimension(s) and the array at index " +
          std::to_string(i) + " has " + std::to_string(a.ndim()) + " dimension(s)");
    }
    for (int d = 0; d < a.ndim(); ++d) {
      if (d != ax && a.shape()[d] != first.shape()[d]) {
        throw ValueError(
            "all the input array dimensions except for the concatenation axis must match exactly, "
            "but along dimension " +
            std::to_string(d) + ", the array at index 0 has size " +
            std::to_string(first.shape()[d]) + " and the array at index " + std::to_string(i) +
            " has size " + std::to_string(a.shape()[d]));
      }
    }
    shape[ax] += a.shape()[ax];
    inputs.push_back(Operand{cast_to(through_pending_copy(a), dtype)});
  }
  NodeParams p;
  p.axis = ax;
  const Strides strides = concatenate_strides(shape, arrays);
  // A small join of computed CPU arrays (np.array([x * c, x * s]) in a loop) is computed at the
  // call, as small elementwise work over computed arrays is (eager.hpp): what reads it next is
  // then computed at its call too, instead of a deferred chain planned at the next write.
  const int64_t n = shape_size(shape);
  bool now = device.is_cpu() && n > 0 && n <= eager::max_elements();
  for (const Operand& in : inputs) now = now && !in.array.is_pending();
  Array out = make_pending_strided(OpKind::Concatenate, dtype, shape, strides, device,
                                   std::move(inputs), p);
  if (now) out.eval();
  return out;
}

Array roll(const Array& a, int64_t shift, int64_t axis) {
  const int ax = normalize_axis(axis, a.ndim());
  const int64_t n = a.shape()[ax];
  const int64_t s = n == 0 ? 0 : (shift % n + n) % n;
  if (s == 0) return astype(a, a.dtype(), true, 'K');  // a new array, in a's memory order
  // The last s elements along the axis, then the others.
  Shape head_shape = a.shape(), tail_shape = a.shape();
  head_shape[ax] = s;
  tail_shape[ax] = n - s;
  const Array head = a.view(head_shape, a.strides(), a.offset() + (n - s) * a.strides()[ax]);
  const Array tail = a.view(tail_shape, a.strides(), a.offset());
  // NumPy writes the pieces into empty_like(a): a's memory order.
  return laid_out_like(concatenate({head, tail}, ax), a.shape(), a.strides(), false);
}

Array stack(const std::vector<Array>& arrays, int64_t axis) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  std::vector<Array> expanded;
  for (size_t i = 0; i < arrays.size(); ++i) {
    const Array& a = arrays[i];
    if (a.shape() != arrays[0].shape()) {
      throw ValueError(
          "all input arrays must have the same shape, but the array at index 0 has "
          "shape " +
          shape_str(arrays[0].shape()) + " and the array at index " + std::to_string(i) +
          " has shape " + shape_str(a.shape()));
    }
    expanded.push_back(expand_dims(a, {axis}));
  }
  return concatenate(expanded, normalize_axis(axis, arrays[0].ndim() + 1));
}

Array real(const Array& a) {
  if (!is_complex(a.dtype())) return a;
  Strides strides = a.strides();
  for (int64_t& s : strides) s *= 2;
  return a.view(real_dtype(a.dtype()), a.shape(), strides, a.offset() * 2);
}

Array imag(const Array& a) {
  if (!is_complex(a.dtype())) return zeros(a.shape(), a.dtype(), a.device()).as_readonly();
  Strides strides = a.strides();
  for (int64_t& s : strides) s *= 2;
  return a.view(real_dtype(a.dtype()), a.shape(), strides, a.offset() * 2 + 1);
}

Array view_as(const Array& a, DType dtype) {
  if (dtype == a.dtype()) return a.view(a.shape(), a.strides(), a.offset());
  // A pending array's producer writes its own dtype: reinterpret computed bytes only.
  a.eval();
  const int64_t old_size = int64_t(itemsize(a.dtype())), new_size = int64_t(itemsize(dtype));
  if (old_size == new_size) return a.view(dtype, a.shape(), a.strides(), a.offset());
  if (a.ndim() == 0) {
    throw ValueError(
        "Changing the dtype of a 0d array is only supported if the itemsize is "
        "unchanged");
  }
  const int last = a.ndim() - 1;
  if (a.size() != 0 && a.shape()[last] != 1 && a.strides()[last] != 1) {
    throw ValueError("To change to a dtype of a different size, the last axis must be contiguous");
  }
  const int64_t last_bytes = a.shape()[last] * old_size;
  if (last_bytes % new_size != 0) {
    throw ValueError(new_size < old_size
                         ? "When changing to a smaller dtype, its size must be a divisor of the "
                           "size of original dtype"
                         : "When changing to a larger dtype, its size must be a divisor of the "
                           "total size in bytes of the last axis of the array.");
  }
  // Strides and the offset are counted in elements here, so the other axes' byte strides and
  // the start must be whole elements of the new dtype (NumPy allows any byte stride).
  Shape shape = a.shape();
  Strides strides = a.strides();
  shape[last] = last_bytes / new_size;
  strides[last] = 1;
  if (a.size() == 0) return a.view(dtype, shape, contiguous_strides(shape), 0);
  for (int d = 0; d < last; ++d) {
    if (shape[d] != 1 && (strides[d] * old_size) % new_size != 0) {
      throw ValueError("view: axis " + std::to_string(d) + "'s stride of " +
                       std::to_string(strides[d] * old_size) + " bytes is not a multiple of " +
                       std::to_string(new_size) + "-byte elements");
    }
    strides[d] = strides[d] * old_size / new_size;
  }
  if ((a.offset() * old_size) % new_size != 0) {
    throw ValueError("view: the array starts " + std::to_string(a.offset() * old_size) +
                     " bytes into its memory, not at a multiple of " + std::to_string(new_size) +
                     "-byte elements");
  }
  return a.view(dtype, std::move(shape), std::move(strides), a.offset() * old_size / new_size);
}

}  // namespace accel
