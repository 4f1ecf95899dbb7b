// NumPy's ndarray.base for the arrays the bindings return (array_base.cpp).
#pragma once

#include <nanobind/nanobind.h>

#include "accel/array.hpp"

namespace accel::python {

namespace nb = nanobind;

// `result`, computed from `source` (the Python argument `source_obj`), as a Python object: when
// it reaches source's memory it is a view, whose base is source (or source's own base when
// source is a view), as in NumPy. A result that is source's own handle becomes a new view when
// `new_handle` (NumPy's reshape, transpose, a[...] return new objects), else it is source itself
// (NumPy's `real` of a real array). Any other result owns its data.
nb::object view_of(nb::handle source_obj, const Array& source, Array result,
                   bool new_handle = true);
// The same for reshape in `order` ('C' or 'F'): where the layout allows no view, NumPy copies
// the source into that order and returns a view of the copy, whose base the copy is.
nb::object reshaped_view_of(nb::handle source_obj, const Array& source, Array result, char order);
// ndarray.base: the array a view reaches the memory of; None for an array that owns its data.
nb::object array_base(nb::handle array);

}  // namespace accel::python
