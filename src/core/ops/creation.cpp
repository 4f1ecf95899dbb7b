// Array creation: full/zeros/ones, arange, linspace, eye, copies and host transfers. The
// generators are lazy nodes, so `ap.zeros(n) + x` never writes the zeros to memory.
#include <cmath>
#include <cstring>
#include <string>

#include "accel/errors.hpp"
#include "accel/storage.hpp"
#include "src/core/backend.hpp"
#include "src/core/graph.hpp"
#include "src/core/ops/common.hpp"

namespace accel {

namespace {

void check_shape(const Shape& shape) {
  if (shape.size() > size_t(kMaxDims)) {
    throw ValueError("maximum supported dimension for an ndarray is " + std::to_string(kMaxDims) +
                     ", found " + std::to_string(shape.size()));
  }
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  }
}

DType default_dtype_of(const Scalar& s) {
  if (!s.is_weak()) return s.dtype();
  switch (s.kind()) {
    case DTypeKind::Bool:
      return DType::Bool;
    case DTypeKind::Float:
      return kDefaultFloat;
    case DTypeKind::Complex:
      return kDefaultComplex;
    default:
      return s.dtype();  // int64, or uint64 above INT64_MAX
  }
}

// The dtype arange steps in: float for the 16-bit floats (as NumPy's HALF_fill), else the dtype.
DType arange_step_dtype(DType dt) {
  if (dt == DType::Float16 || dt == DType::BFloat16) return DType::Float32;
  if (dt == DType::Bool) return DType::Int64;
  return dt;
}

}  // namespace

Array empty(const Shape& shape, DType dtype, Device device) {
  check_shape(shape);
  return Array::empty(shape, dtype, device);
}

Array full(const Shape& shape, Scalar value, std::optional<DType> dtype, Device device) {
  check_shape(shape);
  backend_for(device);  // an unavailable device raises here, not at evaluation
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
  backend_for(device);
  const ArrayOrScalar a(start), b(stop), c(step);
  const DType dt = dtype ? *dtype : result_type({a, b, c});
  if (is_complex(start.dtype()) || is_complex(stop.dtype()) || is_complex(step.dtype())) {
    throw TypeError("arange does not accept complex start, stop or step");
  }
  const double span = stop.as_double() - start.as_double();
  const double delta = step.as_double();
  if (delta == 0) throw ZeroDivisionError("arange: step must not be zero (division by zero)");
  const double len_d = std::ceil(span / delta);
  if (!std::isfinite(len_d))
    throw ValueError("arange: cannot compute length (start, stop or step is not finite)");
  const int64_t len = len_d > 0 ? static_cast<int64_t>(len_d) : 0;
  // NumPy computes the first two elements in the output dtype and steps by their difference.
  const DType sdt = arange_step_dtype(dt);
  const bool integral = is_integer(start.dtype()) && is_integer(step.dtype());
  const Scalar second = integral ? Scalar::weak_int(start.as_int() + step.as_int())
                                 : Scalar::weak_float(start.as_double() + delta);
  const Scalar first_t = start.cast(dt).cast(sdt);
  const Scalar second_t = second.cast(dt).cast(sdt);
  Scalar diff;
  if (is_integer(sdt)) {
    diff = Scalar::weak_int(int64_t(uint64_t(second_t.as_int()) - uint64_t(first_t.as_int())))
               .cast(sdt);
  } else {
    diff = Scalar::weak_float(second_t.as_double() - first_t.as_double()).cast(sdt);
  }
  return make_pending(OpKind::Arange, dt, {len}, device,
                      {Operand{ScalarArg::of(first_t, sdt)}, Operand{ScalarArg::of(diff, sdt)}});
}

Array linspace(Scalar start, Scalar stop, int64_t num, bool endpoint, std::optional<DType> dtype,
               Device device) {
  backend_for(device);
  if (num < 0) {
    throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  }
  const bool is_cplx = is_complex(start.dtype()) || is_complex(stop.dtype());
  const DType dt = dtype ? *dtype : (is_cplx ? DType::Complex128 : DType::Float64);
  const DType wide = is_cplx || is_complex(dt) ? DType::Complex128 : DType::Float64;
  const int64_t div = endpoint ? num - 1 : num;
  const std::complex<double> s0 = start.as_complex(), s1 = stop.as_complex();
  const std::complex<double> delta = s1 - s0;
  const std::complex<double> step = div > 0 ? delta / double(div) : std::complex<double>(0, 0);
  // NumPy: y = i * step + start, or (i / div) * delta when the step underflows to zero.
  const bool divide_mode = div > 0 && step == std::complex<double>(0, 0);
  NodeParams p;
  p.k = endpoint && num > 1 ? num - 1 : -1;
  p.axis = divide_mode ? 1 : 0;
  auto arg = [&](std::complex<double> v) {
    return Operand{ScalarArg::of(Scalar::weak_complex(v), wide)};
  };
  return make_pending(
      OpKind::Linspace, dt, {num}, device,
      {arg(s0), arg(step), arg(s1), arg(delta), arg(double(std::max<int64_t>(div, 1)))}, p);
}

Array eye(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype, Device device) {
  const Shape shape{n, m ? *m : n};
  check_shape(shape);
  backend_for(device);  // an unavailable device raises here, not at evaluation
  NodeParams p;
  p.k = k;
  return make_pending(OpKind::Eye, dtype, shape, device, {}, p);
}

Array from_host(const void* data, DType dtype, const Shape& shape, Device device) {
  check_shape(shape);
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

}  // namespace

Array to_device(const Array& a, Device device) {
  if (a.device() == device) return a;
  Backend& dst_backend = backend_for(device);
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
