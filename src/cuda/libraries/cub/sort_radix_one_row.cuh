// Sorting one row: cub::DeviceRadixSort (onesweep), stable in both directions.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include "src/cuda/libraries/cub/sort.cuh"

namespace accel::cub_lib {

template <class K>
cudaError_t radix_sort_one_row(const SortJob<K>& job, void* temp, size_t& bytes, K** keys_current,
                               int64_t** indices_current) {
  const int64_t n = job.rows * job.len;
  constexpr int kBits = int(sizeof(K) * 8);
  using Sort = cub::DeviceRadixSort;
  if (!job.indices) {
    *keys_current = job.keys_out;
    return job.descending
               ? Sort::SortKeysDescending(temp, bytes, job.keys_in, job.keys_out, n, 0, kBits,
                                          job.stream)
               : Sort::SortKeys(temp, bytes, job.keys_in, job.keys_out, n, 0, kBits, job.stream);
  }
  cub::DoubleBuffer<K> keys(job.keys_out, job.keys_alt);
  cub::DoubleBuffer<int64_t> values(job.indices, job.indices_alt);
  const cudaError_t r =
      job.descending ? Sort::SortPairsDescending(temp, bytes, keys, values, n, 0, kBits, job.stream)
                     : Sort::SortPairs(temp, bytes, keys, values, n, 0, kBits, job.stream);
  *keys_current = keys.Current();
  *indices_current = values.Current();
  return r;
}

}  // namespace accel::cub_lib
