// Cumulative sums and products (cumsum, cumprod, cumulative_sum, cumulative_prod): inclusive
// scans along one axis, run eagerly through the backend's SortScanOps.
#include "accel/errors.hpp"
#include "src/core/fp_errors.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/ops/library_ops.hpp"
#include "src/core/result_layout.hpp"

namespace accel {

namespace {

// NumPy's accumulation dtype: bool and integers narrower than 64 bits accumulate in int64
// (uint64 for unsigned ones), everything else in its own dtype.
DType default_scan_dtype(DType dt) {
  if (dt == DType::Bool) return DType::Int64;
  if (kind(dt) == DTypeKind::SignedInt) return DType::Int64;
  if (kind(dt) == DTypeKind::UnsignedInt) return DType::UInt64;
  return dt;
}

Array scan(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype, ScanOp op,
           bool include_initial, const char* fp_name = "accumulate") {
  const Array src = axis ? a : ravel(a);
  const int ax = normalize_axis(axis.value_or(0), src.ndim());
  const DType out_dtype = dtype ? *dtype : default_scan_dtype(a.dtype());
  // Integer and bool results are computed in 64 bits, where sums and products wrap exactly as
  // in any narrower integer type (and a bool result is "any nonzero so far"); backends see
  // every integer scan as uint64, whose arithmetic wraps without undefined behaviour.
  const bool integral = out_dtype == DType::Bool || is_integer(out_dtype);
  const DType compute = integral ? DType::UInt64 : out_dtype;
  // The input converts to the result dtype first, as NumPy's accumulate does (dtype=bool: is
  // each element nonzero), then widens (fused into the same copy).
  const Array converted = cast_to(src, out_dtype);
  Array rows = detail::computed_rows(integral ? cast_to(converted, DType::Int64) : converted, ax);
  if (integral) rows = rows.view(DType::UInt64, rows.shape(), rows.strides(), rows.offset());
  const Array out = Array::empty(rows.shape(), compute, rows.device());
  const int64_t len = rows.shape().back();
  if (out.size()) {
    // The scan is no group of the evaluator: its IEEE flags (float16's rounding to inf, inf -
    // inf) are reported here, as NumPy's accumulate reports them.
    fp_errors::LibraryOpScope reported(op == ScanOp::Sum ? OpKind::Add : OpKind::Multiply, fp_name,
                                       out.device());
    detail::sort_scan_ops(out.device()).scan_rows(rows, out, out.size() / len, len, op);
    reported.finish();
  }
  Array result = ax == src.ndim() - 1 ? out : moveaxis(out, {-1}, {ax});
  if (integral) {
    result = result.view(DType::Int64, result.shape(), result.strides(), result.offset());
  }
  // NumPy's accumulate allocates its result through NpyIter, in the memory order of `src`.
  const Strides st = src.strides();
  result = with_strides(result, out_dtype, k_order_strides(src.shape(), std::span(&st, 1)));
  if (include_initial) {
    Shape first = result.shape();
    first[ax] = 1;
    const Scalar identity = op == ScanOp::Sum ? Scalar::weak_int(0) : Scalar::weak_int(1);
    result = concatenate({full(first, identity, out_dtype, result.device()), result}, ax);
  }
  return result;
}

// The Array API's cumulative_* need an axis for arrays of more than one dimension.
std::optional<int64_t> array_api_axis(const Array& a, std::optional<int64_t> axis) {
  if (axis) return axis;
  if (a.ndim() > 1) {
    throw ValueError(
        "For arrays which have more than one dimension ``axis`` argument is required.");
  }
  return std::nullopt;
}

// NumPy's cumsum and cumprod take a 0-d array along an axis as one of shape (1,) (its
// PyArray_CheckAxis), so axis 0 or -1 gives a 1-element result.
Array as_axis_operand(const Array& a, std::optional<int64_t> axis) {
  return axis && a.ndim() == 0 ? reshape(a, Shape{1}) : a;
}

}  // namespace

Array detail::scan_along(const Array& a, int64_t axis, DType dtype, ScanOp op,
                         const char* fp_name) {
  return scan(a, axis, dtype, op, false, fp_name);
}

Array cumsum(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype) {
  return scan(as_axis_operand(a, axis), axis, dtype, ScanOp::Sum, false);
}

Array cumprod(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype) {
  return scan(as_axis_operand(a, axis), axis, dtype, ScanOp::Prod, false);
}

Array cumulative_sum(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype,
                     bool include_initial) {
  return scan(a, array_api_axis(a, axis), dtype, ScanOp::Sum, include_initial);
}

Array cumulative_prod(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype,
                      bool include_initial) {
  return scan(a, array_api_axis(a, axis), dtype, ScanOp::Prod, include_initial);
}

}  // namespace accel
