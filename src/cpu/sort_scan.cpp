// CPU sorts, scans, selection, gathers and binary searches.
//
// Rows of bool, integers, float32 and float64 of 1024 elements or more are radix sorted
// (radix_sort.hpp); the rest (short rows, 16-bit floats, complex) use std::stable_sort with
// NumPy's comparison (kernels/sort_ops.h). Rows spread over the thread pool; one long row is
// split over the threads (radix: chunked histograms; merge sort: chunks merged pairwise). Argsorts
// sort (key, position) pairs, which keeps the keys next to their positions in cache. Scans run each
// row sequentially in the accumulation dtype, as NumPy's add.accumulate does, so float results are
// NumPy's bits.
#include "src/cpu/sort_scan.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "accel/kernels/sort_ops.h"
#include "src/cpu/radix_sort.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

// Sorts [first, last) stably with `less`, splitting one long range over the threads.
template <class It, class Less>
void parallel_stable_sort(It first, It last, Less less) {
  const int64_t n = last - first;
  const int threads = num_threads();
  if (threads <= 1 || n < (1 << 16)) {
    std::stable_sort(first, last, less);
    return;
  }
  std::vector<int64_t> bounds(threads + 1);
  for (int t = 0; t <= threads; ++t) bounds[t] = n * t / threads;
  parallel_for(threads, 1, [&](int64_t lo, int64_t hi, int) {
    for (int64_t t = lo; t < hi; ++t)
      std::stable_sort(first + bounds[t], first + bounds[t + 1], less);
  });
  // Merge neighbouring runs until one is left; each level's merges run in parallel.
  for (size_t width = 1; width < size_t(threads); width *= 2) {
    const int64_t pairs = (threads + 2 * width - 1) / (2 * width);
    parallel_for(pairs, 1, [&](int64_t lo, int64_t hi, int) {
      for (int64_t p = lo; p < hi; ++p) {
        const size_t a = p * 2 * width, m = std::min(a + width, size_t(threads)),
                     b = std::min(a + 2 * width, size_t(threads));
        if (m < b)
          std::inplace_merge(first + bounds[a], first + bounds[m], first + bounds[b], less);
      }
    });
  }
}

template <class T>
void sort_rows_typed(const Array& keys, int64_t rows, int64_t len, bool descending,
                     const Array& sorted, const Array& indices) {
  const T* in = keys.data<T>();
  T* out = sorted.defined() ? sorted.data<T>() : nullptr;
  int64_t* idx = indices.defined() ? indices.data<int64_t>() : nullptr;
  const auto less = [descending](const T& a, const T& b) {
    return descending ? sort_less(b, a) : sort_less(a, b);
  };
  const auto sort_row = [&](int64_t r, bool split) {
    const T* row = in + r * len;
    if constexpr (kRadixSortable<T>) {
      // Long rows: radix sort (linear time; threaded when it is the only row).
      if (len >= kRadixMin) {
        radix_sort_row(row, out ? out + r * len : nullptr, idx ? idx + r * len : nullptr, len,
                       descending, split);
        return;
      }
    }
    if (!idx) {
      T* dst = out + r * len;
      if (dst != row) std::copy(row, row + len, dst);
      split ? parallel_stable_sort(dst, dst + len, less) : std::stable_sort(dst, dst + len, less);
      return;
    }
    std::vector<std::pair<T, int64_t>> pairs(len);
    for (int64_t i = 0; i < len; ++i) pairs[i] = {row[i], i};
    const auto pair_less = [&](const std::pair<T, int64_t>& a, const std::pair<T, int64_t>& b) {
      return less(a.first, b.first);
    };
    split ? parallel_stable_sort(pairs.begin(), pairs.end(), pair_less)
          : std::stable_sort(pairs.begin(), pairs.end(), pair_less);
    for (int64_t i = 0; i < len; ++i) {
      idx[r * len + i] = pairs[i].second;
      if (out) out[r * len + i] = pairs[i].first;
    }
  };
  if (rows == 1) return sort_row(0, true);
  parallel_for(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(len, 1)),
               [&](int64_t lo, int64_t hi, int) {
                 for (int64_t r = lo; r < hi; ++r) sort_row(r, false);
               });
}

template <class T>
void scan_rows_typed(const Array& in, const Array& out, int64_t rows, int64_t len, ScanOp op) {
  const T* src = in.data<T>();
  T* dst = out.data<T>();
  parallel_for(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(len, 1)),
               [&](int64_t lo, int64_t hi, int) {
                 for (int64_t r = lo; r < hi; ++r) {
                   const T* s = src + r * len;
                   T* d = dst + r * len;
                   T acc = s[0];
                   d[0] = acc;
                   if (op == ScanOp::Sum) {
                     for (int64_t i = 1; i < len; ++i) d[i] = acc = acc + s[i];
                   } else if constexpr (is_complex_v<T>) {
                     // NumPy's accumulate loop rounds each product before the sum.
                     for (int64_t i = 1; i < len; ++i) d[i] = acc = multiply_unfused(acc, s[i]);
                   } else {
                     for (int64_t i = 1; i < len; ++i) d[i] = acc = acc * s[i];
                   }
                 }
               });
}

class CpuSortScan final : public SortScanOps {
 public:
  void sort_rows(const Array& keys, int64_t rows, int64_t len, bool descending, const Array& sorted,
                 const Array& indices) override {
    if (rows * len == 0) return;
    dispatch_dtype(keys.dtype(), [&]<class T>(type_tag<T>) {
      sort_rows_typed<T>(keys, rows, len, descending, sorted, indices);
    });
  }

  void scan_rows(const Array& in, const Array& out, int64_t rows, int64_t len, ScanOp op) override {
    if (rows * len == 0) return;
    dispatch_dtype(in.dtype(), [&]<class T>(type_tag<T>) {
      if constexpr (std::is_same_v<T, bool>) {
        throw Error("internal: scans of bool arrays run in int64");
      } else {
        scan_rows_typed<T>(in, out, rows, len, op);
      }
    });
  }

  int64_t select_flagged(const Array& in, const Array& flags, const Array& out) override {
    const int64_t n = flags.size();
    const bool* f = flags.data<bool>();
    char* dst = static_cast<char*>(out.data());
    int64_t count = 0;
    if (!in.defined()) {
      int64_t* pos = reinterpret_cast<int64_t*>(dst);
      for (int64_t i = 0; i < n; ++i) {
        if (f[i]) pos[count++] = i;
      }
      return count;
    }
    const size_t isz = itemsize(in.dtype());
    const char* src = static_cast<const char*>(in.data());
    for (int64_t i = 0; i < n; ++i) {
      if (f[i]) std::memcpy(dst + isz * count++, src + isz * i, isz);
    }
    return count;
  }

  void gather(const Array& src, const Array& index, const Array& out) override {
    const int64_t n = out.size();
    const int64_t* idx = index.data<int64_t>();
    dispatch_dtype(src.dtype(), [&]<class T>(type_tag<T>) {
      const T* s = src.data<T>();
      T* d = out.data<T>();
      parallel_for(n, 1 << 16, [&](int64_t lo, int64_t hi, int) {
        for (int64_t i = lo; i < hi; ++i) d[i] = s[idx[i]];
      });
    });
  }

  void searchsorted(const Array& sorted, const Array& sorter, const Array& values, bool right,
                    const Array& out) override {
    const int64_t len = sorted.size(), n = values.size();
    const int64_t* perm = sorter.defined() ? sorter.data<int64_t>() : nullptr;
    int64_t* dst = out.data<int64_t>();
    dispatch_dtype(sorted.dtype(), [&]<class T>(type_tag<T>) {
      const T* a = sorted.data<T>();
      const T* v = values.data<T>();
      parallel_for(n, 1 << 12, [&](int64_t lo, int64_t hi, int) {
        for (int64_t i = lo; i < hi; ++i) {
          int64_t l = 0, h = len;
          while (l < h) {
            const int64_t mid = l + (h - l) / 2;
            const T x = a[perm ? perm[mid] : mid];
            if (right ? !sort_less(v[i], x) : sort_less(x, v[i]))
              l = mid + 1;
            else
              h = mid;
          }
          dst[i] = l;
        }
      });
    });
  }
};

}  // namespace

SortScanOps& cpu_sort_scan() {
  static CpuSortScan ops;
  return ops;
}

}  // namespace accel::cpu
