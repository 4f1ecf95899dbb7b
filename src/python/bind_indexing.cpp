// Bindings of the indexing functions (take, put, nonzero, ...): argument conversion only.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <string>
#include <variant>

#include "accel/errors.hpp"
#include "src/python/array_base.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"
#include "src/python/element.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

std::optional<int64_t> axis_opt(nb::handle axis) {
  const Axes axes = to_axes(axis);
  if (!axes) return std::nullopt;
  if (axes->size() != 1) throw TypeError("axis must be an integer or None");
  return (*axes)[0];
}

// Index arrays go to the indexed array's device.
Array indices_on(nb::handle indices, const Array& a) { return to_array(indices, a.device()); }

nb::tuple as_tuple(const std::vector<Array>& arrays) {
  nb::list out;
  for (const Array& x : arrays) out.append(nb::cast(x));
  return nb::tuple(out);
}

Array take_fn(nb::handle a, nb::handle indices, nb::handle axis, const std::string& mode) {
  const Array x = to_array(a);
  return take(x, indices_on(indices, x), axis_opt(axis), mode);
}

void put_fn(const Array& a, nb::handle indices, nb::handle values, const std::string& mode) {
  put(a, indices_on(indices, a), to_array(values, a.device()), mode);
}

Array compress_fn(nb::handle condition, nb::handle a, nb::handle axis) {
  const Array x = to_array(a);
  return compress(to_array(condition, x.device()), x, axis_opt(axis));
}

// An array also when counting over everything (NumPy returns a Python int there): the Array
// API's count_nonzero returns an array, and a 0-d array is accelpy's scalar everywhere else.
Array count_nonzero_fn(nb::handle a, nb::handle axis, bool keepdims) {
  return count_nonzero(to_array(a), to_axes(axis), keepdims);
}

// Whether `idx` is one integer per axis: NumPy then returns an independent scalar, not a view.
bool is_scalar_index(const std::vector<Index>& idx, int ndim) {
  if (int(idx.size()) != ndim) return false;
  return std::all_of(idx.begin(), idx.end(),
                     [](const Index& i) { return std::holds_alternative<int64_t>(i); });
}

}  // namespace

nb::object get_item(nb::handle self, nb::handle key) {
  const Array& a = nb::cast<const Array&>(self);
  // One element of a CPU array: NumPy's scalar, a copy, as NumPy gives it.
  std::optional<std::vector<Index>> parsed;
  if (nb::object element = read_element(a, key, parsed); element.is_valid()) return element;
  const std::vector<Index> idx = parsed ? std::move(*parsed) : to_index(key, a.device());
  if (!is_scalar_index(idx, a.ndim())) return view_of(self, a, index(a, idx));
  // On a GPU, CuPy's scalar: a 0-d copy on the device (a host scalar would synchronize), marked
  // so that in-place operators rebind; lazy like any result, computed before the source is
  // next written.
  Array out = copy(index(a, idx));
  out.impl()->scalar_value = true;
  return nb::cast(std::move(out));
}

void bind_indexing(nb::module_& m) {
  m.def("take", &take_fn, "a"_a, "indices"_a, "axis"_a = nb::none(), "mode"_a = "raise",
        "Elements of `a` at `indices` along `axis` (the flattened array when None), as "
        "numpy.take; mode 'raise' (IndexError), 'wrap' or 'clip' for indices out of range.");
  m.def(
      "take_along_axis",
      [](nb::handle a, nb::handle indices, nb::handle axis) {
        const Array x = to_array(a);
        return take_along_axis(x, indices_on(indices, x), axis_opt(axis));
      },
      "arr"_a, "indices"_a, "axis"_a.none(),
      "Picks values along `axis` at indices broadcast against `arr` (numpy.take_along_axis).");
  m.def("put", &put_fn, "a"_a, "ind"_a, "v"_a, "mode"_a = "raise",
        "Sets a.flat[ind] = v in place, repeating v as needed (numpy.put).");
  m.def(
      "put_along_axis",
      [](const Array& a, nb::handle indices, nb::handle values, nb::handle axis) {
        put_along_axis(a, indices_on(indices, a), to_array(values, a.device()), axis_opt(axis));
      },
      "arr"_a, "indices"_a, "values"_a, "axis"_a.none(),
      "Writes values along `axis` at indices broadcast against `arr` (numpy.put_along_axis).");
  m.def(
      "nonzero", [](nb::handle a) { return as_tuple(nonzero(to_array(a))); }, "a"_a,
      "The indices of the nonzero elements, one array per dimension (numpy.nonzero).",
      nb::sig("def nonzero(a: ArrayLike) -> tuple[ndarray, ...]"));
  m.def(
      "where", [](nb::handle condition) { return as_tuple(nonzero(to_array(condition))); },
      "condition"_a, "where(condition): the same as nonzero(condition) (numpy.where).",
      nb::sig("def where(condition: ArrayLike) -> tuple[ndarray, ...]"));
  m.def(
      "where",
      [](nb::handle, nb::handle) -> nb::tuple {
        throw ValueError("either both or neither of x and y should be given");
      },
      "condition"_a, "x"_a, "where(condition, x): refused, as numpy.where does.",
      nb::sig("def where(condition: ArrayLike, x: ArrayLike) -> NoReturn"));
  m.def(
      "flatnonzero", [](nb::handle a) { return flatnonzero(to_array(a)); }, "a"_a,
      "Indices of the nonzero elements of the flattened array (numpy.flatnonzero).");
  m.def(
      "argwhere", [](nb::handle a) { return argwhere(to_array(a)); }, "a"_a,
      "Indices of the nonzero elements, one row per element (numpy.argwhere).");
  m.def("compress", &compress_fn, "condition"_a, "a"_a, "axis"_a = nb::none(),
        "The slices of `a` along `axis` where `condition` is true (numpy.compress).");
  m.def(
      "extract",
      [](nb::handle condition, nb::handle arr) {
        const Array x = to_array(arr);
        return extract(to_array(condition, x.device()), x);
      },
      "condition"_a, "arr"_a,
      "The elements of the flattened `arr` where the flattened `condition` is true "
      "(numpy.extract).");
  m.def(
      "count_nonzero", &count_nonzero_fn, "a"_a, "axis"_a = nb::none(), "keepdims"_a = false,
      "The number of nonzero elements (numpy.count_nonzero).",
      nb::sig(
          "def count_nonzero(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> ndarray"));

  // ndarray methods.
  nb::object cls = m.attr("ndarray");
  auto method = [&](const char* name, auto&& fn, auto&&... extra) {
    nb::setattr(cls, name,
                nb::cpp_function(std::forward<decltype(fn)>(fn), nb::name(name), nb::is_method(),
                                 nb::scope(cls), std::forward<decltype(extra)>(extra)...));
  };
  method(
      "nonzero", [](const Array& a) { return as_tuple(nonzero(a)); },
      "Indices of the nonzero elements (numpy.ndarray.nonzero).",
      nb::sig("def nonzero(self) -> tuple[ndarray, ...]"));
  method(
      "take",
      [](const Array& a, nb::handle indices, nb::handle axis, const std::string& mode) {
        return take(a, indices_on(indices, a), axis_opt(axis), mode);
      },
      "indices"_a, "axis"_a = nb::none(), "mode"_a = "raise",
      "Elements at `indices` along `axis` (numpy.ndarray.take).");
  method(
      "put",
      [](const Array& a, nb::handle ind, nb::handle v, const std::string& mode) {
        put_fn(a, ind, v, mode);
      },
      "ind"_a, "v"_a, "mode"_a = "raise", "Sets a.flat[ind] = v (numpy.ndarray.put).");
  method(
      "compress",
      [](const Array& a, nb::handle condition, nb::handle axis) {
        return compress(to_array(condition, a.device()), a, axis_opt(axis));
      },
      "condition"_a, "axis"_a = nb::none(),
      "The slices where `condition` is true (numpy.ndarray.compress).");
}

}  // namespace accel::python
