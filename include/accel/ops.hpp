// The operations of the C++ API, with NumPy's names and semantics.
//
// Every function checks its arguments at once and throws (see errors.hpp) at the call; the
// arithmetic itself is deferred until the result is needed (Array::eval, accel::eval, or data
// access), so that chains of operations can run as one kernel.
#pragma once

#include <complex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accel/array.hpp"

namespace accel {

// An operand of an elementwise op: an array or a scalar. C++ numbers are weak scalars (like
// Python's): `add(x, 2.0)` keeps x's float32.
class ArrayOrScalar {
 public:
  ArrayOrScalar(const Array& a) : value_(a) {}        // NOLINT: implicit by design
  ArrayOrScalar(Array&& a) : value_(std::move(a)) {}  // NOLINT
  ArrayOrScalar(Scalar s) : value_(s) {}              // NOLINT
  ArrayOrScalar(bool v) : value_(Scalar::weak_bool(v)) {}
  ArrayOrScalar(int v) : value_(Scalar::weak_int(v)) {}
  ArrayOrScalar(int64_t v) : value_(Scalar::weak_int(v)) {}
  ArrayOrScalar(double v) : value_(Scalar::weak_float(v)) {}
  ArrayOrScalar(std::complex<double> v) : value_(Scalar::weak_complex(v)) {}

  bool is_array() const { return std::holds_alternative<Array>(value_); }
  const Array& array() const& { return std::get<Array>(value_); }
  // Moves the array out: lets a write own its value, so that it can fuse the value's
  // computation instead of writing it to memory first (see assign).
  Array array() && { return std::get<Array>(std::move(value_)); }
  const Scalar& scalar() const { return std::get<Scalar>(value_); }

 private:
  std::variant<Array, Scalar> value_;
};

using Axes = std::optional<std::vector<int64_t>>;  // nullopt: all axes

// ---- creation -------------------------------------------------------------------------------
Array empty(const Shape& shape, DType dtype = kDefaultFloat, Device device = default_device());
Array full(const Shape& shape, Scalar value, std::optional<DType> dtype = std::nullopt,
           Device device = default_device());
Array zeros(const Shape& shape, DType dtype = kDefaultFloat, Device device = default_device());
Array ones(const Shape& shape, DType dtype = kDefaultFloat, Device device = default_device());
Array arange(Scalar start, Scalar stop, Scalar step, std::optional<DType> dtype = std::nullopt,
             Device device = default_device());
Array linspace(Scalar start, Scalar stop, int64_t num, bool endpoint = true,
               std::optional<DType> dtype = std::nullopt, Device device = default_device());
Array eye(int64_t n, std::optional<int64_t> m = std::nullopt, int64_t k = 0,
          DType dtype = kDefaultFloat, Device device = default_device());
// Ones at and below diagonal k of an n x m matrix, zeros above (numpy.tri).
Array tri(int64_t n, std::optional<int64_t> m = std::nullopt, int64_t k = 0,
          DType dtype = kDefaultFloat, Device device = default_device());
// Copies `shape` elements of `dtype` in C order from host memory.
Array from_host(const void* data, DType dtype, const Shape& shape,
                Device device = default_device());
// Copies the array's elements in C order to host memory (evaluates first).
void to_host(const Array& a, void* dst);

Array copy(const Array& a);
Array astype(const Array& a, DType dtype, bool copy = true);
// ndarray.astype's layouts: order 'C', 'F', or 'K' (the memory order of `a`, NumPy's default).
Array astype(const Array& a, DType dtype, bool copy, char order);
// `fresh`, a new C-ordered array (empty, zeros, ones, full, ...), laid out as numpy.empty_like
// lays out an array like a prototype of `proto_shape` and `proto_strides` (in elements) with
// order='K': the prototype's memory order, C order where its number of axes differs.
// `uninitialized`: fresh's elements are not yet written (empty_like), so it is viewed through
// the new strides rather than copied.
Array laid_out_like(const Array& fresh, const Shape& proto_shape, const Strides& proto_strides,
                    bool uninitialized);
Array to_device(const Array& a, Device device);

// ---- elementwise (one function per row of elementwise_ops.def) ------------------------------
#define ACCEL_ELEMENTWISE(Name, name, arity, ...) ACCEL_DECLARE_##arity(name)
#define ACCEL_DECLARE_1(name) Array name(const ArrayOrScalar& x);
#define ACCEL_DECLARE_2(name) Array name(const ArrayOrScalar& x1, const ArrayOrScalar& x2);
#include "accel/elementwise_ops.def"
#undef ACCEL_DECLARE_1
#undef ACCEL_DECLARE_2
#undef ACCEL_ELEMENTWISE

// Limits the values to [min, max], as numpy.clip in NumPy 2: either bound may be absent (both
// absent: a copy, as positive()); a NaN bound gives NaN; the operands promote together; a Python
// integer beyond an integer array's range on the side it bounds is no bound at all.
Array clip(const ArrayOrScalar& x, const std::optional<ArrayOrScalar>& min,
           const std::optional<ArrayOrScalar>& max);
// Rounds half to even to `decimals` decimal places (negative: to tens, hundreds, ...), as
// numpy.round: x * 10^decimals is rounded and scaled back in x's dtype; integers round in
// float64 and return their dtype; complex numbers round each part.
Array round(const Array& x, int64_t decimals = 0);

// Real and imaginary parts: views into complex storage (imag of a real array is zeros).
Array real(const Array& a);
Array imag(const Array& a);

Array where(const ArrayOrScalar& cond, const ArrayOrScalar& x, const ArrayOrScalar& y);
// Result type of an elementwise op over these operands (NumPy's result_type with NEP 50).
DType result_type(const std::vector<ArrayOrScalar>& operands);

// ---- reductions -----------------------------------------------------------------------------
Array sum(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
Array prod(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
Array mean(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
Array var(const Array& a, const Axes& axis = std::nullopt, double ddof = 0, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
Array std(const Array& a, const Axes& axis = std::nullopt, double ddof = 0, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
Array max(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false);
Array min(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false);
Array any(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false);
Array all(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false);
// axis: one axis or none (the flattened array), as NumPy.
Array argmax(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Array argmin(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);

// ---- manipulation ---------------------------------------------------------------------------
// `shape` may hold one -1. A view when the layout allows, else a copy (NumPy's rule).
Array reshape(const Array& a, const Shape& shape);
Array ravel(const Array& a);
Array transpose(const Array& a, const std::optional<std::vector<int64_t>>& axes = std::nullopt);
Array swapaxes(const Array& a, int64_t axis1, int64_t axis2);
Array moveaxis(const Array& a, const std::vector<int64_t>& source,
               const std::vector<int64_t>& destination);
Array squeeze(const Array& a, const Axes& axis = std::nullopt);
Array expand_dims(const Array& a, const std::vector<int64_t>& axis);
Array broadcast_to(const Array& a, const Shape& shape);
// The same bytes read as another dtype (ndarray.view(dtype)); a different item size rescales
// the last axis, which must be contiguous. Pending arrays are computed first.
Array view_as(const Array& a, DType dtype);
std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);
Array concatenate(const std::vector<Array>& arrays, std::optional<int64_t> axis = 0);
Array stack(const std::vector<Array>& arrays, int64_t axis = 0);
// numpy.roll by one shift along one axis (a new array in a's memory order).
Array roll(const Array& a, int64_t shift, int64_t axis);
// Counts of each value of a 1-D array of non-negative integers (sums of `weights`, float64,
// when given), at least `minlength` of them (numpy.bincount). Reads the largest value on the
// host (a synchronization on GPUs, as in NumPy/CuPy).
Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt,
               int64_t minlength = 0);
// The diagonal `offset` of the axes axis1 and axis2, as the last axis of a read-only view
// (numpy.diagonal).
Array diagonal(const Array& a, int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1);

// ---- indexing -------------------------------------------------------------------------------
struct Slice {
  std::optional<int64_t> start, stop, step;
};
struct Ellipsis {};
struct NewAxis {};
// An integer array (advanced indexing, a copy) or a boolean array (a mask) is also an index.
using Index = std::variant<int64_t, Slice, Ellipsis, NewAxis, Array>;

// Basic indexing (integers, slices, ..., None): a view. With integer or boolean arrays among the
// indices, NumPy's advanced indexing: a new array (its advanced dimensions go where the first
// advanced index was when those indices are adjacent, else first).
Array index(const Array& a, const std::vector<Index>& indices);
// a[indices] = value, with value broadcast to the indexed shape.
void index_assign(const Array& a, const std::vector<Index>& indices, ArrayOrScalar value);
// dst[...] = value: writes through the view `dst` (the write barrier runs first). A pending value
// passed as an rvalue (`assign(x, add(x, 1))`, x += 1) is computed straight into dst; one that
// is still referenced elsewhere is also written to its own memory.
void assign(const Array& dst, ArrayOrScalar value);

// ---- matrix and tensor products (src/core/ops/matmul.cpp, products.cpp, einsum.cpp) -----------
// Products are not fused: operands are computed and the product runs at once (BLAS / cuBLAS).
// Operands promote together (NumPy's result_type); integer products wrap, bool is "or of ands",
// float16/bfloat16 accumulate in float32.

// numpy.matmul: 1-D operands are promoted to a row / column and the added dimension removed;
// the leading (batch) dimensions broadcast; 0-d operands are a ValueError.
Array matmul(const Array& x1, const Array& x2);
// numpy.dot: a product for 0-d operands, matmul up to 2-D, else the sum over the last axis of a
// and the second-to-last of b.
Array dot(const Array& a, const Array& b);
// numpy.vdot: the flattened operands' dot product, conjugating the first.
Array vdot(const Array& a, const Array& b);
// numpy.inner: sums over the last axes of both.
Array inner(const Array& a, const Array& b);
// numpy.outer: the flattened operands' outer product.
Array outer(const Array& a, const Array& b);
// numpy.tensordot: sums over the last `axes` axes of a and the first `axes` of b ...
Array tensordot(const Array& a, const Array& b, int64_t axes = 2);
// ... or over the pairs (axes_a[i], axes_b[i]).
Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b);
// The last two axes swapped (Array API matrix_transpose, x.mT); ValueError below 2-D.
Array matrix_transpose(const Array& a);
// Array API / NumPy vecdot: sum(conj(x1) * x2) along `axis`, broadcasting the others.
Array vecdot(const Array& x1, const Array& x2, int64_t axis = -1);
// numpy.einsum over explicit ("ij,jk->ik") or implicit ("ij,jk") subscripts, with ellipses:
// diagonals are strided views, lone indices are summed, pairs contract through matmul.
Array einsum(const std::string& subscripts, const std::vector<Array>& operands);
// ---- indexing functions (advanced_indexing.cpp, selection.cpp) -------------------------------
// mode: "raise", "wrap" or "clip", as numpy.take.
Array take(const Array& a, const Array& indices, std::optional<int64_t> axis = std::nullopt,
           const std::string& mode = "raise");
Array take_along_axis(const Array& a, const Array& indices, std::optional<int64_t> axis);
void put(const Array& a, const Array& indices, const Array& values,
         const std::string& mode = "raise");
void put_along_axis(const Array& a, const Array& indices, const Array& values,
                    std::optional<int64_t> axis);
std::vector<Array> nonzero(const Array& a);
Array flatnonzero(const Array& a);
Array argwhere(const Array& a);
Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis = std::nullopt);
Array extract(const Array& condition, const Array& a);
Array count_nonzero(const Array& a, const Axes& axis = std::nullopt, bool keepdims = false);
// ---- sorting, searching, sets (issue 6) -----------------------------------------------------
// Orders are NumPy's: NaN last, complex lexicographic. Sorts are stable; descending (the Array
// API's) is the reverse order with equal elements kept in input order. axis nullopt: flattened.
Array sort(const Array& a, std::optional<int64_t> axis = -1, bool descending = false);
Array argsort(const Array& a, std::optional<int64_t> axis = -1, bool descending = false);
// Valid partitions for every kth (each within [-n, n) of the axis; ValueError otherwise).
Array partition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis = -1);
Array argpartition(const Array& a, const std::vector<int64_t>& kth,
                   std::optional<int64_t> axis = -1);
// Insertion points (int64, v's shape) of v into the one-dimensional ascending `a` (through
// `sorter`, a permutation that sorts a, when given): left before equal elements, right after.
Array searchsorted(const Array& a, const ArrayOrScalar& v, bool right = false,
                   const std::optional<Array>& sorter = std::nullopt);

// numpy.unique over the flattened array; the optional results are defined only on request.
struct UniqueResult {
  Array values, indices, inverse, counts;  // inverse has the input's shape (NumPy 2)
};
UniqueResult unique(const Array& a, bool return_index = false, bool return_inverse = false,
                    bool return_counts = false, bool equal_nan = true);
// The distinct slices along `axis` in lexicographic order (numpy.unique(axis=)): -0 ties +0,
// a slice holding a NaN is distinct from every other; inverse is 1-D, one entry per slice.
UniqueResult unique_along(const Array& a, int64_t axis, bool return_index = false,
                          bool return_inverse = false, bool return_counts = false);
Array isin(const Array& element, const Array& test_elements, bool invert = false);
struct IntersectResult {
  Array values, indices1, indices2;
};
IntersectResult intersect1d(const Array& a, const Array& b, bool assume_unique = false,
                            bool return_indices = false);
Array union1d(const Array& a, const Array& b);
Array setdiff1d(const Array& a, const Array& b, bool assume_unique = false);

// ---- cumulative (issue 6) -------------------------------------------------------------------
// dtype nullopt: NumPy's (bool and narrower integers accumulate in int64 / uint64).
Array cumsum(const Array& a, std::optional<int64_t> axis = std::nullopt,
             std::optional<DType> dtype = std::nullopt);
Array cumprod(const Array& a, std::optional<int64_t> axis = std::nullopt,
              std::optional<DType> dtype = std::nullopt);
// The Array API's: axis is required above one dimension; include_initial prepends 0 (or 1).
Array cumulative_sum(const Array& a, std::optional<int64_t> axis = std::nullopt,
                     std::optional<DType> dtype = std::nullopt, bool include_initial = false);
Array cumulative_prod(const Array& a, std::optional<int64_t> axis = std::nullopt,
                      std::optional<DType> dtype = std::nullopt, bool include_initial = false);

}  // namespace accel
