// The sort entry point's pieces: the radix sorts (one row, many rows), defined in headers and
// instantiated in generated translation units so that nvcc compiles them in parallel.
#pragma once

#include <cub/util_type.cuh>

#include "src/cuda/libraries/cub/common.cuh"

namespace accel::cub_lib {

// One sort, as accel_cub_sort received it, with its temporary storage.
template <class K>
struct SortJob {
  bool descending;
  const K* keys_in;
  K* keys_out;           // keys-only: the sorted keys; pairs: the first (canonical) key buffer
  K* keys_alt;           // pair sorts: the second key buffer
  int64_t* indices;      // pair sorts: the values (positions), sorted in place (DoubleBuffer)
  int64_t* indices_alt;  // pair sorts: the second value buffer
  int64_t rows, len;
  cudaStream_t stream;
};

// Both run CUB's radix sorts; keys-only when job.indices is null, else pairs over the
// DoubleBuffers (keys_out, keys_alt) and (indices, indices_alt), whose current buffers are
// returned through `keys_current` / `indices_current`. temp == nullptr: query.
template <class K>
cudaError_t radix_sort_one_row(const SortJob<K>& job, void* temp, size_t& bytes, K** keys_current,
                               int64_t** indices_current);
template <class K>
cudaError_t radix_sort_rows(const SortJob<K>& job, void* temp, size_t& bytes, K** keys_current,
                            int64_t** indices_current);

}  // namespace accel::cub_lib

// One explicit instantiation, in the translation units CMake generates (one per algorithm and
// key type, so that nvcc compiles them in parallel; the key types are listed in CMakeLists.txt).
#define ACCEL_CUB_INSTANTIATE(fn, K)                                                            \
  template cudaError_t accel::cub_lib::fn<K>(const accel::cub_lib::SortJob<K>&, void*, size_t&, \
                                             K**, int64_t**);
