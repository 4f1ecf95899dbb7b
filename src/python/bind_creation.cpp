// Bindings of the array creation functions (empty, zeros, ones, full, arange, linspace, eye, tri).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

void bind_creation(nb::module_& m) {
  m.def(
      "empty",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return empty(to_shape(shape), to_dtype_opt(dtype).value_or(kDefaultFloat),
                     to_device(device));
      },
      "shape"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array without initializing its elements (numpy.empty).",
      nb::sig("def empty(shape: ShapeLike, dtype: DTypeLike | None = None, *, device: DeviceLike | "
              "None = None) -> ndarray"));
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return zeros(to_shape(shape), to_dtype_opt(dtype).value_or(kDefaultFloat),
                     to_device(device));
      },
      "shape"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array of zeros (numpy.zeros).",
      nb::sig("def zeros(shape: ShapeLike, dtype: DTypeLike | None = None, *, device: DeviceLike | "
              "None = None) -> ndarray"));
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return ones(to_shape(shape), to_dtype_opt(dtype).value_or(kDefaultFloat),
                    to_device(device));
      },
      "shape"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array of ones (numpy.ones).",
      nb::sig("def ones(shape: ShapeLike, dtype: DTypeLike | None = None, *, device: DeviceLike | "
              "None = None) -> ndarray"));
  m.def(
      "full",
      [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle device) {
        const std::optional<DType> dt = to_dtype_opt(dtype);
        std::optional<Scalar> v = to_scalar_for(fill_value, dt);
        if (!v) throw TypeError("full: fill_value must be a scalar");
        return full(to_shape(shape), *v, dt, to_device(device));
      },
      "shape"_a, "fill_value"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array filled with fill_value (numpy.full).",
      nb::sig("def full(shape: ShapeLike, fill_value: complex, dtype: DTypeLike | None = None, *, "
              "device: DeviceLike | None = None) -> ndarray"));
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
