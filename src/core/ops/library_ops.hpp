// Helpers of the front-ends that run "library" operations eagerly through a backend's
// SortScanOps (sorting.cpp, sets.cpp, cumulative.cpp): inputs are computed, contiguous.
#pragma once

#include <utility>

#include "accel/ops.hpp"
#include "src/core/backend_sort.hpp"

namespace accel::detail {

SortScanOps& sort_scan_ops(Device device);

// `a` computed, contiguous (a copy when it is not), ready for a backend.
Array computed(const Array& a);
// `a` with `axis` moved last, computed and contiguous: rows of size()/shape[axis] elements.
Array computed_rows(const Array& a, int axis);

// Sorts the rows (last axis) of a computed contiguous array; either result on request.
std::pair<Array, Array> sort_last_axis(const Array& rows, bool descending, bool want_values,
                                       bool want_indices);

// The inclusive scan of `a` along `axis` in `dtype` (cumsum's, cumprod's), its IEEE flags on the
// CPU reported as NumPy's `fp_name` ("accumulate"; "reduce" for a reduction run as a scan).
Array scan_along(const Array& a, int64_t axis, DType dtype, ScanOp op, const char* fp_name);

// The elements of the flat `in` (undefined: the int64 positions) whose bool flag is true.
// Waits for the count on queued devices.
Array select_flagged(const Array& in, const Array& flags);
// src[index] for flat arrays; the indices are known to be valid.
Array gather(const Array& src, const Array& index);

}  // namespace accel::detail
