// Bindings of the conversions between accelpy, NumPy and dtypes: from/to NumPy, astype, and
// NumPy's type promotion queries (result_type, can_cast, promote_types).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "src/core/type_rules.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

Array astype_checked(const Array& a, nb::handle dtype, nb::handle order, const std::string& casting,
                     bool copy) {
  // NumPy's default order is 'K': the result keeps a's memory order.
  const bool keep = order.is_none() ||
                    (nb::isinstance<nb::str>(order) &&
                     (nb::cast<std::string>(order) == "K" || nb::cast<std::string>(order) == "k"));
  const char layout = keep ? 'K' : layout_order(a, order, "astype", true);
  const DType to = to_dtype(dtype);
  if (casting != "no" && casting != "equiv" && casting != "safe" && casting != "same_kind" &&
      casting != "unsafe") {
    throw ValueError(
        "astype: casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '" +
        casting + "')");
  }
  if (!can_cast(a.dtype(), to, casting)) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(dtype_name(a.dtype())) +
                    "') to dtype('" + std::string(dtype_name(to)) + "') according to the rule '" +
                    casting + "'");
  }
  return astype(a, to, copy, layout);
}

using namespace nb::literals;

void bind_conversion(nb::module_& m) {
  m.def(
      "_from_numpy",
      [](nb::handle arr, nb::handle dtype, nb::handle device, std::optional<bool> copy,
         bool unreferenced) {
        return from_numpy(arr, to_dtype_opt(dtype), to_device_opt(device), copy, unreferenced);
      },
      "array"_a, "dtype"_a = nb::none(), "device"_a = nb::none(), "copy"_a = nb::none(),
      "unreferenced"_a = false);
  m.def(
      "_from_sequence",
      [](nb::handle obj, nb::handle device) -> nb::object {
        std::optional<Array> a = small_sequence(obj, to_device_opt(device));
        return a ? nb::cast(std::move(*a)) : nb::none();
      },
      "obj"_a, "device"_a = nb::none());
  m.def(
      "asnumpy", [](nb::handle a) { return host_copy(to_array(a)); }, "a"_a,
      "A NumPy copy of the array's data (evaluates pending work).",
      nb::sig("def asnumpy(a: ArrayLike) -> numpy.typing.NDArray[Any]"));
  m.def(
      "astype",
      [](nb::handle x, nb::handle dtype, bool copy) {
        return astype(to_array(x), to_dtype(dtype), copy, 'K');
      },
      "x"_a, "dtype"_a, nb::kw_only(), "copy"_a = true,
      "x converted to dtype; with copy=False, x itself when it has that dtype (numpy.astype).",
      nb::sig("def astype(x: ArrayLike, dtype: DTypeLike, *, copy: bool = True) -> ndarray"));
  m.def("_set_dtypes", &set_dtype_objects, "dtypes"_a, "loader"_a = nb::none());
  m.def("_set_asarray", &set_asarray);
  m.def(
      "result_type",
      [](nb::args args) {
        std::vector<ArrayOrScalar> ops;
        for (nb::handle h : args) {
          if (nb::isinstance<Array>(h)) {
            ops.emplace_back(nb::cast<Array>(h));
          } else if (std::optional<Scalar> s = to_scalar(h)) {
            ops.emplace_back(*s);
          } else {
            // A dtype: promotes like an array of that dtype.
            ops.emplace_back(empty({0}, to_dtype(h), Device::cpu()));
          }
        }
        if (ops.empty()) throw ValueError("at least one array or dtype is required");
        return dtype_object(result_type(ops));
      },
      "The dtype NumPy's promotion rules give these arrays, dtypes and scalars.",
      nb::sig("def result_type(*arrays_and_dtypes: ArrayLike | DTypeLike) -> numpy.dtype[Any]"));
  m.def(
      "can_cast",
      [](nb::handle from, nb::handle to, const std::string& casting) {
        const DType f =
            nb::isinstance<Array>(from) ? nb::cast<Array>(from).dtype() : to_dtype(from);
        return can_cast(f, to_dtype(to), casting);
      },
      "from_"_a, "to"_a, "casting"_a = "safe", "Whether a cast is allowed under a casting rule.",
      nb::sig("def can_cast(from_: ndarray | DTypeLike, to: DTypeLike, casting: str = 'safe') -> "
              "bool"));
  m.def(
      "promote_types",
      [](nb::handle a, nb::handle b) {
        return dtype_object(promote_types(to_dtype(a), to_dtype(b)));
      },
      "type1"_a, "type2"_a, "The smallest dtype both cast to safely.",
      nb::sig("def promote_types(type1: DTypeLike, type2: DTypeLike) -> numpy.dtype[Any]"));
}

}  // namespace accel::python
