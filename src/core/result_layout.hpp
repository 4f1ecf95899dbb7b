// The memory layout of new results, decided once here as NumPy decides it (order='K'): a result
// follows the memory order of the arrays it is computed from, so ravel(order='K'), reshape views,
// .strides and .flags of accelpy's results are NumPy's. Backends write through any strides.
#pragma once

#include <span>

#include "accel/array.hpp"

namespace accel {

// The strides NumPy gives an array it allocates with `strides`: all 0 when it has no elements
// (PyArray_NewFromDescr zeroes them; a view of it, e.g. a reshape, computes its own).
Strides allocated_strides(const Shape& shape, Strides strides);
// A new C-ordered array's strides (np.empty(shape)): contiguous_strides, or 0s without elements.
Strides new_array_strides(const Shape& shape);

// One array operand of an elementwise op, as the layout rule sees it.
struct LayoutInput {
  const Array* array;  // as the caller passed it (before broadcasting)
  bool cast;           // converted to another dtype before the op's loop
};

// The strides (in elements) of the result of shape `shape` computed elementwise from `inputs`.
// `ufunc`: NumPy's ufunc machinery, whose fast path allocates C or Fortran order when every input
// is contiguous alike, of the result's shape and not cast; otherwise (and for numpy.where)
// NumPy's iterator order: k_order_strides.
Strides elementwise_result_strides(const Shape& shape, std::span<const LayoutInput> inputs,
                                   bool ufunc);

// The contiguous strides of `shape` in NumPy's iterator order (NpyIter's axis ordering) over
// operands with the given strides (broadcast to `shape`: 0 along broadcast dimensions): axes
// that every operand walks with smaller strides come faster; ties, and conflicts between
// operands, keep C order; length-1 axes are placed where the insertion sort leaves them.
Strides k_order_strides(const Shape& shape, std::span<const Strides> operands);

// The result of reducing `a` over the axes set in `reduced` (bit d: axis d), as NumPy's reduction
// iterator allocates it: the kept axes in NpyIter's order over `a`; with `keepdims` each reduced
// axis (length 1) takes the stride where that order puts it.
Strides reduction_result_strides(const Array& a, uint64_t reduced, bool keepdims);

// The result of concatenating `inputs` into `shape`, as PyArray_ConcatenateArrays lays it out
// (PyArray_CreateMultiSortedStridePerm): NpyIter's order sorted from the slowest axis, an input
// taking part only along axes where both compared lengths differ from 1, C order winning ties
// and conflicts.
Strides concatenate_strides(const Shape& shape, std::span<const Array> inputs);

// The strides of a new array of `shape` laid out like an array with `strides`, as NumPy's
// empty_like, astype and ravel do with order='K' (PyArray_NewLikeArray): C order when that array
// is C-contiguous, Fortran order when it is F-contiguous, else its axes by decreasing absolute
// stride (a stable sort: broadcast axes come fastest, unlike in k_order_strides).
Strides like_strides(const Shape& shape, const Strides& strides);
// Dense strides of `shape` with the axes ordered by decreasing absolute stride in `strides`, ties
// in C order (NumPy's PyArray_CreateSortedStridePerm: axes of stride 0 come fastest). NumPy lays
// out the sliced part of a gather's result so.
Strides sorted_stride_strides(const Shape& shape, const Strides& strides);
// The same for a new array of `shape` laid out like a prototype of `proto_shape` (as many axes)
// and `proto_strides`: the prototype's C or F contiguity, else its axes' order, decides.
Strides like_strides(const Shape& shape, const Shape& proto_shape, const Strides& proto_strides);
// NumPy's Fortran-ordered strides of a new array (np.empty(shape, order='F')), 0s without
// elements.
Strides fortran_strides(const Shape& shape);

}  // namespace accel
