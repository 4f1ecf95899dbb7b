// Sorting, searching, sets and cumulative ops (functions and ndarray methods), with NumPy's
// and the Array API's signatures, over accel/ops.hpp.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "accel/errors.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

// kind= is accepted for compatibility: every sort is stable, which satisfies them all.
void check_kind(nb::handle kind) {
  if (kind.is_none()) return;
  const std::string k = nb::cast<std::string>(kind);
  for (const char* ok : {"quicksort", "mergesort", "heapsort", "stable", "introselect"}) {
    if (k == ok) return;
  }
  throw ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + k + "')");
}

void check_order(nb::handle order) {
  if (!order.is_none()) throw ValueError("Cannot specify order when the array has no fields.");
}

std::optional<int64_t> opt_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return to_axis(axis);
}

// NumPy's TypeError for a kth that is no integer of 64 bits (a Python int past them, a float
// in a list), where nanobind's cast would raise std::bad_cast.
int64_t kth_value(nb::handle kth) {
  if (!PyIndex_Check(kth.ptr())) throw TypeError("Partition index must be integer");
  nb::object i = nb::steal(PyNumber_Index(kth.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) throw TypeError("Partition index must be integer");
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return int64_t(v);
}

std::vector<int64_t> kth_list(nb::handle kth) {
  if (PyIndex_Check(kth.ptr())) return {kth_value(kth)};
  const nb::object listed = nb::isinstance<Array>(kth)
                                ? host_copy(nb::cast<Array>(kth)).attr("ravel")().attr("tolist")()
                                : nb::module_::import_("numpy").attr("ravel")(kth).attr("tolist")();
  std::vector<int64_t> out;
  for (nb::handle h : listed) out.push_back(kth_value(h));
  return out;
}

bool side_right(const std::string& side) {
  if (side == "left") return false;
  if (side == "right") return true;
  throw ValueError("search side must be 'left' or 'right' (got '" + side + "')");
}

// The device of the first accelpy array among the arguments, for converting array-likes.
std::optional<Device> device_of(std::initializer_list<nb::handle> objs) {
  for (nb::handle h : objs) {
    if (nb::isinstance<Array>(h)) return nb::cast<Array>(h).device();
  }
  return std::nullopt;
}

Array sort_fn(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable,
              bool descending) {
  (void)stable;
  check_kind(kind);
  check_order(order);
  return sort(to_array(a), opt_axis(axis), descending);
}

Array argsort_fn(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order,
                 nb::handle stable, bool descending) {
  (void)stable;
  check_kind(kind);
  check_order(order);
  return argsort(to_array(a), opt_axis(axis), descending);
}

nb::object unique_fn(nb::handle ar, bool return_index, bool return_inverse, bool return_counts,
                     nb::handle axis, bool equal_nan, bool sorted) {
  (void)sorted;  // the values always come back sorted, which NumPy allows either way
  // With an axis, NaNs make their slices distinct whatever equal_nan says, as in NumPy.
  const UniqueResult r =
      axis.is_none()
          ? unique(to_array(ar), return_index, return_inverse, return_counts, equal_nan)
          : unique_along(to_array(ar), to_axis(axis), return_index, return_inverse, return_counts);
  if (!return_index && !return_inverse && !return_counts) return nb::cast(r.values);
  nb::list out;
  out.append(r.values);
  if (return_index) out.append(r.indices);
  if (return_inverse) out.append(r.inverse);
  if (return_counts) out.append(r.counts);
  return nb::tuple(out);
}

nb::object finish_scan(Array result, nb::handle out) {
  return finish(std::move(result), out, "unsafe");
}

// NumPy accumulates in out's dtype when out= comes without dtype=.
std::optional<DType> scan_dtype(nb::handle dtype, nb::handle out) {
  if (dtype.is_none() && nb::isinstance<Array>(out)) return nb::cast<const Array&>(out).dtype();
  return to_dtype_opt(dtype);
}

nb::object cumsum_fn(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
  return finish_scan(cumsum(to_array(a), opt_axis(axis), scan_dtype(dtype, out)), out);
}
nb::object cumprod_fn(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
  return finish_scan(cumprod(to_array(a), opt_axis(axis), scan_dtype(dtype, out)), out);
}

}  // namespace

void bind_sorting(nb::module_& m) {
  m.def("sort", &sort_fn, "a"_a, "axis"_a.none() = -1, "kind"_a = nb::none(),
        "order"_a = nb::none(), nb::kw_only(), "stable"_a = nb::none(), "descending"_a = false,
        "A sorted copy along `axis` (None: flattened), stable, NaN last (numpy.sort); "
        "descending=True reverses the order, keeping equal elements in input order (Array API).");
  m.def("argsort", &argsort_fn, "a"_a, "axis"_a.none() = -1, "kind"_a = nb::none(),
        "order"_a = nb::none(), nb::kw_only(), "stable"_a = nb::none(), "descending"_a = false,
        "The indices that sort `a` along `axis`, stably (numpy.argsort; descending as in sort).");
  m.def(
      "partition",
      [](nb::handle a, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
        check_kind(kind);
        check_order(order);
        return partition(to_array(a), kth_list(kth), opt_axis(axis));
      },
      "a"_a, "kth"_a, "axis"_a.none() = -1, "kind"_a = "introselect", "order"_a = nb::none(),
      "A copy with the element at each kth where a sort would put it, smaller ones before and "
      "larger ones after (numpy.partition; computed by a full sort).");
  m.def(
      "argpartition",
      [](nb::handle a, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
        check_kind(kind);
        check_order(order);
        return argpartition(to_array(a), kth_list(kth), opt_axis(axis));
      },
      "a"_a, "kth"_a, "axis"_a.none() = -1, "kind"_a = "introselect", "order"_a = nb::none(),
      "Indices that partition `a` (numpy.argpartition; computed by a stable argsort).");
  m.def(
      "searchsorted",
      [](nb::handle a, nb::handle v, const std::string& side, nb::handle sorter) {
        const std::optional<Device> dev = device_of({a, v, sorter});
        const Array arr = to_array(a, dev);
        std::optional<ArrayOrScalar> value = to_operand(v, arr.device());
        if (!value) value = ArrayOrScalar(to_array(v, arr.device()));
        std::optional<Array> perm;
        if (!sorter.is_none()) perm = to_array(sorter, arr.device());
        return searchsorted(arr, *value, side_right(side), perm);
      },
      "a"_a, "v"_a, "side"_a = "left", "sorter"_a = nb::none(),
      "Indices where `v` would be inserted into the sorted 1-D `a` to keep it sorted "
      "(numpy.searchsorted; NaN sorts last).");
  m.def("_unique", &unique_fn, "ar"_a, "return_index"_a = false, "return_inverse"_a = false,
        "return_counts"_a = false, "axis"_a = nb::none(), nb::kw_only(), "equal_nan"_a = true,
        "sorted"_a = true);
  m.def(
      "isin",
      [](nb::handle element, nb::handle test_elements, bool assume_unique, bool invert,
         nb::handle kind) {
        (void)assume_unique;
        const std::optional<Device> dev = device_of({element, test_elements});
        const Array a = to_array(element, dev), b = to_array(test_elements, dev);
        // kind= picks NumPy's algorithm; accelpy has one, so only the choice is checked.
        if (!kind.is_none()) {
          const std::string k = nb::isinstance<nb::str>(kind) ? nb::cast<std::string>(kind) : "";
          if (k != "sort" && k != "table") {
            throw ValueError("isin: invalid kind " + nb::cast<std::string>(nb::repr(kind)) +
                             "; use None, 'sort' or 'table'");
          }
          const auto integral = [](DType t) { return is_integer(t) || t == DType::Bool; };
          if (k == "table" && !(integral(a.dtype()) && integral(b.dtype()))) {
            throw ValueError("isin: kind='table' is only supported for boolean or integer arrays");
          }
        }
        return isin(a, b, invert);
      },
      "element"_a, "test_elements"_a, "assume_unique"_a = false, "invert"_a = false, nb::kw_only(),
      "kind"_a = nb::none(),
      "Whether each element is in test_elements (numpy.isin; NaN is in nothing).");
  m.def(
      "intersect1d",
      [](nb::handle a, nb::handle b, bool assume_unique, bool return_indices) -> nb::object {
        const std::optional<Device> dev = device_of({a, b});
        const IntersectResult r =
            intersect1d(to_array(a, dev), to_array(b, dev), assume_unique, return_indices);
        if (!return_indices) return nb::cast(r.values);
        return nb::make_tuple(r.values, r.indices1, r.indices2);
      },
      "ar1"_a, "ar2"_a, "assume_unique"_a = false, "return_indices"_a = false,
      "The sorted unique values in both arrays (numpy.intersect1d).",
      nb::sig("def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, "
              "return_indices: bool = False) -> Any"));
  m.def(
      "union1d",
      [](nb::handle a, nb::handle b) {
        const std::optional<Device> dev = device_of({a, b});
        return union1d(to_array(a, dev), to_array(b, dev));
      },
      "ar1"_a, "ar2"_a, "The sorted unique values in either array (numpy.union1d).");
  m.def(
      "setdiff1d",
      [](nb::handle a, nb::handle b, bool assume_unique) {
        const std::optional<Device> dev = device_of({a, b});
        return setdiff1d(to_array(a, dev), to_array(b, dev), assume_unique);
      },
      "ar1"_a, "ar2"_a, "assume_unique"_a = false,
      "The sorted unique values of ar1 that are not in ar2 (numpy.setdiff1d).");
  m.def("cumsum", &cumsum_fn, "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(),
        "Cumulative sum along `axis` (None: flattened); bool and small integers accumulate in "
        "int64/uint64 (numpy.cumsum).",
        nb::sig("def cumsum(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, "
                "out: ndarray | None = None) -> ndarray"));
  m.def("cumprod", &cumprod_fn, "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "Cumulative product along `axis` (numpy.cumprod).",
        nb::sig("def cumprod(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = "
                "None, out: ndarray | None = None) -> ndarray"));
  m.def(
      "cumulative_sum",
      [](nb::handle x, nb::handle axis, nb::handle dtype, nb::handle out, bool include_initial) {
        return finish_scan(
            cumulative_sum(to_array(x), opt_axis(axis), scan_dtype(dtype, out), include_initial),
            out);
      },
      "x"_a, nb::kw_only(), "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),
      "include_initial"_a = false,
      "Cumulative sum (Array API / numpy.cumulative_sum): axis is required above 1-D; "
      "include_initial=True starts each result with 0.",
      nb::sig(
          "def cumulative_sum(x: ArrayLike, *, axis: int | None = None, dtype: DTypeLike | None = "
          "None, out: ndarray | None = None, include_initial: bool = False) -> ndarray"));
  m.def(
      "cumulative_prod",
      [](nb::handle x, nb::handle axis, nb::handle dtype, nb::handle out, bool include_initial) {
        return finish_scan(
            cumulative_prod(to_array(x), opt_axis(axis), scan_dtype(dtype, out), include_initial),
            out);
      },
      "x"_a, nb::kw_only(), "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),
      "include_initial"_a = false,
      "Cumulative product (Array API / numpy.cumulative_prod); include_initial starts with 1.",
      nb::sig(
          "def cumulative_prod(x: ArrayLike, *, axis: int | None = None, dtype: DTypeLike | None = "
          "None, out: ndarray | None = None, include_initial: bool = False) -> ndarray"));
}

void bind_sorting_methods(nb::class_<Array>& cls) {
  cls.def(
         "sort",
         [](const Array& self, nb::handle axis, nb::handle kind, nb::handle order,
            nb::handle stable) {
           (void)stable;
           check_kind(kind);
           check_order(order);
           if (!self.writeable()) throw ValueError("assignment destination is read-only");
           assign(self, sort(self, opt_axis(axis)));
         },
         "axis"_a.none() = -1, "kind"_a = nb::none(), "order"_a = nb::none(), nb::kw_only(),
         "stable"_a = nb::none(), "Sorts the array in place along `axis` (ndarray.sort).")
      .def(
          "argsort",
          [](const Array& self, nb::handle axis, nb::handle kind, nb::handle order,
             nb::handle stable) {
            (void)stable;
            check_kind(kind);
            check_order(order);
            return argsort(self, opt_axis(axis));
          },
          "axis"_a.none() = -1, "kind"_a = nb::none(), "order"_a = nb::none(), nb::kw_only(),
          "stable"_a = nb::none(), "The indices that sort the array along `axis`, stably.")
      .def(
          "partition",
          [](const Array& self, nb::handle kth, nb::handle axis, nb::handle kind,
             nb::handle order) {
            check_kind(kind);
            check_order(order);
            if (!self.writeable()) throw ValueError("assignment destination is read-only");
            assign(self, partition(self, kth_list(kth), opt_axis(axis)));
          },
          "kth"_a, "axis"_a.none() = -1, "kind"_a = "introselect", "order"_a = nb::none(),
          "Partitions the array in place around each kth (ndarray.partition; a full sort).")
      .def(
          "argpartition",
          [](const Array& self, nb::handle kth, nb::handle axis, nb::handle kind,
             nb::handle order) {
            check_kind(kind);
            check_order(order);
            return argpartition(self, kth_list(kth), opt_axis(axis));
          },
          "kth"_a, "axis"_a.none() = -1, "kind"_a = "introselect", "order"_a = nb::none(),
          "Indices that partition the array (ndarray.argpartition).")
      .def(
          "searchsorted",
          [](const Array& self, nb::handle v, const std::string& side, nb::handle sorter) {
            std::optional<ArrayOrScalar> value = to_operand(v, self.device());
            if (!value) value = ArrayOrScalar(to_array(v, self.device()));
            std::optional<Array> perm;
            if (!sorter.is_none()) perm = to_array(sorter, self.device());
            return searchsorted(self, *value, side_right(side), perm);
          },
          "v"_a, "side"_a = "left", "sorter"_a = nb::none(),
          "Insertion points of v into this sorted 1-D array (ndarray.searchsorted).")
      .def(
          "cumsum",
          [](const Array& self, nb::handle axis, nb::handle dtype, nb::handle out) {
            return finish_scan(cumsum(self, opt_axis(axis), scan_dtype(dtype, out)), out);
          },
          "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),
          "Cumulative sum along `axis` (ndarray.cumsum).",
          nb::sig("def cumsum(self, axis: int | None = None, dtype: DTypeLike | None = None, out: "
                  "ndarray | None = None) -> ndarray"))
      .def(
          "cumprod",
          [](const Array& self, nb::handle axis, nb::handle dtype, nb::handle out) {
            return finish_scan(cumprod(self, opt_axis(axis), scan_dtype(dtype, out)), out);
          },
          "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),
          "Cumulative product along `axis` (ndarray.cumprod).",
          nb::sig("def cumprod(self, axis: int | None = None, dtype: DTypeLike | None = None, out: "
                  "ndarray | None = None) -> ndarray"));
}

}  // namespace accel::python
