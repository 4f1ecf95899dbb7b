// NumPy's ndarray.base (and with it flags.owndata) for the arrays the bindings return.
//
// NumPy records in each view the array it views: the first array that owns the data (a view of
// a view names its source's base, never the intermediate view), kept alive by the view. Here a
// result is marked a view where the bindings return it from an array whose memory it reaches
// (view_of); the core's own intermediate views are never marked, so a result computed into a
// temporary and returned as a view of it owns its data, as NumPy's results do.
//
// The mark lives beside the object, not in it: a table from each view to its base, whose entry
// goes when the view goes (nanobind's keep-alive callback, run by the instance's deallocation:
// no weak reference object and no Python call per view). Only views pay for it; arrays that own
// their data, most results, carry nothing and stay out of the garbage collector.
#include "src/python/array_base.hpp"

#include <algorithm>
#include <unordered_map>

namespace accel::python {

namespace {

// The views' bases (owned references) by view.
std::unordered_map<PyObject*, PyObject*>& bases() {
  static auto* table = new std::unordered_map<PyObject*, PyObject*>();  // lives to the exit
  return *table;
}

// The view (the payload) is being deallocated: its entry and its base go.
void forget(void* view) noexcept {
  const auto entry = bases().find(static_cast<PyObject*>(view));
  if (entry == bases().end()) return;
  PyObject* base = entry->second;
  bases().erase(entry);
  Py_DECREF(base);
}

void set_base(nb::handle view, nb::handle base) {
  bases().emplace(view.ptr(), base.inc_ref().ptr());
  nb::keep_alive_cb(view, view.ptr(), &forget);
}

}  // namespace

nb::object array_base(nb::handle array) {
  const auto entry = bases().find(array.ptr());
  return entry == bases().end() ? nb::none() : nb::borrow(entry->second);
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
