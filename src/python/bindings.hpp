// Shared declarations of the binding files.
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <string>

#include "accel/ops.hpp"
#include "src/core/graph.hpp"

namespace accel::python {

namespace nb = nanobind;

void bind_device(nb::module_& m);
void bind_array(nb::module_& m);
// ndarray's Python operators (bind_array_operators.cpp).
void bind_array_operators(nb::class_<Array>& cls);
// One binding file per chapter of NumPy's reference.
void bind_elementwise(nb::module_& m);
// accelpy.ufunc, the type of the elementwise functions (bind_ufunc.cpp).
void bind_ufunc(nb::module_& m);
void bind_reductions(nb::module_& m);
void bind_creation(nb::module_& m);
void bind_conversion(nb::module_& m);
void bind_statistics(nb::module_& m);
void bind_cuda(nb::module_& m);
void bind_fusion(nb::module_& m);
void bind_interop(nb::module_& m);
void bind_fft(nb::module_& m);
void bind_linalg(nb::module_& m);
void bind_matmul(nb::module_& m);
void bind_kernels(nb::module_& m);
void bind_indexing(nb::module_& m);
// Sorting, searching, sets, cumulative ops (bind_sorting.cpp).
void bind_sorting(nb::module_& m);
void bind_sorting_methods(nb::class_<Array>& cls);
void bind_random(nb::module_& m);
void bind_manipulation(nb::module_& m);

// The elementwise op named `name` in elementwise_ops.def, if the table has it.
std::optional<OpKind> elementwise_op(const char* name);

// Applies an elementwise op to Python operands (arrays, scalars, array-likes).
Array apply_elementwise(OpKind op, nb::handle x1, nb::handle x2 = nb::handle());

// Handles NumPy's out= argument: writes `result` into `out` (when given) and returns it.
// Ufuncs cast into out with "same_kind", reductions with "unsafe", as in NumPy.
nb::object finish(Array result, nb::handle out, const char* casting = "same_kind");
// The same with NumPy's where= (a bool array): where it is False, out keeps its values. Raises
// where the Python implementation of ufunc calls (_ufunc.py) handles or words the case its own
// way (a mask that broadcasts the result beyond out), for the caller to fall back to it.
nb::object finish_where(Array result, nb::handle out, const Array& mask);

// NumPy's order= argument of reshape and ravel: 'C' or 'F' ('A' and 'K' resolved for `a`);
// ValueError naming `fn` for anything else. Shared by the module functions and the methods.
char layout_order(const Array& a, nb::handle order, const char* fn, bool allow_k);
Array reshape_in_order(const Array& a, Shape shape, char order);
Array ravel_in_order(const Array& a, char order);
// A copy of `a` laid out in `order` (a layout_order result: 'C', 'F' or 'K').
Array copy_in_order(const Array& a, char order);

// self[key] (self an ndarray): a view of self (ndarray.base), except for an integer index of
// every axis, which gives NumPy's independent scalar as a 0-d copy marked so that in-place
// operators rebind (bind_indexing.cpp).
nb::object get_item(nb::handle self, nb::handle key);
// self[key] = value: one element stored with NumPy's casting, else an index assignment
// (bind_array.cpp).
void set_item(const Array& a, nb::handle key, nb::handle value);
// ndarray.astype with NumPy's order= and casting= checks (bind_conversion.cpp).
Array astype_checked(const Array& a, nb::handle dtype, nb::handle order, const std::string& casting,
                     bool copy);

// clip and round with NumPy's signatures, shared by the module functions and the methods.
nb::object clip_values(nb::handle x, nb::handle min, nb::handle max, nb::handle out);
nb::object round_values(nb::handle x, int64_t decimals, nb::handle out);

// Reductions with NumPy's signatures, shared by the module functions and the methods
// (bind_reductions.cpp).
nb::object reduce_sum(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                      bool keepdims, nb::handle initial, nb::handle where);
nb::object reduce_prod(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                       bool keepdims, nb::handle initial, nb::handle where);
nb::object reduce_mean(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                       bool keepdims, nb::handle where);
nb::object reduce_var(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                      double ddof, bool keepdims, nb::handle correction);
nb::object reduce_std(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                      double ddof, bool keepdims, nb::handle correction);
nb::object reduce_max(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle initial, nb::handle where);
nb::object reduce_min(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle initial, nb::handle where);
nb::object reduce_any(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle where);
nb::object reduce_all(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle where);
nb::object reduce_argmax(const Array& a, nb::handle axis, nb::handle out, bool keepdims);
nb::object reduce_argmin(const Array& a, nb::handle axis, nb::handle out, bool keepdims);

}  // namespace accel::python
