// Bindings of the manipulation functions that need the core (views with new strides, joins);
// the rest of accelpy's manipulation functions are composed in python/accelpy/_manipulation.py.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "src/core/result_layout.hpp"
#include "src/python/array_base.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

// An axis argument that may not be None (moveaxis, expand_dims).
std::vector<int64_t> given_axes(nb::handle obj, const char* what) {
  if (obj.is_none())
    throw TypeError(std::string(what) + " must be an integer or a tuple of integers, not None");
  return *to_axes(obj);
}

std::vector<Array> array_list(nb::handle seq) {
  std::vector<Array> out;
  std::optional<Device> device;
  for (nb::handle h : seq) {
    if (nb::isinstance<Array>(h)) {
      device = nb::cast<Array>(h).device();
      break;
    }
  }
  for (nb::handle h : seq) out.push_back(to_array(h, device));
  return out;
}

}  // namespace

namespace {
// A view of `a` whose C order is a's memory order (NumPy's order='K': like_strides' axis order;
// reversed axes stay reversed, as in NumPy), so ravel of it is a view where a's memory is dense.
Array in_memory_order(const Array& a) {
  if (a.ndim() < 2 || a.is_contiguous()) return a;
  const Strides rank = like_strides(a.shape(), a.strides());
  std::vector<int64_t> axes(a.ndim());
  for (int d = 0; d < a.ndim(); ++d) axes[d] = d;
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int64_t x, int64_t y) { return rank[x] > rank[y]; });
  return transpose(a, axes);
}
}  // namespace

char layout_order(const Array& a, nb::handle order, const char* fn, bool allow_k) {
  std::string o = "C";
  if (!order.is_none()) {
    if (!nb::isinstance<nb::str>(order)) {
      throw TypeError(std::string(fn) + ": order must be a str ('C', 'F', 'A' or 'K'), not " +
                      Py_TYPE(order.ptr())->tp_name);
    }
    o = nb::cast<std::string>(order);
  }
  if (o.size() == 1) o[0] = char(std::toupper(static_cast<unsigned char>(o[0])));
  if (o != "C" && o != "F" && o != "A" && o != "K") {
    throw ValueError(std::string(fn) + ": order must be one of 'C', 'F', 'A', or 'K' (got '" + o +
                     "')");
  }
  if (o == "K" && !allow_k) {
    throw ValueError(std::string(fn) + ": order 'K' is not permitted for reshaping");
  }
  if (o == "K") return 'K';
  if (o == "A") {
    // NumPy's 'A': Fortran order for an array that is Fortran-contiguous and not C-contiguous.
    return !a.is_contiguous() && a.ndim() > 1 && transpose(a).is_contiguous() ? 'F' : 'C';
  }
  return o[0];
}

Array reshape_in_order(const Array& a, Shape shape, char order) {
  if (order != 'F') return reshape(a, std::move(shape));
  std::reverse(shape.begin(), shape.end());
  return transpose(reshape(transpose(a), std::move(shape)));
}

Array copy_in_order(const Array& a, char order) {
  return order == 'C' ? copy(a) : astype(a, a.dtype(), true, order);
}

Array ravel_in_order(const Array& a, char order) {
  if (order == 'K') return ravel(in_memory_order(a));
  return order == 'F' ? ravel(transpose(a)) : ravel(a);
}

void bind_manipulation(nb::module_& m) {
  // Like NumPy's functions, these take any array-like.
  m.def(
      "reshape",
      [](nb::handle a, nb::handle shape, nb::handle order) {
        const Array x = to_array(a);
        const char layout = layout_order(x, order, "reshape", false);
        return reshaped_view_of(a, x, reshape_in_order(x, to_shape(shape), layout), layout);
      },
      "a"_a, "shape"_a, "order"_a = "C",
      "A view with a new shape when the layout allows, else a copy (numpy.reshape); order 'F' "
      "reads and writes the elements with the first index fastest.",
      nb::sig("def reshape(a: ArrayLike, shape: ShapeLike, order: str = 'C') -> ndarray"));
  m.def(
      "ravel",
      [](nb::handle a, nb::handle order) {
        const Array x = to_array(a);
        return view_of(a, x, ravel_in_order(x, layout_order(x, order, "ravel", true)));
      },
      "a"_a, "order"_a = "C",
      "The elements as a 1-D array: a view of a C-contiguous array, else a copy (numpy.ravel).",
      nb::sig("def ravel(a: ArrayLike, order: str = 'C') -> ndarray"));
  m.def(
      "transpose",
      [](nb::handle a, nb::handle axes) {
        const Array x = to_array(a);
        return view_of(a, x, transpose(x, to_axes(axes)));
      },
      "a"_a, "axes"_a = nb::none(),
      "Permutes the axes; reverses them by default (numpy.transpose).",
      nb::sig("def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> ndarray"));
  m.def(
      "swapaxes",
      [](nb::handle a, nb::handle axis1, nb::handle axis2) {
        const Array x = to_array(a);
        return view_of(a, x, swapaxes(x, to_axis(axis1, "axis1"), to_axis(axis2, "axis2")));
      },
      "a"_a, "axis1"_a, "axis2"_a, "Interchanges two axes (numpy.swapaxes).",
      nb::sig("def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> ndarray"));
  m.def(
      "moveaxis",
      [](nb::handle a, nb::handle src, nb::handle dst) {
        const Array x = to_array(a);
        return view_of(a, x,
                       moveaxis(x, given_axes(src, "source"), given_axes(dst, "destination")));
      },
      "a"_a, "source"_a, "destination"_a, "Moves axes to new positions (numpy.moveaxis).",
      nb::sig("def moveaxis(a: ArrayLike, source: int | Sequence[int], destination: int | "
              "Sequence[int]) -> ndarray"));
  m.def(
      "squeeze",
      [](nb::handle a, nb::handle axis) {
        const Array x = to_array(a);
        return view_of(a, x, squeeze(x, to_axes(axis)));
      },
      "a"_a, "axis"_a = nb::none(), "Removes axes of length one (numpy.squeeze).",
      nb::sig("def squeeze(a: ArrayLike, axis: Axis = None) -> ndarray"));
  m.def(
      "expand_dims",
      [](nb::handle a, nb::handle axis) {
        const Array x = to_array(a);
        return view_of(a, x, expand_dims(x, given_axes(axis, "axis")));
      },
      "a"_a, "axis"_a, "Inserts axes of length one (numpy.expand_dims).",
      nb::sig("def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> ndarray"));
  m.def(
      "broadcast_to",
      [](nb::handle a, nb::handle shape) {
        const Array x = to_array(a);
        return view_of(a, x, broadcast_to(x, to_shape(shape)));
      },
      "array"_a, "shape"_a, "A read-only view broadcast to a shape (numpy.broadcast_to).",
      nb::sig("def broadcast_to(array: ArrayLike, shape: ShapeLike) -> ndarray"));
  m.def(
      "broadcast_arrays",
      [](nb::args arrays) {
        const std::vector<Array> inputs = array_list(arrays);
        const std::vector<Array> views = broadcast_arrays(inputs);
        nb::list out;
        for (size_t i = 0; i < views.size(); ++i) {
          out.append(view_of(arrays.size() == views.size() ? nb::handle(arrays[i]) : nb::handle(),
                             inputs[i], views[i]));
        }
        return nb::tuple(out);
      },
      "Broadcasts arrays against each other; a tuple of views (numpy.broadcast_arrays).",
      nb::sig("def broadcast_arrays(*arrays: ArrayLike) -> tuple[ndarray, ...]"));
  m.def(
      "concatenate",
      [](nb::handle arrays, nb::handle axis) {
        std::optional<int64_t> ax;
        if (!axis.is_none()) ax = to_axis(axis);
        return concatenate(array_list(arrays), ax);
      },
      "arrays"_a, "axis"_a.none() = 0,
      "Joins arrays along an existing axis; axis=None joins them flattened (numpy.concatenate).",
      nb::sig("def concatenate(arrays: Sequence[ArrayLike], axis: int | None = 0) -> ndarray"));
  m.def("_roll_axis", &roll, "a"_a, "shift"_a, "axis"_a,
        "numpy.roll by one int shift along one int axis (accelpy.roll's common case).");
  m.def(
      "stack",
      [](nb::handle arrays, nb::handle axis) { return stack(array_list(arrays), to_axis(axis)); },
      "arrays"_a, "axis"_a = 0, "Joins arrays along a new axis (numpy.stack).",
      nb::sig("def stack(arrays: Sequence[ArrayLike], axis: int = 0) -> ndarray"));
  m.def(
      "copy",
      [](nb::handle a, nb::handle order) {
        const Array x = to_array(a);
        return copy_in_order(x, layout_order(x, order, "copy", true));
      },
      "a"_a, "order"_a.none() = "K",
      "A copy of the array, in new memory (numpy.copy): by default in a's memory order.",
      nb::sig("def copy(a: ArrayLike, order: str = 'K') -> ndarray"));
  m.def(
      "_diagonal",
      [](nb::handle a, int64_t offset, int64_t axis1, int64_t axis2) {
        const Array x = to_array(a);
        return view_of(a, x, diagonal(x, offset, axis1, axis2));
      },
      "a"_a, "offset"_a = 0, "axis1"_a = 0, "axis2"_a = 1,
      "The diagonal as the last axis of a read-only view (numpy.diagonal).");
}

}  // namespace accel::python
