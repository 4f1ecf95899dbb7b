// Array creation: full/zeros/ones, arange, linspace, eye, copies and host transfers. The
// generators are lazy nodes, so `ap.zeros(n) + x` never writes the zeros to memory.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "accel/kernels/scalar_ops.h"
#include "accel/storage.hpp"
#include "src/core/backend.hpp"
#include "src/core/graph.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/result_layout.hpp"
#include "src/core/type_rules.hpp"

namespace accel {

namespace {

DType default_dtype_of(const Scalar& s) {
  return s.is_weak() ? weak_scalar_default_dtype(s.kind()) : s.dtype();
}

// ---- arange, as NumPy's PyArray_ArangeObj ----------------------------------------------------

// NumPy's arange dtype: at least int64, promoted with each argument's dtype (Python numbers
// count as int64/float64 here; arange does not follow NEP 50).
DType arange_dtype(const Scalar& start, const Scalar& stop, const Scalar& step) {
  DType dt = DType::Int64;
  for (const Scalar* s : {&start, &stop, &step}) dt = promote_types(dt, s->dtype());
  return dt;
}

bool is_integral(const Scalar& s) { return !is_inexact(s.dtype()); }

__int128 as_int128(const Scalar& s) {
  return s.kind() == DTypeKind::UnsignedInt ? __int128(s.as_uint()) : __int128(s.as_int());
}

std::string int128_str(__int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : v;
  std::string out;
  for (; u; u /= 10) out.insert(out.begin(), char('0' + int(u % 10)));
  return neg ? "-" + out : out;
}

// a - b, a + b or a / b of real scalars, rounded as NumPy's scalar arithmetic rounds it: in the
// NEP 50 result type of the operands (float32 for np.float32(0.1) + 1), true division giving a
// float.
Scalar float_op(const Scalar& a, const Scalar& b, char op) {
  DType dt = result_type({ArrayOrScalar(a), ArrayOrScalar(b)});
  if (!is_inexact(dt)) dt = kDefaultFloat;
  const double r = dispatch_dtype(dt, [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T x = cast<T>(a.as_double()), y = cast<T>(b.as_double());
      return cast<double>(op == '-' ? T(x - y) : op == '+' ? T(x + y) : T(x / y));
    }
    return 0.0;
  });
  const Scalar out = Scalar::weak_float(r);
  return a.is_weak() && b.is_weak() ? out : out.cast(dt);
}

int64_t arange_length(const Scalar& start, const Scalar& stop, const Scalar& step) {
  if (is_integral(start) && is_integral(stop) && is_integral(step)) {
    const __int128 d = as_int128(stop) - as_int128(start), st = as_int128(step);
    if (st == 0) throw ZeroDivisionError("arange: division by zero (step is 0)");
    const __int128 len = st > 0 ? (d > 0 ? (d + st - 1) / st : 0) : (d < 0 ? (d + st + 1) / st : 0);
    if (len > __int128(INT64_MAX)) throw ValueError("arange: Maximum allowed size exceeded");
    return int64_t(len);
  }
  if (step.as_double() == 0) throw ZeroDivisionError("arange: division by zero (step is 0)");
  const double q = float_op(float_op(stop, start, '-'), step, '/').as_double();
  if (std::isnan(q)) throw ValueError("arange: cannot compute length (start, stop or step is NaN)");
  const double len = std::ceil(q);
  if (len >= 9.2e18) throw ValueError("arange: Maximum allowed size exceeded");
  return len > 0 ? int64_t(len) : 0;
}

// A value stored into the arange dtype as NumPy's setitem stores it: integer dtypes take it
// truncated toward zero, and refuse it (OverflowError) when it is out of their range.
ScalarArg arange_value(bool integral, __int128 ival, double fval, DType dt) {
  if (!is_integer(dt)) return ScalarArg::of(Scalar::weak_float(integral ? double(ival) : fval), dt);
  const std::string name(dtype_name(dt));
  if (!integral) {
    if (!(std::fabs(fval) < 1e30)) {
      throw OverflowError("cannot convert float " + std::to_string(fval) + " to " + name);
    }
    ival = __int128(std::trunc(fval));
  }
  const bool fits =
      ival < 0 ? ival >= __int128(INT64_MIN) && Scalar::weak_int(int64_t(ival)).fits(dt)
               : ival <= __int128(UINT64_MAX) && Scalar::weak_uint(uint64_t(ival)).fits(dt);
  if (!fits)
    throw OverflowError("Python integer " + int128_str(ival) + " out of bounds for " + name);
  return ScalarArg::of(
      ival < 0 ? Scalar::weak_int(int64_t(ival)) : Scalar::weak_uint(uint64_t(ival)), dt);
}

}  // namespace

Array empty(const Shape& shape, DType dtype, Device device) {
  check_new_shape(shape);
  return Array::empty(shape, dtype, device);
}

Array full(const Shape& shape, Scalar value, std::optional<DType> dtype, Device device) {
  check_new_shape(shape);
  const DType dt = dtype ? *dtype : default_dtype_of(value);
  return make_pending(OpKind::Fill, dt, shape, device, {Operand{scalar_arg(value, dt)}});
}

Array zeros(const Shape& shape, DType dtype, Device device) {
  return full(shape, Scalar::weak_int(0), dtype, device);
}

Array ones(const Shape& shape, DType dtype, Device device) {
  return full(shape, Scalar::weak_int(1), dtype, device);
}

Array arange(Scalar start, Scalar stop, Scalar step, std::optional<DType> dtype, Device device) {
  for (const Scalar* s : {&start, &stop, &step}) {
    if (is_complex(s->dtype()))
      throw TypeError("arange does not accept complex start, stop or step");
  }
  const DType dt = dtype ? *dtype : arange_dtype(start, stop, step);
  const int64_t len = arange_length(start, stop, step);
  if (dt == DType::Bool && len > 2) {
    throw TypeError(
        "arange() is only supported for booleans when the result has at most length 2.");
  }
  // NumPy stores start and start + step, then fills element i as first + i * (second - first).
  // Only the elements that exist are stored (and range-checked), as in NumPy.
  const ScalarArg zero = ScalarArg::of(Scalar::weak_int(0), dt);
  const ScalarArg first =
      len > 0 ? arange_value(is_integral(start), as_int128(start), start.as_double(), dt) : zero;
  ScalarArg second = zero;
  if (len > 1 && is_integral(start) && is_integral(step)) {
    second = arange_value(true, as_int128(start) + as_int128(step), 0, dt);
  } else if (len > 1) {
    second = arange_value(false, 0, float_op(start, step, '+').as_double(), dt);
  }
  return make_pending(OpKind::Arange, dt, {len}, device, {Operand{first}, Operand{second}});
}

// As NumPy's linspace: computed in the result type of start and stop (at least float64 for
// integers; float32 for np.float32 arguments), as y = i * step + start with step = (stop -
// start) / div, or (i / div) * delta when the step underflows to zero; the last element is
// `stop` when included, and integer dtypes take the floor. The loop does the arithmetic.
Array linspace(Scalar start, Scalar stop, int64_t num, bool endpoint, std::optional<DType> dtype,
               Device device) {
  if (num < 0) {
    throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  }
  DType ct = result_type({ArrayOrScalar(start), ArrayOrScalar(stop)});
  if (!is_inexact(ct)) ct = kDefaultFloat;
  const DType dt = dtype.value_or(ct);
  if (is_complex(ct) && is_integer(dt)) {
    throw TypeError("linspace: ufunc 'floor' not supported for complex values (" +
                    std::string(dtype_name(ct)) + " to " + std::string(dtype_name(dt)) + ")");
  }
  NodeParams p;
  p.k = endpoint && num > 1 ? num - 1 : -1;  // the index that is exactly `stop`
  const int64_t div = endpoint ? num - 1 : num;
  return make_pending(OpKind::Linspace, dt, {num}, device,
                      {Operand{ScalarArg::of(start, ct)}, Operand{ScalarArg::of(stop, ct)},
                       Operand{ScalarArg::of(Scalar::weak_int(div), DType::Int64)}},
                      p);
}

Array tri(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype, Device device) {
  // Negative sizes give empty matrices, as NumPy (its outer product of empty aranges).
  const Shape shape{std::max<int64_t>(n, 0), std::max<int64_t>(m ? *m : n, 0)};
  check_new_shape(shape);
  NodeParams p;
  p.k = k;
  return make_pending(OpKind::Tri, dtype, shape, device, {}, p);
}

Array eye(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype, Device device) {
  const Shape shape{n, m ? *m : n};
  check_new_shape(shape);
  NodeParams p;
  p.k = k;
  return make_pending(OpKind::Eye, dtype, shape, device, {}, p);
}

Array from_host(const void* data, DType dtype, const Shape& shape, Device device) {
  check_new_shape(shape);
  Array a = Array::empty(shape, dtype, device);
  backend_for(device).copy_from_host(data, a.storage()->data(), a.nbytes());
  return a;
}

void to_host(const Array& a, void* dst) {
  const Array c = a.is_contiguous() ? a : copy(a);
  c.eval();
  const char* src =
      static_cast<const char*>(c.storage()->data()) + c.offset() * int64_t(itemsize(c.dtype()));
  backend_for(c.device()).copy_to_host(src, dst, c.nbytes());
}

Array copy(const Array& a) {
  return make_pending(OpKind::Cast, a.dtype(), a.shape(), a.device(), {Operand{a}});
}

Array astype(const Array& a, DType dtype, bool copy_always) {
  if (!copy_always && a.dtype() == dtype) return a;
  return make_pending(OpKind::Cast, dtype, a.shape(), a.device(), {Operand{a}});
}

Array astype(const Array& a, DType dtype, bool copy_always, char order) {
  if (!copy_always && a.dtype() == dtype) return a;
  Strides strides;
  if (order == 'K') {
    strides = like_strides(a.shape(), a.strides());
  } else if (order == 'F') {
    strides = fortran_strides(a.shape());
  } else {
    return astype(a, dtype, copy_always);
  }
  return make_pending_strided(OpKind::Cast, dtype, a.shape(), strides, a.device(), {Operand{a}});
}

Array laid_out_like(const Array& fresh, const Shape& proto_shape, const Strides& proto_strides,
                    bool uninitialized) {
  if (fresh.ndim() != int(proto_shape.size())) return fresh;
  const Strides strides = like_strides(fresh.shape(), proto_shape, proto_strides);
  if (strides == fresh.strides()) return fresh;
  // A new array covers its memory densely in any axis order: its elements, not yet written,
  // are as good read through the new strides.
  if (uninitialized) return fresh.view(fresh.shape(), strides, fresh.offset());
  return with_strides(fresh, fresh.dtype(), strides);
}

namespace {

// The materialized, contiguous array to transfer for `a`. A pending plain copy of a CPU array
// (what asarray makes of a NumPy array) is skipped: the transfer reads the source directly,
// saving a pass over host memory.
Array transfer_source(const Array& a) {
  if (a.is_pending() && !a.storage()->is_external()) {
    const Node* n = a.storage()->producer();
    if (n && n->op == OpKind::Cast && n->inputs.size() == 1 && !n->inputs[0].is_scalar()) {
      const Array& in = n->inputs[0].array;
      if (in.dtype() == a.dtype() && in.shape() == a.shape() && in.device() == a.device() &&
          !in.is_pending() && in.is_contiguous() && a.offset() == 0 && a.is_contiguous()) {
        return in;
      }
    }
  }
  Array src = a.is_contiguous() ? a : copy(a);
  src.eval();
  return src;
}

const char* base_pointer(const Array& a) {
  return static_cast<const char*>(a.storage()->data()) + a.offset() * int64_t(itemsize(a.dtype()));
}

// Where a's elements fill a block of memory exactly once, in any axis order and direction (a
// transposed or reversed NumPy array): the block's first element, relative to a's first, and
// its length, in elements.
std::optional<std::pair<int64_t, int64_t>> dense_block(const Array& a) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (|stride|, size) of the axes longer than 1
  int64_t first = 0, n = 1;
  for (size_t d = 0; d < a.shape().size(); ++d) {
    const int64_t size = a.shape()[d], stride = a.strides()[d];
    if (size == 0) return std::nullopt;
    if (size == 1) continue;
    dims.emplace_back(stride < 0 ? -stride : stride, size);
    if (stride < 0) first += stride * (size - 1);
    n *= size;
  }
  std::sort(dims.begin(), dims.end());
  int64_t expect = 1;
  for (const auto& [stride, size] : dims) {
    if (stride != expect) return std::nullopt;
    expect *= size;
  }
  return std::make_pair(first, n);
}

}  // namespace

Array to_device(const Array& a, Device device) {
  if (a.device() == device) return a;
  Backend& dst_backend = backend_for(device);
  if (a.device().is_cpu() && !a.is_pending() && !a.is_contiguous()) {
    // A dense host array keeps its layout on the device, as numpy.asarray keeps it: the block is
    // sent as it is (no gather on the host) and the result has a's strides, so iteration in
    // memory order (nditer, ravel(order='K')) visits the elements as NumPy's does.
    if (const auto block = dense_block(a)) {
      const int64_t item = int64_t(itemsize(a.dtype()));
      const Array whole = Array::empty({block->second}, a.dtype(), device);
      dst_backend.copy_from_host(base_pointer(a) + block->first * item, whole.storage()->data(),
                                 block->second * item);
      return Array::from_storage(whole.storage(), a.dtype(), a.shape(), a.strides(), -block->first);
    }
  }
  const Array src = transfer_source(a);
  Array out = Array::empty(a.shape(), a.dtype(), device);
  if (src.nbytes() == 0) return out;
  void* dst = out.storage()->data();
  if (src.device().is_cpu()) {
    dst_backend.copy_from_host(base_pointer(src), dst, src.nbytes());
  } else if (device.is_cpu()) {
    backend_for(src.device()).copy_to_host(base_pointer(src), dst, src.nbytes());
  } else {
    dst_backend.copy_from_peer(src.device(), base_pointer(src), dst, src.nbytes());
  }
  return out;
}

}  // namespace accel
