// The products NumPy builds on matmul: dot, vdot, inner, outer, tensordot, vecdot, and
// matrix_transpose. Each reduces to matmul over transposed/reshaped views (or to a fused
// elementwise product where nothing is summed), so every device and dtype matmul has, they have.
#include <numeric>
#include <string>

#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"

namespace accel {

namespace {

std::string not_aligned(const Array& a, const Array& b, int da, int db) {
  return "shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
         " not aligned: " + std::to_string(a.shape()[da]) + " (dim " + std::to_string(da) +
         ") != " + std::to_string(b.shape()[db]) + " (dim " + std::to_string(db) + ")";
}

Array conj_if_complex(const Array& a) { return is_complex(a.dtype()) ? conj(a) : a; }

}  // namespace

Array matrix_transpose(const Array& a) {
  if (a.ndim() < 2) {
    throw ValueError("matrix_transpose: input array must be at least 2-dimensional, but it is " +
                     std::to_string(a.ndim()) + "-dimensional");
  }
  return swapaxes(a, -1, -2);
}

Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b) {
  if (axes_a.size() != axes_b.size()) {
    throw ValueError("tensordot: the axes lists have different lengths (" +
                     std::to_string(axes_a.size()) + " and " + std::to_string(axes_b.size()) + ")");
  }
  const std::vector<int> sa = normalize_axes(axes_a, a.ndim());
  const std::vector<int> sb = normalize_axes(axes_b, b.ndim());
  int64_t k = 1;
  for (size_t i = 0; i < sa.size(); ++i) {
    if (a.shape()[sa[i]] != b.shape()[sb[i]]) {
      throw ValueError("tensordot: shape-mismatch for sum: axis " + std::to_string(sa[i]) +
                       " of a has length " + std::to_string(a.shape()[sa[i]]) + ", axis " +
                       std::to_string(sb[i]) + " of b has length " +
                       std::to_string(b.shape()[sb[i]]));
    }
    k *= a.shape()[sa[i]];
  }
  // a -> (free_a..., summed...) as (M, K); b -> (summed..., free_b...) as (K, N).
  std::vector<int64_t> perm_a, perm_b;
  Shape out_shape;
  int64_t m = 1, n = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    if (std::find(sa.begin(), sa.end(), d) != sa.end()) continue;
    perm_a.push_back(d);
    out_shape.push_back(a.shape()[d]);
    m *= a.shape()[d];
  }
  for (int d : sa) perm_a.push_back(d);
  for (int d : sb) perm_b.push_back(d);
  for (int d = 0; d < b.ndim(); ++d) {
    if (std::find(sb.begin(), sb.end(), d) != sb.end()) continue;
    perm_b.push_back(d);
    out_shape.push_back(b.shape()[d]);
    n *= b.shape()[d];
  }
  const Array a2 = reshape(transpose(a, perm_a), Shape{m, k});
  const Array b2 = reshape(transpose(b, perm_b), Shape{k, n});
  return reshape(matmul(a2, b2), out_shape);
}

Array tensordot(const Array& a, const Array& b, int64_t axes) {
  if (axes < 0) throw ValueError("tensordot: axes must be a non-negative integer");
  if (axes > a.ndim() || axes > b.ndim()) {
    // NumPy's tensordot fails indexing the shape here: an IndexError.
    throw IndexError("tensordot: cannot sum over " + std::to_string(axes) +
                     " axes of arrays of shapes " + shape_str(a.shape()) + " and " +
                     shape_str(b.shape()));
  }
  std::vector<int64_t> axes_a(static_cast<size_t>(axes)), axes_b(static_cast<size_t>(axes));
  std::iota(axes_a.begin(), axes_a.end(), int64_t(a.ndim()) - axes);
  std::iota(axes_b.begin(), axes_b.end(), int64_t(0));
  return tensordot(a, b, axes_a, axes_b);
}

Array dot(const Array& a, const Array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  const int db = b.ndim() == 1 ? 0 : b.ndim() - 2;
  if (a.shape()[a.ndim() - 1] != b.shape()[db])
    throw ValueError(not_aligned(a, b, a.ndim() - 1, db));
  if (b.ndim() <= 2 && a.ndim() <= 2) return matmul(a, b);
  if (b.ndim() == 1) return matmul(a, b);  // sums a's last axis against b, any a
  return tensordot(a, b, std::vector<int64_t>{-1}, std::vector<int64_t>{-2});
}

Array inner(const Array& a, const Array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (a.shape()[a.ndim() - 1] != b.shape()[b.ndim() - 1])
    throw ValueError(not_aligned(a, b, a.ndim() - 1, b.ndim() - 1));
  // Against a vector, up to a matrix: the (m, k) x (k, 1) product tensordot would make, without
  // its transposes and reshapes (a loop's inner products of vectors pay those per call).
  if (b.ndim() == 1 && a.ndim() <= 2) return matmul(a, b);
  return tensordot(a, b, std::vector<int64_t>{-1}, std::vector<int64_t>{-1});
}

Array vdot(const Array& a, const Array& b) {
  if (a.size() != b.size()) {
    throw ValueError("vdot: vectors have different lengths (" + std::to_string(a.size()) + " and " +
                     std::to_string(b.size()) + " elements)");
  }
  return matmul(conj_if_complex(ravel(a)), ravel(b));
}

Array outer(const Array& a, const Array& b) {
  const Array ra = ravel(a), rb = ravel(b);
  return multiply(reshape(ra, Shape{ra.size(), 1}), reshape(rb, Shape{1, rb.size()}));
}

Array vecdot(const Array& x1, const Array& x2, int64_t axis) {
  const Shape shape = [&] {
    try {
      return broadcast_shapes(x1.shape(), x2.shape());
    } catch (const ValueError&) {
      throw ValueError("vecdot: operands with shapes " + shape_str(x1.shape()) + " and " +
                       shape_str(x2.shape()) + " could not be broadcast together");
    }
  }();
  if (x1.ndim() == 0 || x2.ndim() == 0) {
    throw ValueError("vecdot: operands must have at least one dimension (shapes " +
                     shape_str(x1.shape()) + " and " + shape_str(x2.shape()) + ")");
  }
  const int ax = normalize_axis(axis, int(shape.size()));
  // The vector axis must exist (not be broadcast) in both: NumPy's gufunc (n),(n)->().
  const int from_end = int(shape.size()) - ax;
  if (from_end > x1.ndim() || from_end > x2.ndim() ||
      x1.shape()[x1.ndim() - from_end] != x2.shape()[x2.ndim() - from_end]) {
    throw ValueError("vecdot: shapes " + shape_str(x1.shape()) + " and " + shape_str(x2.shape()) +
                     " do not have the same length along axis " + std::to_string(axis));
  }
  // A fused multiply and sum (one kernel), accumulated as the reductions do; the sum keeps the
  // product's dtype (NumPy's vecdot does not widen integers, unlike sum).
  const Array product = multiply(conj_if_complex(x1), x2);
  return sum(product, std::vector<int64_t>{ax}, false, product.dtype());
}

}  // namespace accel
