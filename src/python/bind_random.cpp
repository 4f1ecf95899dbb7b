// accelpy._core._Philox: the counter-based generator behind accelpy.random (bindings only; the
// Python module random.py gives it NumPy's Generator API).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>

#include "accel/errors.hpp"
#include "accel/random.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

void bind_random(nb::module_& m) {
  using random::Generator;
  nb::class_<Generator>(m, "_Philox",
                        "Philox4x32-10 state (key, block offset); draws are lazy generator nodes.")
      .def(nb::init<uint64_t, uint64_t>(), "key"_a, "offset"_a = 0)
      .def_prop_ro("key", &Generator::key)
      .def_prop_rw("offset", &Generator::offset, &Generator::set_offset)
      .def(
          "random",
          [](Generator& g, nb::handle shape, nb::handle dtype, nb::handle device) {
            return g.random(to_shape(shape), to_dtype_opt(dtype).value_or(DType::Float64),
                            to_device(device));
          },
          "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none())
      .def(
          "standard_normal",
          [](Generator& g, nb::handle shape, nb::handle dtype, nb::handle device) {
            return g.standard_normal(to_shape(shape), to_dtype_opt(dtype).value_or(DType::Float64),
                                     to_device(device));
          },
          "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none())
      .def(
          "standard_exponential",
          [](Generator& g, nb::handle shape, nb::handle dtype, nb::handle device) {
            return g.standard_exponential(
                to_shape(shape), to_dtype_opt(dtype).value_or(DType::Float64), to_device(device));
          },
          "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none())
      .def(
          "integers",
          [](Generator& g, nb::handle low, nb::handle high, nb::handle shape, nb::handle dtype,
             bool endpoint, nb::handle device) {
            std::optional<Scalar> lo = to_scalar(low), hi = to_scalar(high);
            if (!lo || !hi) throw TypeError("integers: low and high must be integers");
            return g.integers(*lo, *hi, to_shape(shape), to_dtype_opt(dtype).value_or(DType::Int64),
                              endpoint, to_device(device));
          },
          "low"_a, "high"_a, "shape"_a, "dtype"_a = nb::none(), "endpoint"_a = false,
          "device"_a = nb::none())
      .def(
          "permutation",
          [](Generator& g, int64_t n, int64_t count, nb::handle device) {
            return g.permutation(n, count, to_device(device));
          },
          "n"_a, "count"_a, "device"_a = nb::none());
}

}  // namespace accel::python
