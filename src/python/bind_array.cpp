// accelpy.ndarray: the bound C++ Array, its attributes, conversions and methods (its operators:
// bind_array_operators.cpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/result_layout.hpp"
#include "src/core/type_rules.hpp"
#include "src/python/array_base.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"
#include "src/python/element.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

// float(), int() and complex() take 0-d arrays only (NumPy 2); float() and int() refuse complex
// values, as Python's float() and int() refuse complex numbers.
void require_scalar(const Array& a, const char* fn, bool allow_complex) {
  if (a.ndim() != 0) {
    throw TypeError(std::string("only 0-dimensional arrays can be converted to Python scalars (") +
                    fn + "() of an array of shape " + shape_str(a.shape()) + ")");
  }
  if (!allow_complex && is_complex(a.dtype())) {
    throw TypeError(std::string(fn) +
                    "() argument must be a real number, not 'complex' (array of " +
                    std::string(dtype_name(a.dtype())) + ")");
  }
}

// ndarray.item's arguments as integer indices: none (the only element), a flat index, or one
// index per dimension (as separate arguments or a tuple).
std::vector<Index> item_index(const Array& a, nb::args args) {
  std::vector<int64_t> ix;
  nb::handle items = args.size() == 1 && PyTuple_Check(args[0].ptr()) ? args[0] : args;
  for (nb::handle h : items) {
    if (!PyIndex_Check(h.ptr())) throw TypeError("item() arguments must be integers");
    nb::object i = nb::steal(PyNumber_Index(h.ptr()));
    if (!i.is_valid()) throw nb::python_error();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow) throw OverflowError("Python int too large to convert to C long");  // NumPy's
    ix.push_back(int64_t(v));
  }
  if (ix.empty()) {
    if (a.size() != 1) {
      throw ValueError(
          "can only convert an array of size 1 to a Python scalar (this array has size " +
          std::to_string(a.size()) + ")");
    }
    return std::vector<Index>(a.ndim(), int64_t{0});
  }
  if (ix.size() == 1 && a.ndim() != 1) {
    int64_t flat = ix[0];
    if (flat < -a.size() || flat >= a.size()) {
      throw IndexError("index " + std::to_string(flat) + " is out of bounds for size " +
                       std::to_string(a.size()));
    }
    if (flat < 0) flat += a.size();
    ix.assign(a.ndim(), 0);
    for (int d = a.ndim() - 1; d >= 0; --d) {
      ix[d] = flat % a.shape()[d];
      flat /= a.shape()[d];
    }
  } else if (int(ix.size()) != a.ndim()) {
    throw ValueError("incorrect number of indices for array");
  }
  return std::vector<Index>(ix.begin(), ix.end());
}

// The right-hand side of a[key] = value (a Python int too large for int64 is fine for a float
// destination, as in NumPy).
ArrayOrScalar assigned_value(const Array& dst, nb::handle value) {
  // NumPy converts a Python complex stored into an integer or float array with int() or
  // float(), which refuse it; a NumPy complex scalar or array is cast instead (the imaginary
  // part dropped), and bool takes any number.
  if (PyComplex_CheckExact(value.ptr()) && !is_complex(dst.dtype()) && !is_bool(dst.dtype())) {
    throw TypeError(is_floating(dst.dtype())
                        ? "float() argument must be a string or a real number, not 'complex'"
                        : "int() argument must be a string, a bytes-like object or a real "
                          "number, not 'complex'");
  }
  if (std::optional<Scalar> s = to_scalar_for(value, dst.dtype())) return ArrayOrScalar(*s);
  std::optional<ArrayOrScalar> v = to_operand(value, dst.device());
  if (!v) v = ArrayOrScalar(to_array(value, dst.device()));
  return *v;
}

}  // namespace

void set_item(const Array& a, nb::handle key, nb::handle value) {
  std::optional<std::vector<Index>> idx;
  if (write_element(a, key, value, idx)) return;
  const nb::object v = device_element_value(a, key, value);
  index_assign(a, idx ? std::move(*idx) : to_index(key, a.device()), assigned_value(a, v));
}

namespace {

// iter(a): a[0], a[1], ... taken one at a time as the loop asks for them (a write to `a` inside
// the loop shows in the rows not yet taken, as in NumPy), over the first axis's length at the
// time iter() was called.
struct ArrayIterator {
  nb::object array;
  int64_t next = 0;
  int64_t length = 0;
};

// The iterator's tp_iternext: an exhausted iterator returns null with no exception set, which
// Python's loops and unpacking take as the end without making a StopIteration (a C++ exception
// thrown through nanobind, nb::stop_iteration, cost about a microsecond: the price of unpacking
// `dx, dy = row` doubled). An element that raises is taken again through `_next`, whose call
// translates the C++ exception into Python's.
PyObject* array_iternext(PyObject* self) {
  ArrayIterator& it = *nb::inst_ptr<ArrayIterator>(self);
  if (it.next >= it.length) return nullptr;
  try {
    const nb::object key = nb::steal(PyLong_FromLongLong(it.next));
    nb::object item = get_item(it.array, key);
    ++it.next;
    return item.release().ptr();
  } catch (...) {
  }
  return PyObject_CallMethod(self, "_next", nullptr);
}

Strides byte_strides(const Array& a) {
  Strides s = a.strides();
  for (int64_t& v : s) v *= int64_t(itemsize(a.dtype()));
  return s;
}

// nanobind 3.1 keeps freed instances of a pooled type for reuse: a loop's results then skip the
// allocator, the garbage collector's allocation count (which triggers its collections: nanobind
// makes every weak-referenceable type a collected one) and nanobind's instance map. Older
// nanobind has no pool (the class gets its flag twice instead, which changes nothing).
#if NB_VERSION_MAJOR * 100 + NB_VERSION_MINOR >= 301
nb::pooled instance_pool() { return nb::pooled(); }
#else
nb::is_weak_referenceable instance_pool() { return {}; }
#endif

}  // namespace

void bind_array(nb::module_& m) {
  static PyType_Slot iterator_slots[] = {{Py_tp_iternext, reinterpret_cast<void*>(&array_iternext)},
                                         {0, nullptr}};
  nb::class_<ArrayIterator>(m, "_ndarray_iterator", "The iterator of an ndarray's first axis.",
                            nb::type_slots(iterator_slots))
      .def("__iter__", [](nb::handle self) { return nb::borrow(self); })
      .def("_next", [](ArrayIterator& it) {
        if (it.next >= it.length) throw nb::stop_iteration();
        const nb::object key = nb::steal(PyLong_FromLongLong(it.next++));
        return get_item(it.array, key);
      });
  nb::class_<Array> cls(
      m, "ndarray", nb::is_weak_referenceable(), instance_pool(),
      "An n-dimensional array on a device, with NumPy's semantics. Operations are "
      "deferred and fused; data access evaluates them.");
  // NumPy's low-level constructor, ndarray(shape, dtype, buffer, offset, strides, order):
  // programs written for NumPy make uninitialised arrays with it. Its rules are Python's
  // (_creation.ndarray_new). `shape` is required so that nanobind keeps its own argument-less
  // __new__ as an overload (an uninitialised instance, which the kernels' checks refuse).
  cls.def(nb::new_([](nb::handle shape, nb::args args, nb::kwargs kwargs) {
            return nb::module_::import_("accelpy._creation")
                .attr("ndarray_new")(shape, *args, **kwargs);
          }),
          nb::arg("shape"), nb::arg("args"), nb::arg("kwargs"));
  cls.def_prop_ro(
         "shape", [](const Array& a) { return shape_tuple(a.shape()); },
         nb::for_getter(nb::sig("def shape(self) -> tuple[int, ...]")))
      .def_prop_ro(
          "dtype", [](const Array& a) { return dtype_object(a.dtype()); },
          nb::for_getter(nb::sig("def dtype(self) -> numpy.dtype[Any]")))
      .def_prop_ro("ndim", &Array::ndim)
      .def_prop_ro("size", &Array::size)
      .def_prop_ro("nbytes", &Array::nbytes)
      .def_prop_ro("itemsize", [](const Array& a) { return itemsize(a.dtype()); })
      .def_prop_ro(
          "strides", [](const Array& a) { return shape_tuple(byte_strides(a)); },
          "Bytes to step in each dimension, as NumPy's strides.",
          nb::for_getter(nb::sig("def strides(self) -> tuple[int, ...]")))
      .def_prop_ro("device", &Array::device)
      .def_prop_ro(
          "T",
          [](nb::pointer_and_handle<Array> self) {
            return view_of(self.h, *self.p, transpose(*self.p));
          },
          nb::for_getter(nb::sig("def T(self) -> ndarray")))
      .def_prop_ro(
          "mT",
          [](nb::pointer_and_handle<Array> self) {
            const Array& a = *self.p;
            if (a.ndim() < 2) throw ValueError("matrix transpose with ndim < 2 is undefined");
            return view_of(self.h, a, swapaxes(a, -1, -2));
          },
          nb::for_getter(nb::sig("def mT(self) -> ndarray")))
      .def_prop_rw(
          "real",
          [](nb::pointer_and_handle<Array> self) {
            return view_of(self.h, *self.p, real(*self.p), false);
          },
          [](const Array& a, nb::handle v) { assign(real(a), *to_operand(v, a.device())); },
          nb::for_getter(nb::sig("def real(self) -> ndarray")),
          nb::for_setter(nb::sig("def real(self, value: ArrayLike, /) -> None")))
      .def_prop_rw(
          "imag",
          [](nb::pointer_and_handle<Array> self) {
            return view_of(self.h, *self.p, imag(*self.p));
          },
          [](const Array& a, nb::handle v) {
            if (!is_complex(a.dtype()))
              throw TypeError("array does not have imaginary part to set");
            assign(imag(a), *to_operand(v, a.device()));
          },
          nb::for_getter(nb::sig("def imag(self) -> ndarray")),
          nb::for_setter(nb::sig("def imag(self, value: ArrayLike, /) -> None")))
      .def("__len__",
           [](const Array& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def(
          "__iter__",
          [](nb::handle self) {
            const Array& a = nb::cast<const Array&>(self);
            if (a.ndim() == 0) throw TypeError("iteration over a 0-d array");
            return ArrayIterator{nb::borrow(self), 0, a.shape()[0]};
          },
          nb::sig("def __iter__(self) -> Iterator[Any]"))
      .def(
          "__getitem__", [](nb::handle self, nb::handle key) { return get_item(self, key); },
          "key"_a.none(), nb::sig("def __getitem__(self, key: Any, /) -> Any"))
      .def(
          "__setitem__",
          [](const Array& a, nb::handle key, nb::handle value) { set_item(a, key, value); },
          "key"_a.none(), "value"_a.none(),
          nb::sig("def __setitem__(self, key: Any, value: ArrayLike, /) -> None"))
      .def("__bool__",
           [](const Array& a) {
             if (a.size() == 0) {
               throw ValueError(
                   "The truth value of an empty array is ambiguous. Use `array.size > 0` to check "
                   "that an array is not empty.");
             }
             if (a.size() > 1) {
               throw ValueError(
                   "The truth value of an array with more than one element is ambiguous. Use "
                   "a.any() or a.all()");
             }
             // The value's own truth, without looking its __bool__ up and calling it (a loop's
             // `if err < tol:` pays that per iteration).
             const int truth = PyObject_IsTrue(to_python_scalar(a).ptr());
             if (truth < 0) throw nb::python_error();
             return truth != 0;
           })
      .def("__float__",
           [](const Array& a) {
             require_scalar(a, "float", false);
             return nb::float_(to_python_scalar(a));
           })
      .def("__int__",
           [](const Array& a) {
             require_scalar(a, "int", false);
             return nb::int_(to_python_scalar(a));
           })
      .def(
          "__complex__",
          [](const Array& a) {
            require_scalar(a, "complex", true);
            return nb::steal(PyComplex_FromCComplex([&] {
              const nb::object v = to_python_scalar(a);
              return PyComplex_AsCComplex(v.ptr());
            }()));
          },
          nb::sig("def __complex__(self) -> complex"))
      .def(
          "__index__",
          [](const Array& a) {
            if (!is_integer(a.dtype()) || a.ndim() != 0) {
              throw TypeError(
                  "only integer scalar arrays can be converted to a scalar index (got a " +
                  std::string(dtype_name(a.dtype())) + " array of shape " + shape_str(a.shape()) +
                  ")");
            }
            return to_python_scalar(a);
          },
          nb::sig("def __index__(self) -> int"))
      .def(
          "item",
          [](const Array& a, nb::args args) {
            return to_python_scalar(index(a, item_index(a, args)));
          },
          "The element at a flat index, a multi-index or (by default) the only one, as a Python "
          "scalar (numpy.ndarray.item).",
          nb::sig("def item(self, *args: int) -> Any"))
      .def(
          "__array__",
          [](const Array& a, nb::handle dtype, std::optional<bool> copy) {
            // NumPy's protocol: copy=False must not convert either.
            const bool convert = !dtype.is_none() && to_dtype(dtype) != a.dtype();
            if (convert && copy == false) {
              throw ValueError("Unable to avoid copy while creating an array as requested: " +
                               std::string(dtype_name(a.dtype())) + " must be converted to " +
                               std::string(dtype_name(to_dtype(dtype))));
            }
            nb::object out;
            if (a.device().is_cpu()) {
              out = to_numpy(a, convert ? std::optional<bool>() : copy);
            } else {
              // A NumPy program run on a GPU hands its arrays to NumPy, plotting and file
              // libraries: they get a host copy, as JAX's arrays give (CuPy raises TypeError),
              // so the program runs unchanged; `get` and `asnumpy` stay the explicit forms.
              if (copy == false) {
                throw ValueError(
                    "Unable to avoid copy while creating an array as requested: the array is on " +
                    a.device().str() + " (accelpy.asnumpy copies it to the host)");
              }
              out = host_copy(a);
            }
            if (convert) out = out.attr("astype")(dtype);
            return out;
          },
          "dtype"_a = nb::none(), "copy"_a = nb::none(),
          nb::sig("def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) "
                  "-> numpy.typing.NDArray[Any]"))
      .def(
          "get", [](const Array& a) { return host_copy(a); },
          "A NumPy copy of the data (CuPy's get).",
          nb::sig("def get(self) -> numpy.typing.NDArray[Any]"))
      .def(
          "tolist",
          [](const Array& a, nb::args args) {
            if (args.size() != 0) {
              throw TypeError("tolist() takes no arguments (" + std::to_string(args.size()) +
                              " given)");
            }
            return host_copy(a).attr("tolist")();
          },
          "The data as nested Python lists of Python scalars.", nb::sig("def tolist(self) -> Any"))
      .def(
          "astype",
          [](const Array& a, nb::handle dtype, nb::handle order, const std::string& casting,
             bool subok, bool copy) {
            (void)subok;  // accelpy has no ndarray subclasses
            return astype_checked(a, dtype, order, casting, copy);
          },
          "dtype"_a, "order"_a = "K", "casting"_a = "unsafe", "subok"_a = true, "copy"_a = true,
          "A copy converted to dtype (no copy when copy=False and it matches); `casting` as in "
          "NumPy (TypeError when the conversion is not allowed).",
          nb::sig("def astype(self, dtype: DTypeLike, order: str = 'K', casting: str = 'unsafe', "
                  "subok: bool = True, copy: bool = True) -> ndarray"))
      .def(
          "view",
          [](nb::pointer_and_handle<Array> self, nb::handle dtype, nb::handle type) {
            const Array& a = *self.p;
            if (!type.is_none()) {
              throw nb::type_error(
                  "view: type= (an ndarray subclass) is not supported; "
                  "accelpy arrays view only as another dtype");
            }
            return view_of(self.h, a, view_as(a, dtype.is_none() ? a.dtype() : to_dtype(dtype)));
          },
          "dtype"_a = nb::none(), "type"_a = nb::none(),
          "A view of the same memory, read as `dtype` (ndarray.view): another item size rescales "
          "the last axis, which must be contiguous.",
          nb::sig("def view(self, dtype: DTypeLike | None = None, type: None = None) -> ndarray"))
      .def_prop_ro("_writeable", &Array::writeable,
                   nb::for_getter(nb::sig("def _writeable(self) -> bool")))
      .def_prop_ro("base", &array_base,
                   "The array whose memory this view reaches (the first that owns it), None for "
                   "an array that owns its data (numpy.ndarray.base).",
                   nb::for_getter(nb::sig("def base(self) -> ndarray | None")))
      .def(
          "copy",
          [](const Array& a, nb::handle order) {
            return copy_in_order(a, layout_order(a, order, "copy", true));
          },
          "order"_a.none() = "C", "A copy of the array, C-ordered unless `order` says otherwise.",
          nb::sig("def copy(self, order: str = 'C') -> ndarray"))
      .def("__copy__", [](const Array& a) { return copy(a); })
      .def(
          "__deepcopy__", [](const Array& a, nb::handle) { return copy(a); }, "memo"_a)
      .def(
          "to", [](const Array& a, nb::handle device) { return to_device(a, to_device(device)); },
          "device"_a, "The array on another device (the array itself if it is there already).",
          nb::sig("def to(self, device: DeviceLike, /, *, stream: Any = None) -> ndarray"))
      .def(
          "cpu", [](const Array& a) { return to_device(a, Device::cpu()); },
          "The array on the CPU.")
      .def(
          "reshape",
          [](nb::pointer_and_handle<Array> self, nb::args shape, nb::handle order) {
            const Array& a = *self.p;
            if (shape.size() == 0) throw TypeError("reshape() takes exactly 1 argument (0 given)");
            const char layout = layout_order(a, order, "reshape", false);
            return reshaped_view_of(
                self.h, a,
                reshape_in_order(a, to_shape(shape.size() == 1 ? shape[0] : shape), layout),
                layout);
          },
          "shape"_a, "order"_a = "C",
          "A view (or copy) with a new shape; the shape may be given as one tuple or as arguments.",
          nb::sig("def reshape(self, *shape: int | Sequence[int], order: str = 'C') -> ndarray"))
      .def(
          "ravel",
          [](nb::pointer_and_handle<Array> self, nb::handle order) {
            const Array& a = *self.p;
            return view_of(self.h, a, ravel_in_order(a, layout_order(a, order, "ravel", true)));
          },
          "order"_a = "C", "The elements as a 1-D array: a view when C-contiguous, else a copy.",
          nb::sig("def ravel(self, order: str = 'C') -> ndarray"))
      .def(
          "flatten",
          [](const Array& a) {
            // A new 1-d array (its stride 0 when empty, as NumPy allocates it), not a reshape.
            const Array c = copy(a);
            const Shape flat{a.size()};
            return c.view(flat, new_array_strides(flat), c.offset());
          },
          "A flat copy.")
      .def(
          "transpose",
          [](nb::pointer_and_handle<Array> self, nb::args axes) {
            const Array& a = *self.p;
            if (axes.size() == 0 || (axes.size() == 1 && axes[0].is_none())) {
              return view_of(self.h, a, transpose(a));
            }
            return view_of(self.h, a, transpose(a, to_axes(axes.size() == 1 ? axes[0] : axes)));
          },
          nb::sig("def transpose(self, *axes: int | Sequence[int] | None) -> ndarray"))
      .def(
          "swapaxes",
          [](nb::pointer_and_handle<Array> self, int64_t axis1, int64_t axis2) {
            return view_of(self.h, *self.p, swapaxes(*self.p, axis1, axis2));
          },
          "axis1"_a, "axis2"_a, nb::sig("def swapaxes(self, axis1: int, axis2: int) -> ndarray"))
      .def(
          "squeeze",
          [](nb::pointer_and_handle<Array> self, nb::handle axis) {
            return view_of(self.h, *self.p, squeeze(*self.p, to_axes(axis)));
          },
          "axis"_a = nb::none(), nb::sig("def squeeze(self, axis: Axis = None) -> ndarray"))
      .def(
          "fill",
          [](const Array& a, nb::handle value) {
            std::optional<Scalar> v = to_scalar_for(value, a.dtype());
            if (!v) throw TypeError("fill: value must be a scalar");
            assign(a, *v);
          },
          "value"_a, "Sets every element to value.",
          nb::sig("def fill(self, value: complex) -> None"))
      .def("sum", &reduce_sum, "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),
           "keepdims"_a = false, "initial"_a = nb::none(), "where"_a = nb::bool_(true),
           nb::sig("def sum(self, axis: Axis = None, dtype: DTypeLike | None = None, out: ndarray "
                   "| None = None, keepdims: bool = False, initial: complex | None = None, where: "
                   "ArrayLike = True) -> ndarray"))
      .def("prod", &reduce_prod, "axis"_a = nb::none(), "dtype"_a = nb::none(),
           "out"_a = nb::none(), "keepdims"_a = false, "initial"_a = nb::none(),
           "where"_a = nb::bool_(true),
           nb::sig("def prod(self, axis: Axis = None, dtype: DTypeLike | None = None, out: ndarray "
                   "| None = None, keepdims: bool = False, initial: complex | None = None, where: "
                   "ArrayLike = True) -> ndarray"))
      .def("mean", &reduce_mean, "axis"_a = nb::none(), "dtype"_a = nb::none(),
           "out"_a = nb::none(), "keepdims"_a = false, nb::kw_only(), "where"_a = nb::bool_(true),
           nb::sig("def mean(self, axis: Axis = None, dtype: DTypeLike | None = None, out: ndarray "
                   "| None = None, keepdims: bool = False, *, where: ArrayLike = True) -> ndarray"))
      .def("var", &reduce_var, "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),
           "ddof"_a = 0.0, "keepdims"_a = false, nb::kw_only(), "correction"_a = nb::none(),
           nb::sig("def var(self, axis: Axis = None, dtype: DTypeLike | None = None, out: ndarray "
                   "| None = None, ddof: float = 0.0, keepdims: bool = False, *, correction: float "
                   "| None = None) -> ndarray"))
      .def("std", &reduce_std, "axis"_a = nb::none(), "dtype"_a = nb::none(), "out"_a = nb::none(),
           "ddof"_a = 0.0, "keepdims"_a = false, nb::kw_only(), "correction"_a = nb::none(),
           nb::sig("def std(self, axis: Axis = None, dtype: DTypeLike | None = None, out: ndarray "
                   "| None = None, ddof: float = 0.0, keepdims: bool = False, *, correction: float "
                   "| None = None) -> ndarray"))
      .def("max", &reduce_max, "axis"_a = nb::none(), "out"_a = nb::none(), "keepdims"_a = false,
           "initial"_a = nb::none(), "where"_a = nb::bool_(true),
           nb::sig("def max(self, axis: Axis = None, out: ndarray | None = None, keepdims: bool = "
                   "False, initial: complex | None = None, where: ArrayLike = True) -> ndarray"))
      .def("min", &reduce_min, "axis"_a = nb::none(), "out"_a = nb::none(), "keepdims"_a = false,
           "initial"_a = nb::none(), "where"_a = nb::bool_(true),
           nb::sig("def min(self, axis: Axis = None, out: ndarray | None = None, keepdims: bool = "
                   "False, initial: complex | None = None, where: ArrayLike = True) -> ndarray"))
      .def("any", &reduce_any, "axis"_a = nb::none(), "out"_a = nb::none(), "keepdims"_a = false,
           nb::kw_only(), "where"_a = nb::bool_(true),
           nb::sig("def any(self, axis: Axis = None, out: ndarray | None = None, keepdims: bool = "
                   "False, *, where: ArrayLike = True) -> ndarray"))
      .def("all", &reduce_all, "axis"_a = nb::none(), "out"_a = nb::none(), "keepdims"_a = false,
           nb::kw_only(), "where"_a = nb::bool_(true),
           nb::sig("def all(self, axis: Axis = None, out: ndarray | None = None, keepdims: bool = "
                   "False, *, where: ArrayLike = True) -> ndarray"))
      .def("argmax", &reduce_argmax, "axis"_a = nb::none(), "out"_a = nb::none(),
           "keepdims"_a = false,
           nb::sig("def argmax(self, axis: Axis = None, out: ndarray | None = None, keepdims: bool "
                   "= False) -> ndarray"))
      .def("argmin", &reduce_argmin, "axis"_a = nb::none(), "out"_a = nb::none(),
           "keepdims"_a = false,
           nb::sig("def argmin(self, axis: Axis = None, out: ndarray | None = None, keepdims: bool "
                   "= False) -> ndarray"))
      .def(
          "clip",
          [](nb::handle self, nb::handle min, nb::handle max, nb::handle out) {
            return clip_values(self, min, max, out);
          },
          "min"_a = nb::none(), "max"_a = nb::none(), "out"_a = nb::none(),
          "The values limited to [min, max] (numpy.clip).",
          nb::sig("def clip(self, min: ArrayLike | None = None, max: ArrayLike | None = None, out: "
                  "ndarray | None = None) -> ndarray"))
      .def(
          "round",
          [](nb::handle self, int64_t decimals, nb::handle out) {
            return round_values(self, decimals, out);
          },
          "decimals"_a = 0, "out"_a = nb::none(),
          "Rounded half to even to the given number of decimals (numpy.round).",
          nb::sig("def round(self, decimals: int = 0, out: ndarray | None = None) -> ndarray"))
      .def(
          "conj",
          [](const Array& a) {
            const ArrayOrScalar x(a);
            return elementwise(OpKind::Conj, {&x});
          },
          "The complex conjugate, elementwise.")
      .def(
          "conjugate",
          [](const Array& a) {
            const ArrayOrScalar x(a);
            return elementwise(OpKind::Conj, {&x});
          },
          "The complex conjugate, elementwise (same as conj).")
      .def("_is_pending", &Array::is_pending, "Whether evaluating would compute something.")
      .def(
          "_owning", [](const Array& a) { return a; },
          "A new array object over the same data that owns it (base None): for the functions "
          "written in Python whose result is a view of a temporary they made, as NumPy's own.")
      .def(
          "_storage_id",
          [](const Array& a) { return reinterpret_cast<uintptr_t>(a.storage().get()); },
          "Identity of the underlying storage (views share it).")
      .def(
          "_storage_refs", [](const Array& a) { return a.storage().use_count(); },
          "How many arrays (views, pending work) hold the underlying storage.")
      .def(
          "_become", [](Array& self, const Array& other) { self = other; }, "other"_a,
          "Makes this array object another array (in-place shape changes and resize: NumPy "
          "changes an array object's metadata, which a view of the new layout carries).");
  bind_sorting_methods(cls);
  cls.attr("__hash__") = nb::none();
  cls.attr("__array_priority__") = 100;

  bind_array_operators(cls);
}

}  // namespace accel::python
