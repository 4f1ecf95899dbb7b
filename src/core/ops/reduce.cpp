// Front-ends of the reductions. mean, var and std are written in terms of sum, as NumPy
// writes them (var is two-pass: the mean, then the sum of squared deviations), so that they
// fuse like any other chain and share the summation's accuracy.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "accel/errors.hpp"
#include "src/core/backend.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/ops/library_ops.hpp"
#include "src/core/result_layout.hpp"

namespace accel {

namespace {

struct Reduced {
  uint64_t mask = 0;
  Shape out_shape;      // without the reduced axes
  Shape keep_shape;     // with them as 1
  Strides out_strides;  // NumPy's layout of the result (result_layout.hpp)
  Strides keep_strides;
  int64_t count = 1;  // elements per output
};

Reduced reduced_axes(const Array& a, const Axes& axis) {
  Reduced r;
  const int nd = a.ndim();
  if (axis) {
    for (int d : normalize_axes(*axis, nd)) r.mask |= uint64_t{1} << d;
  } else {
    r.mask = nd >= 64 ? ~uint64_t{0} : (uint64_t{1} << nd) - 1;
  }
  for (int d = 0; d < nd; ++d) {
    if ((r.mask >> d) & 1) {
      r.keep_shape.push_back(1);
      r.count *= a.shape()[d];
    } else {
      r.out_shape.push_back(a.shape()[d]);
      r.keep_shape.push_back(a.shape()[d]);
    }
  }
  r.out_strides = reduction_result_strides(a, r.mask, false);
  r.keep_strides = reduction_result_strides(a, r.mask, true);
  return r;
}

// The reduction's result `out` in NumPy's layout; with `keepdims` the reduced axes are put back
// as length-1 axes of the view, with the strides NumPy's iterator gives them.
Array with_keepdims(const Array& out, const Reduced& r, bool keepdims) {
  const Array laid = with_strides(out, out.dtype(), r.out_strides);
  if (!keepdims) return laid;
  return laid.view(r.keep_shape, r.keep_strides, laid.offset());
}

Array reduce_node(OpKind op, DType out_dtype, const Array& input, const Reduced& r) {
  NodeParams p;
  p.axes = r.mask;
  return make_pending_strided(op, out_dtype, r.out_shape, r.out_strides, input.device(),
                              {Operand{input}}, p);
}

// NumPy's default accumulation dtype for sum and prod.
DType sum_dtype(DType dt) {
  if (dt == DType::Bool || kind(dt) == DTypeKind::SignedInt) return DType::Int64;
  if (kind(dt) == DTypeKind::UnsignedInt) return DType::UInt64;
  return dt;
}

void require_nonempty(const Array& a, const Reduced& r, const char* what) {
  if (r.count == 0 && a.size() == 0) {
    throw ValueError(std::string("zero-size array to reduction operation ") + what +
                     " which has no identity");
  }
}

// The axes of `a` longer than 1 in the order NumPy's iterator visits them, innermost first: its
// stable insertion sort by decreasing |stride| from C order, where a zero stride (a broadcast
// axis) compares with nothing and the axis stays where it is.
std::vector<int> numpy_iteration_order(const Array& a) {
  std::vector<int> order;
  for (int d = a.ndim() - 1; d >= 0; --d) {
    if (a.shape()[d] > 1) order.push_back(d);
  }
  const Strides& st = a.strides();
  for (size_t i0 = 1; i0 < order.size(); ++i0) {
    const int ax = order[i0];
    size_t pos = i0;
    for (size_t i1 = i0; i1-- > 0;) {
      if (st[ax] == 0 || st[order[i1]] == 0) continue;  // ambiguous: look further
      if (std::abs(st[order[i1]]) <= std::abs(st[ax])) break;
      pos = i1;
    }
    order.erase(order.begin() + int64_t(i0));
    order.insert(order.begin() + int64_t(pos), ax);
  }
  return order;
}

// `x` reduced over `axes` (listed innermost first) one step at a time in float16, each step
// rounded, in index order (NumPy's reductions do not flip axes of negative stride): a scan along
// the axes moved last, whose final element is the result.
Array half_steps(OpKind op, const Array& x, const std::vector<int>& axes) {
  std::vector<int64_t> perm;
  for (int d = 0; d < x.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) perm.push_back(d);
  }
  const int64_t kept = int64_t(perm.size());
  for (auto it = axes.rbegin(); it != axes.rend(); ++it) perm.push_back(*it);
  const Array moved = transpose(x, perm);
  Shape rows(moved.shape().begin(), moved.shape().begin() + kept);
  int64_t steps = 1;
  for (int d : axes) steps *= x.shape()[d];
  rows.push_back(steps);
  const Array scanned =
      detail::scan_along(reshape(moved, rows), -1, DType::Float16,
                         op == OpKind::Sum ? ScanOp::Sum : ScanOp::Prod, "reduce");
  Shape out_shape(rows.begin(), rows.end() - 1);
  Strides out_strides(scanned.strides().begin(), scanned.strides().end() - 1);
  const Array last = scanned.view(out_shape, out_strides,
                                  scanned.offset() + (steps - 1) * scanned.strides().back());
  // NumPy starts a sum from 0: a sum of -0.0 alone is +0.0 (adding +0.0 changes nothing else).
  return op == OpKind::Sum ? add(last, Scalar::weak_float(0.0)) : copy(last);
}

// float16 sums and products as NumPy computes them where it matters most. NumPy's half loops
// accumulate a run of the innermost iterated axis in float and round to float16 once per run;
// where that innermost axis is kept (axis 0 of a C array), its iterator calls the elementwise
// loop, which rounds after every step: overflow to inf (and inf * 0 = NaN) then happens part
// way, as here. Reductions whose innermost iterated axis is reduced stay float-accumulated with
// one rounding per output (exactly NumPy's when the reduced axes are one run; where NumPy rounds
// between runs of outer reduced axes too, not yet: docs/decisions.md).
Array half_reduction(OpKind op, const Array& a, const Reduced& r) {
  if (!backend_for(a.device()).limits().ordered_scans) return reduce_node(op, DType::Float16, a, r);
  const std::vector<int> order = numpy_iteration_order(a);
  auto reduced = [&](int d) { return ((r.mask >> d) & 1) != 0; };
  if (order.empty() || reduced(order.front())) return reduce_node(op, DType::Float16, a, r);
  std::vector<int> steps;  // the reduced axes, innermost first
  for (int d : order) {
    if (reduced(d)) steps.push_back(d);
  }
  if (steps.empty()) return reduce_node(op, DType::Float16, a, r);
  return reshape(half_steps(op, a, steps), r.out_shape);
}

Array sum_like(OpKind op, const Array& a, const Axes& axis, bool keepdims,
               std::optional<DType> dtype) {
  const Reduced r = reduced_axes(a, axis);
  const DType dt = dtype ? *dtype : sum_dtype(a.dtype());
  if (dt == DType::Float16 && a.dtype() == DType::Float16 && a.size() > 0) {
    return with_keepdims(half_reduction(op, a, r), r, keepdims);
  }
  return with_keepdims(reduce_node(op, dt, cast_to(a, dt), r), r, keepdims);
}

Array extreme(OpKind op, const char* name, const Array& a, const Axes& axis, bool keepdims) {
  const Reduced r = reduced_axes(a, axis);
  require_nonempty(a, r, name);
  return with_keepdims(reduce_node(op, a.dtype(), a, r), r, keepdims);
}

Array logical(OpKind op, const Array& a, const Axes& axis, bool keepdims) {
  const Reduced r = reduced_axes(a, axis);
  return with_keepdims(reduce_node(op, DType::Bool, cast_to(a, DType::Bool), r), r, keepdims);
}

Array arg_extreme(OpKind op, const char* name, const Array& a, std::optional<int64_t> axis,
                  bool keepdims) {
  const Reduced r = reduced_axes(a, axis ? Axes(std::vector<int64_t>{*axis}) : Axes());
  if (a.size() == 0 && (r.count == 0 || !axis)) {
    throw ValueError(std::string("attempt to get ") + name + " of an empty sequence");
  }
  // NumPy's argmax/argmin allocate a C-ordered result, of the kept shape with keepdims.
  NodeParams p;
  p.axes = r.mask;
  const Array out = make_pending(op, DType::Int64, r.out_shape, a.device(), {Operand{a}}, p);
  return keepdims ? out.view(r.keep_shape, new_array_strides(r.keep_shape), out.offset()) : out;
}

// `x`, computed from the reduction result `into`, converted to `dtype` in `into`'s layout: NumPy
// computes it in place (true_divide(ret, n, out=ret, casting='unsafe'), sqrt(ret, out=ret)).
Array in_place_of(const Array& into, const Array& x, DType dtype) {
  return with_strides(x, dtype, into.strides());
}

// The dtype mean and var compute in: float64 for integers, float32 for 16-bit floats.
DType mean_dtype(DType dt, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  if (!is_inexact(dt)) return kDefaultFloat;
  if (dt == DType::Float16 || dt == DType::BFloat16) return DType::Float32;
  return dt;
}

}  // namespace

Array sum(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  return sum_like(OpKind::Sum, a, axis, keepdims, dtype);
}

Array prod(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  return sum_like(OpKind::Prod, a, axis, keepdims, dtype);
}

Array max(const Array& a, const Axes& axis, bool keepdims) {
  return extreme(OpKind::Max, "maximum", a, axis, keepdims);
}

Array min(const Array& a, const Axes& axis, bool keepdims) {
  return extreme(OpKind::Min, "minimum", a, axis, keepdims);
}

Array any(const Array& a, const Axes& axis, bool keepdims) {
  return logical(OpKind::Any, a, axis, keepdims);
}

Array all(const Array& a, const Axes& axis, bool keepdims) {
  return logical(OpKind::All, a, axis, keepdims);
}

Array argmax(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return arg_extreme(OpKind::ArgMax, "argmax", a, axis, keepdims);
}

Array argmin(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return arg_extreme(OpKind::ArgMin, "argmin", a, axis, keepdims);
}

// NumPy's _mean: the sum in the accumulation dtype, divided by the count and cast back to it
// (true_divide with casting='unsafe', so an integer dtype truncates the mean).
Array mean(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  const Reduced r = reduced_axes(a, axis);
  const DType acc = mean_dtype(a.dtype(), dtype);
  const Array s = sum(a, axis, keepdims, acc);
  const Array m = in_place_of(s, divide(s, Scalar::weak_int(r.count)), acc);
  // 16-bit float input: accumulated in float32, returned in the input's dtype.
  return dtype ? m : in_place_of(m, m, is_inexact(a.dtype()) ? a.dtype() : m.dtype());
}

// NumPy's _var, step by step: the mean is cast back to the sum's dtype before it is subtracted,
// and the result keeps the dtype of the final sum (float64 for integer input).
Array var(const Array& a, const Axes& axis, double ddof, bool keepdims,
          std::optional<DType> dtype) {
  const Reduced r = reduced_axes(a, axis);
  const std::optional<DType> sum_dt =
      dtype ? dtype : (is_inexact(a.dtype()) ? std::nullopt : std::optional(kDefaultFloat));
  const Array s = sum(a, axis, true, sum_dt);
  const Array m = in_place_of(s, divide(s, Scalar::weak_int(r.count)), s.dtype());
  const Array x = subtract(a, m);
  const Array sq = is_complex(x.dtype()) ? real(multiply(x, conj(x))) : multiply(x, x);
  const Array total = sum(sq, axis, keepdims, sum_dt);
  const double denom = std::max(double(r.count) - ddof, 0.0);
  return in_place_of(total, divide(total, Scalar::weak_float(denom)), total.dtype());
}

Array std(const Array& a, const Axes& axis, double ddof, bool keepdims,
          std::optional<DType> dtype) {
  // As NumPy's _std: the square root is written back into the variance (sqrt(v, out=v)), so
  // an integer dtype= truncates a scalar result and is a casting error for an array result.
  const Array v = var(a, axis, ddof, keepdims, dtype);
  const Array root = sqrt(v);
  if (!is_inexact(v.dtype()) && v.ndim() > 0) {
    throw TypeError("Cannot cast ufunc 'sqrt' output from dtype('" +
                    std::string(dtype_name(root.dtype())) + "') to dtype('" +
                    std::string(dtype_name(v.dtype())) + "') with casting rule 'same_kind'");
  }
  return in_place_of(v, root, v.dtype());
}

}  // namespace accel
