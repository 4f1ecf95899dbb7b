// Sets: unique, isin, intersect1d, union1d, setdiff1d, as NumPy writes them (arraysetops.py):
// sort, flag where neighbours differ, select the flagged elements. The sort, the selection
// and the gathers run through the backend's SortScanOps; the flags are fused elementwise ops.
#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/ops/library_ops.hpp"

namespace accel {

namespace {

// a[start:stop] of a flat contiguous array (a view).
Array slice(const Array& a, int64_t start, int64_t stop) {
  return a.view(Shape{stop - start}, Strides{1}, a.offset() + start);
}

// flags[i]: sorted[i] starts a new run of equal values (all NaNs one run when equal_nan).
Array run_starts(const Array& sorted, bool equal_nan) {
  const int64_t n = sorted.size();
  const Array head = slice(sorted, 1, n), prev = slice(sorted, 0, n - 1);
  Array differs = not_equal(head, prev);
  if (equal_nan && is_inexact(sorted.dtype())) {
    differs = logical_and(differs, logical_not(logical_and(isnan(head), isnan(prev))));
  }
  return concatenate({full({1}, Scalar::weak_bool(true), DType::Bool, sorted.device()), differs});
}

Array flat(const Array& a) { return ravel(a); }

}  // namespace

UniqueResult unique(const Array& a, bool return_index, bool return_inverse, bool return_counts,
                    bool equal_nan) {
  const Array x = detail::computed(flat(a));
  const int64_t n = x.size();
  const Device device = a.device();
  UniqueResult r;
  if (n == 0) {
    r.values = Array::empty({0}, a.dtype(), device);
    if (return_index) r.indices = Array::empty({0}, DType::Int64, device);
    if (return_inverse) r.inverse = Array::empty(a.shape(), DType::Int64, device);
    if (return_counts) r.counts = Array::empty({0}, DType::Int64, device);
    return r;
  }
  auto [sorted, perm] = detail::sort_last_axis(x, false, true, return_index || return_inverse);
  const Array flags = detail::computed(run_starts(sorted, equal_nan));
  r.values = detail::select_flagged(sorted, flags);
  if (return_index) r.indices = detail::select_flagged(perm, flags);
  if (return_inverse) {
    // The rank of each sorted element's run, written back to where the element came from:
    // inverse[perm[i]] = rank[i], read as rank[argsort(perm)] (perm is a permutation).
    const Array rank = subtract(cumsum(flags, 0, DType::Int64), int64_t(1));
    const Array where_from = detail::sort_last_axis(perm, false, false, true).second;
    r.inverse = reshape(detail::gather(rank, where_from), a.shape());
  }
  if (return_counts) {
    const Array starts = detail::select_flagged(Array(), flags);
    const int64_t k = starts.size();
    const Array ends =
        concatenate({slice(starts, 1, k), full({1}, Scalar::weak_int(n), DType::Int64, device)});
    r.counts = detail::computed(subtract(ends, starts));
  }
  return r;
}

UniqueResult unique_along(const Array& a, int64_t axis, bool return_index, bool return_inverse,
                          bool return_counts) {
  const int ax = normalize_axis(axis, a.ndim());
  const Array moved = moveaxis(a, {ax}, {0});
  const int64_t n = moved.shape()[0];
  const Shape rest(moved.shape().begin() + 1, moved.shape().end());
  int64_t m = 1;
  for (int64_t d : rest) m *= d;
  const Device device = a.device();
  // k slices of rows (k x m, C order) back to a's layout.
  const auto slices = [&](const Array& rows, int64_t k) {
    Shape s{k};
    for (int64_t d : rest) s.push_back(d);
    return moveaxis(reshape(rows, s), {0}, {ax});
  };
  UniqueResult r;
  if (n == 0) {
    r.values = astype(a, a.dtype(), true);
    if (return_index) r.indices = Array::empty({0}, DType::Int64, device);
    if (return_inverse) r.inverse = Array::empty({0}, DType::Int64, device);
    if (return_counts) r.counts = Array::empty({0}, DType::Int64, device);
    return r;
  }
  const Array rows = detail::computed(astype(reshape(moved, {n, m}), a.dtype(), true));
  // Lexicographic order by stable sorts on each column, the last one first (as a radix sort
  // with one digit per column): m sorts of n keys.
  Array perm =
      arange(Scalar::weak_int(0), Scalar::weak_int(n), Scalar::weak_int(1), DType::Int64, device);
  for (int64_t j = m - 1; j >= 0; --j) {
    const Array column = take(rows.view(Shape{n}, Strides{m}, rows.offset() + j), perm);
    perm = detail::computed(take(perm, argsort(column, 0)));
  }
  const Array sorted = detail::computed(take(rows, perm, 0));
  Array flags = full({1}, Scalar::weak_bool(true), DType::Bool, device);
  if (n > 1) {
    const Strides row_major{m, 1};
    const Array head = sorted.view(Shape{n - 1, m}, row_major, sorted.offset() + m);
    const Array prev = sorted.view(Shape{n - 1, m}, row_major, sorted.offset());
    flags = concatenate({flags, any(not_equal(head, prev), std::vector<int64_t>{1})});
  }
  flags = detail::computed(flags);
  const Array kept = detail::computed(compress(flags, sorted, 0));
  r.values = slices(kept, kept.shape()[0]);
  if (return_index) r.indices = compress(flags, perm);
  if (return_inverse) {
    // The rank of each sorted slice's run, read back through the inverse permutation.
    const Array rank = subtract(cumsum(flags, 0, DType::Int64), int64_t(1));
    r.inverse = take(rank, argsort(perm, 0));
  }
  if (return_counts) {
    const Array starts = flatnonzero(flags);
    const int64_t k = starts.size();
    const Array ends = concatenate({take(starts, arange(Scalar::weak_int(1), Scalar::weak_int(k),
                                                        Scalar::weak_int(1), DType::Int64, device)),
                                    full({1}, Scalar::weak_int(n), DType::Int64, device)});
    r.counts = subtract(ends, starts);
  }
  return r;
}

namespace {

// Whether each of `values` is among `tests` (a flat array of the same dtype).
Array found_in(const Array& values, const Array& tests) {
  const Array sorted = sort(tests, 0);
  // Present exactly when the equal range [left, right) is not empty; NaN equals nothing.
  const Array left = searchsorted(sorted, values, false);
  const Array right = searchsorted(sorted, values, true);
  Array found = greater(right, left);
  if (is_inexact(values.dtype())) found = logical_and(found, logical_not(isnan(values)));
  return found;
}

}  // namespace

Array isin(const Array& element, const Array& test_elements, bool invert) {
  if (element.device() != test_elements.device()) {
    throw ValueError("isin: the arrays are on different devices (" + element.device().str() + ", " +
                     test_elements.device().str() + ")");
  }
  if (test_elements.size() == 0 || element.size() == 0) {
    return full(element.shape(), Scalar::weak_bool(invert), DType::Bool, element.device());
  }
  const DType dt = promote_types(element.dtype(), test_elements.dtype());
  Array found;
  if (is_integer(element.dtype()) && is_integer(test_elements.dtype()) && is_inexact(dt)) {
    // uint64 against a signed integer promotes to float64, which rounds past 2^53 (2^53 + 1
    // would be found among [2^53]). Compare in the test elements' 64-bit type instead: an
    // element is found when it wraps to a test value and is a value that type holds, which is
    // the case exactly when its int64 view is not negative (a negative int64 is no uint64, a
    // uint64 past 2^63 - 1 no int64).
    const DType wide = test_elements.dtype() == DType::UInt64 ? DType::UInt64 : DType::Int64;
    const Array holds = greater_equal(cast_to(element, DType::Int64), Scalar::weak_int(0));
    found =
        logical_and(found_in(cast_to(element, wide), cast_to(flat(test_elements), wide)), holds);
  } else {
    found = found_in(cast_to(element, dt), cast_to(flat(test_elements), dt));
  }
  return invert ? logical_not(found) : found;
}

IntersectResult intersect1d(const Array& a, const Array& b, bool assume_unique,
                            bool return_indices) {
  Array ua = flat(a), ub = flat(b), ia, ib;
  if (!assume_unique) {
    UniqueResult ra = unique(a, return_indices, false, false, true);
    UniqueResult rb = unique(b, return_indices, false, false, true);
    ua = ra.values, ub = rb.values, ia = ra.indices, ib = rb.indices;
  }
  const Array aux = detail::computed(concatenate({ua, ub}));
  const int64_t n = aux.size();
  IntersectResult r;
  if (n < 2) {
    r.values = Array::empty({0}, aux.dtype(), aux.device());
    if (return_indices) {
      r.indices1 = Array::empty({0}, DType::Int64, aux.device());
      r.indices2 = Array::empty({0}, DType::Int64, aux.device());
    }
    return r;
  }
  auto [sorted, perm] = detail::sort_last_axis(aux, false, true, return_indices);
  const Array mask = detail::computed(equal(slice(sorted, 1, n), slice(sorted, 0, n - 1)));
  r.values = detail::select_flagged(slice(sorted, 0, n - 1), mask);
  if (return_indices) {
    Array i1 = detail::select_flagged(slice(perm, 0, n - 1), mask);
    Array i2 =
        detail::computed(subtract(detail::select_flagged(slice(perm, 1, n), mask), ua.size()));
    if (!assume_unique) {
      i1 = detail::gather(ia, i1);
      i2 = detail::gather(ib, i2);
    }
    r.indices1 = i1, r.indices2 = i2;
  }
  return r;
}

Array union1d(const Array& a, const Array& b) {
  return unique(concatenate({flat(a), flat(b)}), false, false, false, true).values;
}

Array setdiff1d(const Array& a, const Array& b, bool assume_unique) {
  const Array ua = assume_unique ? flat(a) : unique(a, false, false, false, true).values;
  if (ua.size() == 0) return detail::computed(ua);
  return detail::select_flagged(ua, isin(ua, b, true));
}

}  // namespace accel
