// Shapes, strides and broadcasting. Strides count elements (not bytes), as int64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "accel/small_vector.hpp"

namespace accel {

// a * b modulo 2^64: strides and sizes of a shape that check_size_fits has not yet rejected
// (zeros((2**62, 2**62, 0))) are computed without signed-overflow UB, then rejected there.
inline int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

using Shape = SmallVector<int64_t, 6>;
using Strides = SmallVector<int64_t, 6>;

// NumPy's limit on the number of dimensions.
inline constexpr int kMaxDims = 64;

int64_t shape_size(const Shape& shape);
Strides contiguous_strides(const Shape& shape);
bool is_contiguous(const Shape& shape, const Strides& strides);
// Whether `strides` are exactly contiguous_strides(shape), without building them (the planners
// ask per operand on the dispatch path, hence inline); stricter than is_contiguous, which
// ignores the strides of length-1 dimensions.
inline bool is_row_major(const Shape& shape, const Strides& strides) {
  if (strides.size() != shape.size()) return false;
  int64_t s = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (strides[d] != s) return false;
    s *= shape[d] > 1 ? shape[d] : 1;
  }
  return true;
}

// ValueError ("array is too big", NumPy's words) when the product of the non-zero dimensions times
// `itemsize` does not fit int64. Array construction calls it for every array, so shape_size and
// byte counts computed from a constructed array's shape never overflow.
void check_size_fits(const Shape& shape, size_t itemsize);

// The shape of a new array (zeros, empty, random draws): ValueError as NumPy words it when it has
// more than kMaxDims dimensions or a negative one.
void check_new_shape(const Shape& shape);

// NumPy's broadcasting rules; ValueError naming all shapes when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b);
Shape broadcast_shapes(const std::vector<Shape>& shapes);

// Maps a possibly negative axis into [0, ndim); AxisError ("axis 3 is out of bounds for array
// of dimension 2") otherwise.
int normalize_axis(int64_t axis, int ndim);
// Normalizes a list of axes and rejects repeats (ValueError "duplicate value in 'axis'").
std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim);

// "(2, 3)", "(5,)", "()" as Python prints tuples.
std::string shape_str(const Shape& shape);

}  // namespace accel
