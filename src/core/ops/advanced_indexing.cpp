// Integer-array and boolean-mask indexing with NumPy's rules: boolean arrays become the integer
// arrays of their nonzero(); every integer array is broadcast together; the broadcast dimensions
// replace the indexed ones where the first advanced index stood when the advanced indices
// (integers included) are adjacent, else they come first. Reads are gathers, writes scatters,
// both described as an IndexMap over the view that the basic indices make.
#include "src/core/ops/advanced_indexing.hpp"

#include <algorithm>
#include <string>

#include "accel/errors.hpp"
#include "accel/storage.hpp"
#include "src/core/backend.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/result_layout.hpp"

namespace accel {

namespace {

// The parsed form of an index with arrays in it.
struct Parsed {
  Array view;                 // the basic indices applied; array-indexed dimensions kept whole
  std::vector<Array> arrays;  // one integer array per indexed dimension
  std::vector<int> view_dims;
  std::vector<int> axes;  // of the original array
  bool adjacent = true;   // the advanced indices sit next to each other
  int insert_at = 0;      // view dimensions before the first advanced index
};

Array on_device(const Array& x, Device device) {
  return x.device() == device ? x : to_device(x, device);
}

Parsed parse(const Array& a, const std::vector<Index>& indices) {
  const int consumed = check_index_arity(a, indices);
  Parsed p;
  std::vector<Index> basic;
  int vdim = 0, adim = 0, first = -1, last = -1, advanced = 0;
  auto mark = [&](int entry) {
    if (first < 0) {
      first = entry;
      p.insert_at = vdim;
    }
    last = entry;
    ++advanced;
  };
  for (int e = 0; e < int(indices.size()); ++e) {
    const Index& ix = indices[e];
    if (std::holds_alternative<Ellipsis>(ix)) {
      basic.push_back(Ellipsis{});
      vdim += a.ndim() - consumed;
      adim += a.ndim() - consumed;
    } else if (std::holds_alternative<NewAxis>(ix)) {
      basic.push_back(NewAxis{});
      ++vdim;
    } else if (std::holds_alternative<Slice>(ix)) {
      basic.push_back(ix);
      ++vdim;
      ++adim;
    } else if (std::holds_alternative<int64_t>(ix)) {
      mark(e);
      basic.push_back(ix);
      ++adim;
    } else {
      const Array& arr = std::get<Array>(ix);
      mark(e);
      if (!is_bool(arr.dtype())) {
        if (!is_integer(arr.dtype())) {
          throw IndexError("arrays used as indices must be of integer (or boolean) type, not " +
                           std::string(dtype_name(arr.dtype())));
        }
        basic.push_back(Slice{});
        p.arrays.push_back(on_device(arr, a.device()));
        p.view_dims.push_back(vdim++);
        p.axes.push_back(adim++);
      } else if (arr.ndim() == 0) {
        // x[True] is x[None] indexed by [0]; x[False] by [] (an empty result).
        basic.push_back(NewAxis{});
        bool t = false;
        to_host(astype(arr, DType::Bool), &t);
        p.arrays.push_back(zeros(Shape{t ? 1 : 0}, DType::Int64, a.device()));
        p.view_dims.push_back(vdim++);
        p.axes.push_back(adim);
      } else {
        for (int i = 0; i < arr.ndim(); ++i) {
          // An empty mask axis selects nothing from an axis of any length, as in NumPy.
          if (arr.shape()[i] != a.shape()[adim + i] && arr.shape()[i] != 0) {
            throw IndexError(
                "boolean index did not match indexed array along axis " + std::to_string(adim + i) +
                "; size of axis is " + std::to_string(a.shape()[adim + i]) +
                " but size of corresponding boolean axis is " + std::to_string(arr.shape()[i]));
          }
        }
        std::vector<Array> nz = nonzero(on_device(arr, a.device()));
        for (Array& z : nz) {
          basic.push_back(Slice{});
          p.arrays.push_back(std::move(z));
          p.view_dims.push_back(vdim++);
          p.axes.push_back(adim++);
        }
      }
    }
  }
  p.adjacent = last - first + 1 == advanced;
  if (!p.adjacent) p.insert_at = 0;
  p.view = index(a, basic);
  return p;
}

// The map of a parsed index over `dense` (the result shape); fills shape into `result`.
IndexMap make_map(const Parsed& p, Shape& result, IndexMode mode) {
  std::vector<Shape> shapes;
  for (const Array& x : p.arrays) shapes.push_back(x.shape());
  Shape b;
  try {
    b = broadcast_shapes(shapes);
  } catch (const ValueError&) {
    std::string msg = "shape mismatch: indexing arrays could not be broadcast together with shapes";
    for (const Shape& s : shapes) msg += " " + shape_str(s);
    throw IndexError(msg);
  }
  const Array& v = p.view;
  std::vector<bool> indexed(v.ndim(), false);
  for (int d : p.view_dims) indexed[d] = true;
  IndexMap map;
  map.mode = mode;
  Strides base_strides;
  int bpos = 0;  // where b's dimensions start in the result
  auto put_b = [&] {
    bpos = int(result.size());
    for (int64_t s : b) {
      result.push_back(s);
      base_strides.push_back(0);
    }
  };
  int seen = 0;
  if (p.insert_at == 0) put_b();
  for (int d = 0; d < v.ndim(); ++d) {
    if (indexed[d]) continue;
    result.push_back(v.shape()[d]);
    base_strides.push_back(v.strides()[d]);
    if (++seen == p.insert_at && p.insert_at > 0) put_b();
  }
  if (p.insert_at > 0 && seen < p.insert_at) put_b();
  map.base = v;
  map.base_strides = base_strides;
  for (size_t j = 0; j < p.arrays.size(); ++j) {
    Array idx = cast_to(p.arrays[j], DType::Int64);
    idx.eval();
    const Array bv = broadcast_view(idx, b);
    Strides st(result.size(), 0);
    for (size_t i = 0; i < b.size(); ++i) st[bpos + i] = bv.strides()[i];
    map.indices.push_back(IndexOperand{idx.view(result, st, idx.offset()),
                                       v.strides()[p.view_dims[j]], v.shape()[p.view_dims[j]],
                                       p.axes[j]});
  }
  return map;
}

// NumPy's layout of a gather's result: the broadcast index dimensions slowest, in C order, then
// the dimensions the slices keep, by decreasing stride in the sliced view (broadcast ones
// fastest, as PyArray_CreateSortedStridePerm orders them); the index dimensions then move to
// where they stand in the result (a[:, idx] is not C-contiguous).
Strides gather_result_strides(const Parsed& p, const Shape& result, const IndexMap& map) {
  const int nb = int(result.size()) - (p.view.ndim() - int(p.view_dims.size()));
  const int bpos = p.insert_at;
  Shape sub_shape;
  Strides sub_strides;
  for (int d = 0; d < int(result.size()); ++d) {
    if (d >= bpos && d < bpos + nb) continue;
    sub_shape.push_back(result[d]);
    sub_strides.push_back(map.base_strides[d]);
  }
  const Strides sub = sorted_stride_strides(sub_shape, sub_strides);
  int64_t step = 1;
  for (int64_t n : sub_shape) step *= std::max<int64_t>(n, 1);
  Strides out(result.size());
  for (int d = bpos + nb; d-- > bpos;) {
    out[d] = step;
    step *= std::max<int64_t>(result[d], 1);
  }
  int k = 0;
  for (int d = 0; d < int(result.size()); ++d) {
    if (d < bpos || d >= bpos + nb) out[d] = sub[k++];
  }
  return allocated_strides(result, out);
}

// `value` broadcast to `shape` as NumPy's setitem does (extra leading length-1 dimensions
// allowed), in `dtype`, computed.
Array value_for(ArrayOrScalar value, const Shape& shape, DType dtype, Device device,
                const Storage* dest) {
  Array v;
  if (!value.is_array()) {
    v = full(Shape{}, value.scalar(), dtype, device);
  } else {
    v = std::move(value).array();
    if (v.device() != device) {
      throw ValueError("cannot assign an array on " + v.device().str() + " into an array on " +
                       device.str() + "; move it with .to(device)");
    }
    while (v.ndim() > int(shape.size()) && v.shape()[0] == 1)
      v = squeeze(v, std::vector<int64_t>{0});
    bool ok = v.ndim() <= int(shape.size());
    for (int i = 0; ok && i < v.ndim(); ++i) {
      const int64_t s = v.shape()[v.ndim() - 1 - i];
      ok = s == 1 || s == shape[shape.size() - 1 - i];
    }
    if (!ok) {
      throw ValueError("shape mismatch: value array of shape " + shape_str(v.shape()) +
                       " could not be broadcast to indexing result of shape " + shape_str(shape));
    }
    v = cast_to(v, dtype);
    // A value that reads the memory being written is copied first (NumPy does the same).
    if (v.storage().get() == dest) v = copy(v);
  }
  v.eval();
  return broadcast_view(v, shape);
}

}  // namespace

int check_index_arity(const Array& a, const std::vector<Index>& indices) {
  int consumed = 0, ellipses = 0;
  for (const Index& ix : indices) {
    if (std::holds_alternative<Ellipsis>(ix)) {
      ++ellipses;
    } else if (const Array* arr = std::get_if<Array>(&ix)) {
      consumed += is_bool(arr->dtype()) ? arr->ndim() : 1;
    } else if (!std::holds_alternative<NewAxis>(ix)) {
      ++consumed;
    }
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim()) {
    throw IndexError("too many indices for array: array is " + std::to_string(a.ndim()) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  return consumed;
}

int64_t normalize_index(int64_t index, int axis, int64_t len) {
  if (index < -len || index >= len) throw_index_out_of_bounds(index, axis, len);
  return index < 0 ? index + len : index;
}

void throw_index_out_of_bounds(int64_t index, int axis, int64_t len) {
  throw IndexError("index " + std::to_string(index) + " is out of bounds for axis " +
                   std::to_string(axis) + " with size " + std::to_string(len));
}

IndexLoop make_index_loop(const IndexMap& map) {
  const Shape& shape = map.dense.shape();
  const int nops = 2 + int(map.indices.size());
  auto stride_of = [&](int op, int d) {
    if (op == 0) return map.base_strides[d];
    if (op == 1) return map.dense.strides()[d];
    return map.indices[op - 2].index.strides()[d];
  };
  IndexLoop loop;
  loop.size = shape_size(shape);
  loop.strides.assign(nops, Strides());
  for (int d = 0; d < int(shape.size()); ++d) {
    if (shape[d] == 1) continue;
    // Merge into the previous kept dimension when every operand steps across both alike.
    bool merge = !loop.shape.empty();
    for (int op = 0; merge && op < nops; ++op)
      merge = loop.strides[op].back() == stride_of(op, d) * shape[d];
    if (merge) {
      loop.shape.back() *= shape[d];
      for (int op = 0; op < nops; ++op) loop.strides[op].back() = stride_of(op, d);
    } else {
      loop.shape.push_back(shape[d]);
      for (int op = 0; op < nops; ++op) loop.strides[op].push_back(stride_of(op, d));
    }
  }
  if (loop.shape.empty()) {  // one element
    loop.shape.push_back(1);
    for (Strides& st : loop.strides) st.push_back(0);
  }
  return loop;
}

namespace {
void check_nonempty(const IndexMap& map) {
  // wrap/clip over an empty dimension have nothing to select: NumPy refuses it.
  if (map.mode == IndexMode::Raise) return;
  for (const IndexOperand& op : map.indices)
    if (op.len == 0) throw IndexError("cannot do a non-empty take from an empty axes.");
}
}  // namespace

void run_gather(const IndexMap& map) {
  if (map.dense.size() == 0) return;
  check_nonempty(map);
  backend_for(map.dense.device()).indexing().gather(map);
}

void run_scatter(const IndexMap& map) {
  if (map.dense.size() == 0) return;
  check_nonempty(map);
  backend_for(map.dense.device()).indexing().scatter(map);
}

int64_t IndexingBackend::place(const Array& a, const Array& mask, const Array& values) {
  const Array flat = select_true(mask);
  if (flat.size() != values.size()) return flat.size();
  if (flat.size() == 0) return 0;
  IndexMap map;
  map.base = a;
  map.base_strides = Strides{0};
  map.indices.push_back(IndexOperand{flat, 1, a.size(), 0});
  map.dense = values;
  scatter(map);
  return flat.size();
}

bool has_array_index(const std::vector<Index>& indices) {
  return std::any_of(indices.begin(), indices.end(),
                     [](const Index& ix) { return std::holds_alternative<Array>(ix); });
}

Array advanced_index(const Array& a, const std::vector<Index>& indices) {
  // x[mask] with a mask of x's whole shape is one selection pass, no index arrays.
  if (indices.size() == 1 && is_bool(std::get<Array>(indices[0]).dtype()) &&
      std::get<Array>(indices[0]).ndim() > 0 && std::get<Array>(indices[0]).shape() == a.shape()) {
    return select_true(on_device(std::get<Array>(indices[0]), a.device()), a);
  }
  const Parsed p = parse(a, indices);
  Shape result;
  IndexMap map = make_map(p, result, IndexMode::Raise);
  map.base.eval();
  map.dense = Array::empty(Shape{shape_size(result)}, a.dtype(), a.device())
                  .view(result, gather_result_strides(p, result, map), 0);
  run_gather(map);
  return map.dense;
}

void advanced_index_assign(const Array& a, const std::vector<Index>& indices, ArrayOrScalar value) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  // One mask of x's whole shape is NumPy's boolean assignment, which takes values of at most
  // one dimension (one per true element, or one for all): more is its TypeError, whatever
  // their shape, (1, count) included.
  if (indices.size() == 1 && value.is_array() && value.array().ndim() > 1) {
    const Array* mask = std::get_if<Array>(&indices[0]);
    if (mask && is_bool(mask->dtype()) && mask->ndim() > 0 && mask->shape() == a.shape()) {
      throw TypeError(
          "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input "
          "has " +
          std::to_string(value.array().ndim()) + " dimensions");
    }
  }
  // x[mask] = scalar over leading dimensions needs no compaction: it is a where().
  if (indices.size() == 1 ||
      (indices.size() == 2 && std::holds_alternative<Ellipsis>(indices[1]))) {
    const Array* mask = std::get_if<Array>(&indices[0]);
    const bool one_value = !value.is_array() || value.array().size() == 1;
    if (mask && is_bool(mask->dtype()) && mask->ndim() > 0 && mask->ndim() <= a.ndim() &&
        one_value && std::equal(mask->shape().begin(), mask->shape().end(), a.shape().begin())) {
      const Array v = value.is_array() ? reshape(astype(value.array(), a.dtype()), Shape{})
                                       : full(Shape{}, value.scalar(), a.dtype(), a.device());
      if (v.device() != a.device()) {
        throw ValueError("cannot assign an array on " + v.device().str() + " into an array on " +
                         a.device().str() + "; move it with .to(device)");
      }
      Shape ms = mask->shape();
      while (int(ms.size()) < a.ndim()) ms.push_back(1);
      const Array m = reshape(on_device(*mask, a.device()), ms);
      if (a.size() > 0) assign(a, where(m, v, a));
      return;
    }
    // x[mask] = values with a mask of x's whole shape over contiguous x and one value per true
    // element (Mandelbrot's `Z[I] = Z[I]**2 + C[I]`): one pass of the backend over the mask,
    // no index arrays.
    if (mask && indices.size() == 1 && is_bool(mask->dtype()) && mask->ndim() > 0 &&
        mask->shape() == a.shape() && a.is_contiguous() && value.is_array()) {
      Array v = value.array();
      if (v.ndim() == 1) {
        const Shape vs = v.shape();
        v = value_for(std::move(v), vs, a.dtype(), a.device(), a.storage().get());
        if (!v.is_contiguous()) {
          v = copy(v);
          v.eval();
        }
        Array m = on_device(*mask, a.device());
        // A mask in the memory being written is read from a copy (its elements would change
        // under the pass otherwise).
        if (!m.is_contiguous() || m.storage() == a.storage()) m = copy(m);
        m.eval();
        prepare_write(*a.storage());
        const int64_t count = backend_for(a.device()).indexing().place(a, m, v);
        if (count != vs[0]) {
          throw ValueError("shape mismatch: value array of shape " + shape_str(vs) +
                           " could not be broadcast to indexing result of shape " +
                           shape_str(Shape{count}));
        }
        return;
      }
    }
  }
  const Parsed p = parse(a, indices);
  Shape result;
  IndexMap map = make_map(p, result, IndexMode::Raise);
  map.dense = value_for(std::move(value), result, a.dtype(), a.device(), a.storage().get());
  prepare_write(*a.storage());
  run_scatter(map);
}

namespace {

IndexMode parse_mode(const std::string& mode) {
  if (mode == "raise") return IndexMode::Raise;
  if (mode == "wrap") return IndexMode::Wrap;
  if (mode == "clip") return IndexMode::Clip;
  throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + mode + "')");
}

Array index_array(const Array& indices, Device device, const char* fn) {
  if (!is_integer(indices.dtype()) && !is_bool(indices.dtype())) {
    throw TypeError(std::string(fn) + ": indices must be integers; cannot cast array data from " +
                    std::string(dtype_name(indices.dtype())) +
                    " to int64 according to the rule 'safe'");
  }
  return on_device(indices, device);
}

// The map of take_along_axis / put_along_axis: the iteration space is the broadcast of a and
// indices over every dimension but `axis`, where it is the indices' length.
IndexMap along_axis_map(const Array& a, const Array& indices, int axis) {
  if (!is_integer(indices.dtype())) throw IndexError("`indices` must be an integer array");
  Shape shape;
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t s = a.shape()[d], t = indices.shape()[d];
    if (d == axis) {
      shape.push_back(t);
    } else if (s == t || s == 1 || t == 1) {
      shape.push_back(s == 1 ? t : s);
    } else {
      throw IndexError(
          "shape mismatch: indexing arrays could not be broadcast together with shapes " +
          shape_str(a.shape()) + " " + shape_str(indices.shape()));
    }
  }
  IndexMap map;
  map.base = a;
  for (int d = 0; d < a.ndim(); ++d)
    map.base_strides.push_back(d == axis || a.shape()[d] == 1 ? 0 : a.strides()[d]);
  Array idx = cast_to(on_device(indices, a.device()), DType::Int64);
  idx.eval();
  map.indices.push_back(
      IndexOperand{broadcast_view(idx, shape), a.strides()[axis], a.shape()[axis], axis});
  map.dense = Array::empty(shape, a.dtype(), a.device());  // the shape, for callers
  return map;
}

}  // namespace

Array take(const Array& a, const Array& indices, std::optional<int64_t> axis,
           const std::string& mode) {
  const IndexMode m = parse_mode(mode);
  Parsed p;
  p.view = axis ? a : ravel(a);
  const int ax = normalize_axis(axis.value_or(0), p.view.ndim());
  p.arrays = {index_array(indices, a.device(), "take")};
  p.view_dims = {ax};
  p.axes = {ax};
  p.insert_at = ax;
  Shape result;
  IndexMap map = make_map(p, result, m);
  map.base.eval();
  map.dense = Array::empty(result, a.dtype(), a.device());
  run_gather(map);
  return map.dense;
}

void put(const Array& a, const Array& indices, const Array& values, const std::string& mode) {
  const IndexMode m = parse_mode(mode);
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (!a.is_contiguous()) {
    // put addresses the flat C-order array: work on a contiguous copy, then write it back.
    Array tmp = copy(a);
    put(tmp, indices, values, mode);
    assign(a, tmp);
    return;
  }
  const Array idx = ravel(index_array(indices, a.device(), "put"));
  Array v = ravel(values);
  const int64_t n = idx.size();
  if (n == 0 || v.size() == 0) return;
  if (v.size() != n) {
    // NumPy repeats the values cyclically over the indices.
    v = take(v,
             arange(Scalar::weak_int(0), Scalar::weak_int(n), Scalar::weak_int(1), DType::Int64,
                    v.device()),
             0, "wrap");
  }
  IndexMap map;
  map.mode = m;
  map.base = reshape(a, Shape{a.size()});
  map.base_strides = Strides{0};
  Array i64 = cast_to(idx, DType::Int64);
  i64.eval();
  map.indices.push_back(IndexOperand{i64, 1, a.size(), 0});
  map.dense = value_for(v, Shape{n}, a.dtype(), a.device(), a.storage().get());
  prepare_write(*a.storage());
  run_scatter(map);
}

Array take_along_axis(const Array& a, const Array& indices, std::optional<int64_t> axis) {
  if (!axis) {
    if (indices.ndim() != 1)
      throw ValueError("when axis=None, `indices` must have a single dimension.");
    return take_along_axis(ravel(a), indices, 0);
  }
  if (indices.ndim() != a.ndim())
    throw ValueError("`indices` and `arr` must have the same number of dimensions");
  IndexMap map = along_axis_map(a, indices, normalize_axis(*axis, a.ndim()));
  map.base.eval();
  run_gather(map);
  return map.dense;
}

void put_along_axis(const Array& a, const Array& indices, const Array& values,
                    std::optional<int64_t> axis) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (!axis) {
    if (indices.ndim() != 1)
      throw ValueError("when axis=None, `indices` must have a single dimension.");
    if (!a.is_contiguous()) {
      Array tmp = copy(a);
      put_along_axis(tmp, indices, values, axis);
      assign(a, tmp);
      return;
    }
    return put_along_axis(reshape(a, Shape{a.size()}), indices, values, 0);
  }
  if (indices.ndim() != a.ndim())
    throw ValueError("`indices` and `arr` must have the same number of dimensions");
  IndexMap map = along_axis_map(a, indices, normalize_axis(*axis, a.ndim()));
  map.dense = value_for(values, map.dense.shape(), a.dtype(), a.device(), a.storage().get());
  prepare_write(*a.storage());
  run_scatter(map);
}

}  // namespace accel
