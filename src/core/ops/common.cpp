#include "src/core/ops/common.hpp"

#include <cmath>
#include <complex>
#include <cstdio>

#include "accel/errors.hpp"
#include "src/core/fp_errors.hpp"

namespace accel {

namespace {

// Adds device `d` to those seen so far (`found` of them, all `device`): they must agree.
void note_device(Device d, Device& device, bool& found) {
  if (found && d != device) {
    throw ValueError("operands are on different devices: " + device.str() + " and " + d.str() +
                     "; move them to one device with .to(device)");
  }
  device = d;
  found = true;
}

}  // namespace

Device common_device(OperandSpan operands) {
  bool found = false;
  Device device;
  for (const ArrayOrScalar* op : operands) {
    if (op->is_array()) note_device(op->array().device(), device, found);
  }
  return found ? device : default_device();
}

Device common_device(const std::vector<Array>& arrays) {
  bool found = false;
  Device device;
  for (const Array& a : arrays) note_device(a.device(), device, found);
  return found ? device : default_device();
}

Array cast_to(const Array& a, DType dtype) {
  if (a.dtype() == dtype) return a;
  return make_pending(OpKind::Cast, dtype, a.shape(), a.device(), {Operand{a}});
}

Array with_strides(const Array& a, DType dtype, const Strides& strides) {
  if (a.dtype() == dtype && a.strides() == strides) return a;
  return make_pending_strided(OpKind::Cast, dtype, a.shape(), strides, a.device(), {Operand{a}});
}

Array broadcast_view(const Array& a, const Shape& shape) {
  if (a.shape() == shape) return a;
  const size_t lead = shape.size() - a.shape().size();
  Strides strides(shape.size(), 0);
  for (size_t i = 0; i < a.shape().size(); ++i) {
    strides[lead + i] = a.shape()[i] == 1 && shape[lead + i] != 1 ? 0 : a.strides()[i];
  }
  return a.view(shape, strides, a.offset());
}

ScalarArg scalar_arg(const Scalar& s, DType dtype) {
  if (s.is_weak() && is_integer(dtype) && !s.fits(dtype)) {
    char huge[330];  // up to 309 digits and a sign
    if (s.is_huge_int()) std::snprintf(huge, sizeof huge, "%.0f", s.as_double());  // its double
    const std::string value = s.is_huge_int()                      ? std::string(huge)
                              : s.kind() == DTypeKind::UnsignedInt ? std::to_string(s.as_uint())
                                                                   : std::to_string(s.as_int());
    throw OverflowError("Python integer " + value + " out of bounds for " +
                        std::string(dtype_name(dtype)));
  }
  ScalarArg arg = ScalarArg::of(s, dtype);
  // NumPy casts a Python number to the operation's dtype at the call and reports a finite one
  // that the dtype cannot hold (float16 + 1e6) as an overflow in "cast".
  // Every narrower float dtype holds float16's largest value, so only a larger number is cast
  // back and checked (the common `x32 * 0.5` reads no bytes back).
  constexpr double kFloat16Max = 65504.0;
  const auto large = [](std::complex<double> v) {
    return std::abs(v.real()) > kFloat16Max || std::abs(v.imag()) > kFloat16Max;
  };
  if (s.is_weak() && is_inexact(dtype) && dtype != DType::Float64 && dtype != DType::Complex128 &&
      large(s.as_complex())) {
    const std::complex<double> value = s.as_complex();
    const std::complex<double> stored = Scalar::from_bytes(dtype, arg.bytes).as_complex();
    const auto overflowed = [](double from, double to) {
      return std::isfinite(from) && std::isinf(to);
    };
    if (overflowed(value.real(), stored.real()) || overflowed(value.imag(), stored.imag())) {
      fp_errors::report_at_call(kFpOverflow, "cast");
    }
  }
  return arg;
}

}  // namespace accel
