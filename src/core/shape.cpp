#include "accel/shape.hpp"

#include <algorithm>

#include "accel/errors.hpp"

namespace accel {

int64_t shape_size(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n = wrapping_mul(n, d);
  return n;
}

Strides contiguous_strides(const Shape& shape) {
  Strides strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s = wrapping_mul(s, std::max<int64_t>(shape[i], 1));
  }
  return strides;
}

bool is_contiguous(const Shape& shape, const Strides& strides) {
  // NumPy's C_CONTIGUOUS flag: any array without elements is contiguous, whatever its strides.
  int64_t s = 1;
  bool contiguous = true;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != s) contiguous = false;
    s = wrapping_mul(s, shape[i]);
  }
  return contiguous;
}

std::string shape_str(const Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t ndim = 0;
  for (const Shape& s : shapes) ndim = std::max(ndim, s.size());
  Shape out(ndim, 1);
  for (const Shape& s : shapes) {
    const size_t lead = ndim - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[lead + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o == 1) {
        o = s[i];
        continue;
      }
      std::string msg = "operands could not be broadcast together with shapes";
      for (const Shape& t : shapes) {
        // Appended in two steps: GCC 12 warns (-Wrestrict, a false positive) on " " + string&&.
        msg += ' ';
        msg += shape_str(t);
      }
      throw ValueError(msg);
    }
  }
  return out;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  if (a == b) return a;
  return broadcast_shapes(std::vector<Shape>{a, b});
}

void check_size_fits(const Shape& shape, size_t itemsize) {
  // As NumPy: zero-length dimensions are skipped, so (2**62, 2**62, 0) is still too big.
  int64_t n = static_cast<int64_t>(itemsize);
  for (int64_t d : shape) {
    if (d == 0) continue;
    if (__builtin_mul_overflow(n, d, &n)) {
      throw ValueError(
          "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible "
          "size.");
    }
  }
}

void check_new_shape(const Shape& shape) {
  if (shape.size() > size_t(kMaxDims)) {
    throw ValueError("maximum supported dimension for an ndarray is " + std::to_string(kMaxDims) +
                     ", found " + std::to_string(shape.size()));
  }
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  }
}

int normalize_axis(int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim) {
  std::vector<int> out;
  out.reserve(axes.size());
  for (int64_t a : axes) {
    const int n = normalize_axis(a, ndim);
    if (std::find(out.begin(), out.end(), n) != out.end()) {
      throw ValueError("duplicate value in 'axis': axis " + std::to_string(a) +
                       " is given more than once");
    }
    out.push_back(n);
  }
  return out;
}

}  // namespace accel
