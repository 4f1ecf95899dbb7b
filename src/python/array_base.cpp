// NumPy's ndarray.base (and with it flags.owndata) for the arrays the bindings return.
//
// NumPy records in each view the array it views: the first array that owns the data (a view of
// a view names its source's base, never the intermediate view), kept alive by the view. Here a
// result is marked a view where the bindings return it from an array whose memory it reaches
// (view_of); the core's own intermediate views are never marked, so a result computed into a
// temporary and returned as a view of it owns its data, as NumPy's results do.
//
// The mark lives beside the object, not in it: a table from each view to its base, whose entry
// goes when the view goes (a weak reference's callback). Only views pay for it; arrays that own
// their data, most results, carry nothing and stay out of the garbage collector.
#include "src/python/array_base.hpp"

#include <algorithm>
#include <unordered_map>

namespace accel::python {

namespace {

struct ViewBase {
  PyObject* ref;   // the weak reference to the view whose callback removes this entry
  PyObject* base;  // owned
};

// The views' bases by view, and the view of each weak reference (its callback gets only that).
std::unordered_map<PyObject*, ViewBase>& bases() {
  static auto* table = new std::unordered_map<PyObject*, ViewBase>();  // lives to the exit
  return *table;
}
std::unordered_map<PyObject*, PyObject*>& views_of_refs() {
  static auto* table = new std::unordered_map<PyObject*, PyObject*>();
  return *table;
}

// The weak references' callback: the view is gone, its entry and its base go. A plain C
// function, not a nanobind one, which nanobind would count as leaked at exit.
PyObject* forget(PyObject*, PyObject* ref) {
  auto& refs = views_of_refs();
  const auto view = refs.find(ref);
  if (view != refs.end()) {
    const auto entry = bases().find(view->second);
    PyObject* base = entry->second.base;
    bases().erase(entry);
    refs.erase(view);
    Py_DECREF(base);
    Py_DECREF(ref);
  }
  Py_RETURN_NONE;
}

PyMethodDef forget_def = {"_forget_view", forget, METH_O, nullptr};

PyObject* forget_callback() {
  static PyObject* callback = PyCFunction_New(&forget_def, nullptr);  // lives to the exit
  return callback;
}

void set_base(nb::handle view, nb::handle base) {
  PyObject* callback = forget_callback();
  if (callback == nullptr) throw nb::python_error();
  PyObject* ref = PyWeakref_NewRef(view.ptr(), callback);
  if (ref == nullptr) throw nb::python_error();
  bases().emplace(view.ptr(), ViewBase{ref, base.inc_ref().ptr()});
  views_of_refs().emplace(ref, view.ptr());
}

}  // namespace

nb::object array_base(nb::handle array) {
  const auto entry = bases().find(array.ptr());
  return entry == bases().end() ? nb::none() : nb::borrow(entry->second.base);
}

nb::object view_of(nb::handle source_obj, const Array& source, Array result, bool new_handle) {
  if (!result.defined() || result.storage() != source.storage()) return nb::cast(std::move(result));
  const bool is_array = source_obj.is_valid() && nb::isinstance<Array>(source_obj);
  if (result.impl() == source.impl()) {
    if (!new_handle && is_array) return nb::borrow(source_obj);
    result = source.view(source.shape(), source.strides(), source.offset());
  }
  // An argument that was not an accelpy array (a list, NumPy's array) became one first: the
  // view's base is that array, as numpy.reshape(list)'s base is the array made of the list.
  nb::object from = is_array ? nb::borrow(source_obj) : nb::cast(source);
  nb::object base = array_base(from);
  nb::object view = nb::cast(std::move(result));
  set_base(view, base.is_none() ? from : base);
  return view;
}

nb::object reshaped_view_of(nb::handle source_obj, const Array& source, Array result, char order) {
  if (!result.defined() || result.storage() == source.storage() || result.offset() != 0) {
    return view_of(source_obj, source, std::move(result));
  }
  // The copy: the result's memory read with the source's shape in `order`'s layout.
  Shape shape = source.shape();
  Strides strides;
  if (order == 'F') {
    std::reverse(shape.begin(), shape.end());
    strides = contiguous_strides(shape);
    std::reverse(strides.begin(), strides.end());
    std::reverse(shape.begin(), shape.end());
  } else {
    strides = contiguous_strides(shape);
  }
  nb::object copy = nb::cast(result.view(std::move(shape), std::move(strides), 0));
  nb::object view = nb::cast(std::move(result));
  set_base(view, copy);
  return view;
}

}  // namespace accel::python
