// Conversions between Python objects and the core's types. Bindings only: no array logic.
#pragma once

#include <nanobind/nanobind.h>

#include <memory>
#include <optional>
#include <vector>

#include "accel/ops.hpp"

namespace accel::python {

namespace nb = nanobind;

// Called once from accelpy/__init__.py with the NumPy dtype objects of the 15 dtypes (in
// DType order; None for bfloat16 until `loader`, which returns its dtype, is called on first
// need) and the Python function that turns any array-like into an ndarray.
void set_dtype_objects(nb::list dtypes, nb::object loader);
void set_asarray(nb::object fn);

// The NumPy dtype object of `dt` (accelpy's dtypes are NumPy's, plus ml_dtypes' bfloat16).
nb::object dtype_object(DType dt);
// Parses anything NumPy accepts as a dtype (np.float32, "f4", float, a dtype object, ...).
DType to_dtype(nb::handle obj);
std::optional<DType> to_dtype_opt(nb::handle obj);

// The typed scalar of an object whose type is exactly one of NumPy's scalar types of accelpy's
// dtypes (numpy.float32, numpy.float64, ...; not ml_dtypes' bfloat16); nullopt otherwise.
std::optional<Scalar> numpy_builtin_scalar(PyObject* p);
// Python bool/int/float/complex (weak) or a NumPy scalar (typed); nullopt for other objects.
std::optional<Scalar> to_scalar(nb::handle obj);
// to_scalar for a value headed into an array of `dtype`: a Python int beyond int64/uint64 is
// converted to float for an inexact dtype (as NumPy does), an OverflowError otherwise.
std::optional<Scalar> to_scalar_for(nb::handle obj, std::optional<DType> dtype);
// An ndarray, or an array-like converted on `device` (NumPy arrays, lists, buffers...).
Array to_array(nb::handle obj, std::optional<Device> device = std::nullopt);
// A flat list or tuple of at most 256 Python bools, ints (within int64), floats and complex
// numbers and NumPy's scalars of accelpy's dtypes as the fresh array NumPy would make of it, on a
// CPU `device` (default: the default device); nullopt for anything else (convert_sequence.cpp).
std::optional<Array> small_sequence(nb::handle obj, std::optional<Device> device);
// The Array of an accelpy.ndarray (or subclass) instance; null for any other object. Tests the
// type directly: nanobind's isinstance and cast first look the bound type up by its C++ type.
const Array* as_array(nb::handle obj);
// Operand of an elementwise op: arrays stay arrays, Python and NumPy scalars become scalars.
// nullopt when the object is not array-like (operators then return NotImplemented).
std::optional<ArrayOrScalar> to_operand(nb::handle obj, std::optional<Device> device);

// Keeps a Python object alive for as long as a Storage that wraps its memory.
std::shared_ptr<void> hold(nb::handle obj);

Device to_device(nb::handle obj);
std::optional<Device> to_device_opt(nb::handle obj);

// One axis argument: an integer, never a bool (NumPy would otherwise read True as axis 1);
// TypeError naming `what` for anything else.
int64_t to_axis(nb::handle obj, const char* what = "axis");
// axis=None | int | tuple of ints, each through to_axis.
Axes to_axes(nb::handle obj);
Shape to_shape(nb::handle obj);
// A subscript: integers, slices, Ellipsis, None, and integer or boolean array-likes (converted
// on `device`, the indexed array's).
std::vector<Index> to_index(nb::handle obj, std::optional<Device> device = std::nullopt);

nb::tuple shape_tuple(const Shape& shape);
// A Python scalar holding element 0 of a size-1 array.
nb::object to_python_scalar(const Array& a);
// A NumPy array over the data of a CPU array, or a copy of it; `copy` as in __array__. Arrays
// on a GPU raise TypeError here: their host copy is host_copy's.
nb::object to_numpy(const Array& a, std::optional<bool> copy);
// A NumPy copy of the data, from any device (asnumpy, get, tolist, repr).
nb::object host_copy(const Array& a);
// Imports a NumPy array: zero-copy on the CPU when dtype and copy allow, else a copy.
// `unreferenced`: nothing but this call references the array or its memory (accelpy.asarray
// decides), so the import is accelpy's alone and operations over it stay lazy.
Array from_numpy(nb::handle arr, std::optional<DType> dtype, std::optional<Device> device,
                 std::optional<bool> copy, bool unreferenced = false);

}  // namespace accel::python
