// Sorting many rows: cub::DeviceSegmentedSort's stable sorts, which sort small segments within
// warps or blocks and large ones with device-wide passes. The small-segment sorts compare keys
// with `<`, which NaNs break, so floats arrive here as ordered integer keys (sort.cu).
#pragma once

#include <cub/device/device_segmented_sort.cuh>

#include "src/cuda/libraries/cub/sort.cuh"

namespace accel::cub_lib {

template <class K>
cudaError_t radix_sort_rows(const SortJob<K>& job, void* temp, size_t& bytes, K** keys_current,
                            int64_t** indices_current) {
  const int64_t n = job.rows * job.len;
  using Sort = cub::DeviceSegmentedSort;
  const auto begins = row_begins(job.len);
  const auto ends = row_ends(job.len);
  if (!job.indices) {
    *keys_current = job.keys_out;
    return job.descending ? Sort::StableSortKeysDescending(temp, bytes, job.keys_in, job.keys_out,
                                                           n, job.rows, begins, ends, job.stream)
                          : Sort::StableSortKeys(temp, bytes, job.keys_in, job.keys_out, n,
                                                 job.rows, begins, ends, job.stream);
  }
  cub::DoubleBuffer<K> keys(job.keys_out, job.keys_alt);
  cub::DoubleBuffer<int64_t> values(job.indices, job.indices_alt);
  const cudaError_t r =
      job.descending
          ? Sort::StableSortPairsDescending(temp, bytes, keys, values, n, job.rows, begins, ends,
                                            job.stream)
          : Sort::StableSortPairs(temp, bytes, keys, values, n, job.rows, begins, ends, job.stream);
  *keys_current = keys.Current();
  *indices_current = values.Current();
  return r;
}

}  // namespace accel::cub_lib
