// Bindings of the array creation functions (empty, zeros, ones, full, arange, linspace, eye, tri).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

// NumPy's order= of the creation functions: 'C' (or None) as made, 'F' as the transpose of the
// array of the reversed shape (Fortran-contiguous); 'A' and 'K' need an input array.
template <class Make>
Array in_order(const Shape& shape, nb::handle order, const char* fn, const Make& make) {
  if (order.is_none()) return make(shape);
  if (!nb::isinstance<nb::str>(order)) {
    throw TypeError(std::string(fn) + ": order must be str, not " +
                    nb::cast<std::string>(nb::type_name(order.type())));
  }
  const std::string o = nb::cast<std::string>(order);
  if (o == "C" || o == "c") return make(shape);
  if (o == "F" || o == "f") {
    if (shape.size() < 2) return make(shape);
    Shape reversed = shape;
    std::reverse(reversed.begin(), reversed.end());
    return transpose(make(reversed));
  }
  if (o == "A" || o == "a" || o == "K" || o == "k") {
    throw ValueError(std::string(fn) + ": only 'C' or 'F' order is permitted");
  }
  throw ValueError(std::string(fn) + ": order must be one of 'C', 'F', 'A', or 'K' (got '" + o +
                   "')");
}

}  // namespace

void bind_creation(nb::module_& m) {
  m.def(
      "empty",
      [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
        const DType dt = to_dtype_opt(dtype).value_or(kDefaultFloat);
        const Device dev = to_device(device);
        return in_order(to_shape(shape), order, "empty",
                        [&](const Shape& s) { return empty(s, dt, dev); });
      },
      "shape"_a, "dtype"_a = nb::none(), "order"_a.none() = "C", nb::kw_only(),
      "device"_a = nb::none(), "A new array without initializing its elements (numpy.empty).",
      nb::sig("def empty(shape: ShapeLike, dtype: DTypeLike | None = None, order: str = 'C', *, "
              "device: DeviceLike | None = None) -> ndarray"));
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
        const DType dt = to_dtype_opt(dtype).value_or(kDefaultFloat);
        const Device dev = to_device(device);
        return in_order(to_shape(shape), order, "zeros",
                        [&](const Shape& s) { return zeros(s, dt, dev); });
      },
      "shape"_a, "dtype"_a = nb::none(), "order"_a.none() = "C", nb::kw_only(),
      "device"_a = nb::none(), "A new array of zeros (numpy.zeros).",
      nb::sig("def zeros(shape: ShapeLike, dtype: DTypeLike | None = None, order: str = 'C', *, "
              "device: DeviceLike | None = None) -> ndarray"));
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
        const DType dt = to_dtype_opt(dtype).value_or(kDefaultFloat);
        const Device dev = to_device(device);
        return in_order(to_shape(shape), order, "ones",
                        [&](const Shape& s) { return ones(s, dt, dev); });
      },
      "shape"_a, "dtype"_a = nb::none(), "order"_a.none() = "C", nb::kw_only(),
      "device"_a = nb::none(), "A new array of ones (numpy.ones).",
      nb::sig("def ones(shape: ShapeLike, dtype: DTypeLike | None = None, order: str = 'C', *, "
              "device: DeviceLike | None = None) -> ndarray"));
  m.def(
      "full",
      [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle order,
         nb::handle device) {
        const std::optional<DType> dt = to_dtype_opt(dtype);
        const Device dev = to_device(device);
        std::optional<Scalar> v = to_scalar_for(fill_value, dt);
        if (v) {
          return in_order(to_shape(shape), order, "full",
                          [&](const Shape& s) { return full(s, *v, dt, dev); });
        }
        // An array fill value (NumPy's too) is broadcast to the shape, in its own dtype unless
        // one is given. Text is neither (accelpy stores no strings).
        if (nb::isinstance<nb::str>(fill_value) || nb::isinstance<nb::bytes>(fill_value)) {
          throw TypeError("full: fill_value must be a scalar or an array of numbers, got " +
                          nb::cast<std::string>(nb::type_name(fill_value.type())));
        }
        const Array fill = to_array(fill_value, dev);
        const DType out_dt = dt.value_or(fill.dtype());
        return in_order(to_shape(shape), order, "full", [&](const Shape& s) {
          return copy(astype(broadcast_to(fill, s), out_dt, false));
        });
      },
      "shape"_a, "fill_value"_a, "dtype"_a = nb::none(), "order"_a.none() = "C", nb::kw_only(),
      "device"_a = nb::none(), "A new array filled with fill_value (numpy.full).",
      nb::sig("def full(shape: ShapeLike, fill_value: ArrayLike, dtype: DTypeLike | None = None, "
              "order: str = 'C', *, device: DeviceLike | None = None) -> ndarray"));
  m.def(
      "_laid_out_like",
      [](const Array& fresh, std::vector<int64_t> proto_shape, std::vector<int64_t> proto_strides,
         bool uninitialized) {
        return laid_out_like(fresh, Shape(proto_shape.begin(), proto_shape.end()),
                             Strides(proto_strides.begin(), proto_strides.end()), uninitialized);
      },
      "fresh"_a, "proto_shape"_a, "proto_strides"_a, "uninitialized"_a,
      "A new C-ordered array laid out like a prototype (strides in elements), as the *_like "
      "functions do with order='K'.");
  m.def(
      "arange",
      [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
        auto scalar = [](nb::handle h, const char* what) {
          std::optional<Scalar> s = to_scalar(h);
          // A 0-d array (accelpy's or NumPy's) is its element, as NumPy takes it.
          if (!s && nb::hasattr(h, "ndim") && nb::hasattr(h, "item")) {
            if (nb::cast<int64_t>(h.attr("ndim")) != 0) {
              throw ValueError(std::string("arange: ") + what +
                               " must be a real number or a 0-d array, got an array of shape " +
                               nb::cast<std::string>(nb::repr(h.attr("shape"))));
            }
            s = to_scalar(h.attr("item")());
          }
          if (!s) throw TypeError(std::string("arange: ") + what + " must be a real number");
          return *s;
        };
        Scalar lo = Scalar::weak_int(0), hi = scalar(start, "start");
        if (!stop.is_none()) {
          lo = hi;
          hi = scalar(stop, "stop");
        }
        const Scalar st = step.is_none() ? Scalar::weak_int(1) : scalar(step, "step");
        return arange(lo, hi, st, to_dtype_opt(dtype), to_device(device));
      },
      "start"_a, "stop"_a = nb::none(), "step"_a = nb::none(), "dtype"_a = nb::none(),
      nb::kw_only(), "device"_a = nb::none(),
      "Evenly spaced values in [start, stop) (numpy.arange).",
      nb::sig("def arange(start: float, stop: float | None = None, step: float | None = None, "
              "dtype: DTypeLike | None = None, *, device: DeviceLike | None = None) -> ndarray"));
  m.def(
      "linspace",
      [](nb::handle start, nb::handle stop, int64_t num, bool endpoint, nb::handle dtype,
         nb::handle device) {
        std::optional<Scalar> a = to_scalar(start), b = to_scalar(stop);
        if (!a || !b) throw TypeError("linspace: start and stop must be numbers");
        return linspace(*a, *b, num, endpoint, to_dtype_opt(dtype), to_device(device));
      },
      "start"_a, "stop"_a, "num"_a = 50, "endpoint"_a = true, "dtype"_a = nb::none(), nb::kw_only(),
      "device"_a = nb::none(), "num evenly spaced samples over [start, stop] (numpy.linspace).",
      nb::sig("def linspace(start: complex, stop: complex, num: int = 50, endpoint: bool = True, "
              "dtype: DTypeLike | None = None, *, device: DeviceLike | None = None) -> ndarray"));
  m.def(
      "eye",
      [](int64_t n, std::optional<int64_t> m_, int64_t k, nb::handle dtype, nb::handle device) {
        return eye(n, m_, k, to_dtype_opt(dtype).value_or(kDefaultFloat), to_device(device));
      },
      "N"_a, "M"_a = nb::none(), "k"_a = 0, "dtype"_a = nb::none(), nb::kw_only(),
      "device"_a = nb::none(), "A 2-D array with ones on the k-th diagonal (numpy.eye).",
      nb::sig("def eye(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None, "
              "*, device: DeviceLike | None = None) -> ndarray"));

  m.def(
      "tri",
      [](int64_t n, std::optional<int64_t> m_, int64_t k, nb::handle dtype, nb::handle device) {
        return tri(n, m_, k, to_dtype_opt(dtype).value_or(kDefaultFloat), to_device(device));
      },
      "N"_a, "M"_a = nb::none(), "k"_a = 0, "dtype"_a = nb::none(), nb::kw_only(),
      "device"_a = nb::none(),
      "Ones at and below the k-th diagonal of an N x M array, zeros above (numpy.tri); lazy.");
}

}  // namespace accel::python
