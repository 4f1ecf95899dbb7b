// Advanced (integer-array and boolean) indexing, shared by index()/index_assign() and the
// indexing functions.
#pragma once

#include <vector>

#include "accel/ops.hpp"
#include "src/core/backend_indexing.hpp"

namespace accel {

bool has_array_index(const std::vector<Index>& indices);

// The rules every index of `a` obeys, basic or advanced: at most one ellipsis, and no more
// dimensions indexed than `a` has (a boolean array indexes as many as it has). IndexError
// otherwise; returns the number of dimensions indexed.
int check_index_arity(const Array& a, const std::vector<Index>& indices);
// A single integer index into an axis of length `len`, made non-negative; IndexError when out
// of bounds.
int64_t normalize_index(int64_t index, int axis, int64_t len);
Array advanced_index(const Array& a, const std::vector<Index>& indices);
void advanced_index_assign(const Array& a, const std::vector<Index>& indices, ArrayOrScalar value);

// The elements of `values` (any layout, the mask's shape) where `mask` is true, in C order;
// with `values` undefined, the flat indices of those elements (int64).
Array select_true(const Array& mask, const Array& values = Array());

// Runs a map on its device's backend (eagerly, in stream order).
void run_gather(const IndexMap& map);
void run_scatter(const IndexMap& map);

}  // namespace accel
