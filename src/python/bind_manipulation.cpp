// Bindings of the manipulation functions that need the core (views with new strides); the rest of
// accelpy's manipulation functions are composed in python/accelpy/_manipulation.py.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>

#include "src/python/convert.hpp"

#include "src/python/bindings.hpp"

namespace accel::python {

using namespace nb::literals;

void bind_manipulation(nb::module_& m) {
  m.def(
      "tri",
      [](int64_t n, std::optional<int64_t> m_, int64_t k, nb::handle dtype, nb::handle device) {
        return tri(n, m_, k, to_dtype_opt(dtype).value_or(kDefaultFloat), to_device(device));
      },
      "N"_a, "M"_a = nb::none(), "k"_a = 0, "dtype"_a = nb::none(), nb::kw_only(),
      "device"_a = nb::none(),
      "Ones at and below the k-th diagonal of an N x M array, zeros above (numpy.tri); lazy.");
  m.def("_bincount", &bincount, "x"_a, "weights"_a = nb::none(), "minlength"_a = 0,
        "Counts (or weighted sums) of non-negative integers (numpy.bincount).");
  m.def("_diagonal", &diagonal, "a"_a, "offset"_a = 0, "axis1"_a = 0, "axis2"_a = 1,
        "The diagonal as the last axis of a read-only view (numpy.diagonal).");
}

}  // namespace accel::python
