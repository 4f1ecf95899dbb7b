// libaccel_cub.so, the CUB device algorithms built by nvcc beside the extension
// (src/cuda/libraries/cub/), opened with dlopen on first use, and C++ wrappers that run them on a
// device's current stream with temporary memory from accelpy's stream-ordered pool.
//
// Without the library (accelpy built where CMake found no nvcc) every wrapper throws
// accel::Error saying so; the rest of accelpy works.
#pragma once

#include <cstddef>
#include <cstdint>

#include "accel/dtype.hpp"
#include "src/core/backend_sort.hpp"
#include "src/cuda/driver/loader.hpp"

namespace accel::cuda {

// Where the library was found, or why not (ACCELPY_CUB: a file or directory overrides the
// search, which looks next to the extension, then in the build tree).
const LoadStatus& cub_status();
bool cub_available();

// Stable sort of `rows` rows of `len` elements in NumPy's order; see accel_cub_sort.
void cub_sort(int device, DType dtype, bool descending, const void* keys, void* keys_out,
              int64_t* indices_out, int64_t rows, int64_t len);
// Inclusive scans of rows in `dtype` (integers as uint64: they wrap alike).
void cub_scan(int device, DType dtype, ScanOp op, const void* in, void* out, int64_t rows,
              int64_t len);
// Stream compaction: out receives the elements of `in` (elem_size bytes each; in == nullptr: the
// int64 positions 0..n-1) whose flag is true; *num_selected (device memory) their number.
// Queued on the device's current stream; nothing waits. For boolean masks and nonzero.
void select_flagged(int device, const void* in, size_t elem_size, const bool* flags, void* out,
                    int64_t* num_selected, int64_t n);
// out[i] = src[index[i]] (elem_size bytes each), indices trusted.
void gather(int device, size_t elem_size, const void* src, const int64_t* index, void* out,
            int64_t n);
// Insertion points of `values` into the ascending `sorted` (through `sorter` when not null).
void searchsorted(int device, DType dtype, bool right, const void* sorted, int64_t len,
                  const int64_t* sorter, const void* values, int64_t n, int64_t* out);

}  // namespace accel::cuda
