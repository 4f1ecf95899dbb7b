// One element of a CPU array read as NumPy's scalar and written with NumPy's casting, through
// NumPy's own C API (reached at run time: NumPy is a dependency of the package, not of its
// build).
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <vector>

#include "accel/array.hpp"
#include "accel/ops.hpp"

namespace accel::python {

namespace nb = nanobind;

// NumPy's scalar of dtype `dt` holding the element at `data` (a copy: np.float32, np.int8,
// np.bool, np.complex64, ml_dtypes' bfloat16, ...), as numpy.ndarray's a[i] returns it.
nb::object numpy_scalar(const void* data, DType dt);

// The value of NumPy's scalar `scalar` of a builtin dtype (not bfloat16), as its dtype's bytes.
void numpy_scalar_bytes(PyObject* scalar, void* out);

// The element of computed or pending CPU array `a` at `key` when `key` selects one element
// (an integer per axis, or () on a 0-d array); a null object when it does not, or when `a` is
// not on the CPU. Pending work is computed first. A key it had to parse is left in `parsed`.
nb::object read_element(const Array& a, nb::handle key, std::optional<std::vector<Index>>& parsed);

// a[key] = value for a CPU array, an integer per axis and a Python or NumPy number or a 0-d CPU
// array (computed first): converts the value with NumPy's casting (NumPy's errors), runs the
// write barrier and stores it. Returns false, having done nothing, for any other case; `parsed`
// then holds the key's indices where it parsed them (the general path's, parsed once).
bool write_element(const Array& a, nb::handle key, nb::handle value,
                   std::optional<std::vector<Index>>& parsed);

// The value the general path writes for a[key] = value on a GPU: for an integer per axis and a
// number, NumPy's scalar of a's dtype converted with NumPy's casting (NumPy's errors: an int out
// of range raises OverflowError); else the value itself.
nb::object device_element_value(const Array& a, nb::handle key, nb::handle value);

}  // namespace accel::python
