// The sort entry point's pieces: the radix sorts live in two files (one row, many rows) so that
// nvcc compiles their many instantiations in parallel.
#pragma once

#include <cub/util_type.cuh>

#include "src/cuda/cub/common.cuh"

namespace accel::cub_lib {

// One sort, as accel_cub_sort received it, with its temporary storage.
template <class K>
struct SortJob {
  bool descending;
  const K* keys_in;
  K* keys_out;            // keys-only sorts: the sorted keys
  K* keys_alt;            // pair sorts: the second key buffer
  int64_t* indices;       // pair sorts: the values (positions), sorted in place (DoubleBuffer)
  int64_t* indices_alt;   // pair sorts: the second value buffer
  int64_t rows, len;
  cudaStream_t stream;
};

// Both run CUB's radix sorts; keys-only when job.indices is null, else pairs over the
// DoubleBuffers (keys_out, keys_alt) and (indices, indices_alt), whose current buffers are
// returned through `keys_current` / `indices_current`. temp == nullptr: query.
template <class K>
cudaError_t radix_sort_one_row(const SortJob<K>& job, void* temp, size_t& bytes,
                               K** keys_current, int64_t** indices_current);
template <class K>
cudaError_t radix_sort_rows(const SortJob<K>& job, void* temp, size_t& bytes, K** keys_current,
                            int64_t** indices_current);

// The key types CUB's radix sort handles for accelpy (bool is sorted as uint8).
#define ACCEL_CUB_RADIX_KEYS(X) \
  X(uint8_t)                    \
  X(int8_t)                     \
  X(int16_t)                    \
  X(uint16_t)                   \
  X(int32_t)                    \
  X(uint32_t)                   \
  X(int64_t)                    \
  X(uint64_t)                   \
  X(float)                      \
  X(double)

}  // namespace accel::cub_lib
