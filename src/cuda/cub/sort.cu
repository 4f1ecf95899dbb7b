// accel_cub_sort: stable sorts in NumPy's order.
//
// Integers, bool and float32/float64 go through CUB's radix sorts. Those order floats by their
// bits, with -0.0 equal to +0.0 but NaNs with the sign bit set *first*; so pair sorts (argsort)
// sort a canonical copy of the keys (every NaN positive) and keys-only sorts move such NaNs to
// the end afterwards (a kernel that returns at once when the row does not start with a NaN).
// float16, bfloat16 and complex keys are sorted by cub::DeviceMergeSort over positions with
// the comparison of kernels/sort_ops.h.
#include <cub/device/device_merge_sort.cuh>

#include <cmath>

#include "src/cuda/cub/sort.cuh"

namespace accel::cub_lib {

namespace {

constexpr unsigned kBlock = 256;

template <class K>
__device__ K canonical_key(K x) {
  if constexpr (std::is_floating_point_v<K>) {
    return x != x ? K(NAN) : x;
  } else {
    return x;
  }
}

// Pair sorts start from a canonical copy of the keys and each element's position in its row.
template <class K>
__global__ void prepare_pairs(const K* in, K* keys, int64_t* positions, int64_t n, int64_t len) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    keys[i] = canonical_key(in[i]);
    positions[i] = i % len;
  }
}

// keys_out[i] = the original key at the sorted position (the canonical copy lost NaN signs).
template <class K>
__global__ void gather_sorted_keys(const K* in, const int64_t* positions, K* out, int64_t n,
                                   int64_t len) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = in[(i / len) * len + positions[i]];
  }
}

// After a keys-only radix sort, NaNs with the sign bit set are at the start of an ascending
// row (the end of a descending one): rotate them to the other end, where NumPy puts NaNs.
// One block per row; `scratch` holds n elements.
template <class K>
__global__ void move_signed_nans(K* data, int64_t rows, int64_t len, K* scratch,
                                 bool descending) {
  __shared__ int64_t count;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    K* seg = data + row * len;
    const K probe = descending ? seg[len - 1] : seg[0];
    if (probe == probe) continue;  // the same for every thread of the block
    if (threadIdx.x == 0) {
      // The signed NaNs are contiguous at that end: binary search for their number.
      int64_t lo = 0, hi = len;
      while (lo < hi) {
        const int64_t mid = (lo + hi) / 2;
        const K x = descending ? seg[len - 1 - mid] : seg[mid];
        const bool signed_nan = x != x && signbit(x);
        if (signed_nan) lo = mid + 1;
        else hi = mid;
      }
      count = lo;
    }
    __syncthreads();
    const int64_t k = count;
    K* tmp = scratch + row * len;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) tmp[i] = seg[i];
    __syncthreads();
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
      seg[i] = descending ? tmp[(i - k + len) % len] : tmp[(i + k) % len];
    }
    __syncthreads();
  }
}

template <class K>
int radix_sort(bool descending, const K* in, K* keys_out, int64_t* indices_out, int64_t rows,
               int64_t len, TempCarver& carver, size_t* temp_bytes, cudaStream_t stream) {
  const int64_t n = rows * len;
  const bool pairs = indices_out != nullptr;
  SortJob<K> job{descending, in, keys_out, nullptr, nullptr, nullptr, rows, len, stream};
  K* nan_scratch = nullptr;
  if (pairs) {
    job.keys_out = carver.take<K>(n);
    job.keys_alt = carver.take<K>(n);
    job.indices = indices_out;
    job.indices_alt = carver.take<int64_t>(n);
  } else if constexpr (std::is_floating_point_v<K>) {
    nan_scratch = carver.take<K>(n);
  }
  const auto sort = [&](void* temp, size_t& bytes, K** kc, int64_t** ic) {
    return rows == 1 ? radix_sort_one_row(job, temp, bytes, kc, ic)
                     : radix_sort_rows(job, temp, bytes, kc, ic);
  };
  K* keys_current = nullptr;
  int64_t* indices_current = nullptr;
  size_t cub_bytes = 0;
  ACCEL_CUB_TRY(sort(nullptr, cub_bytes, &keys_current, &indices_current));
  void* cub_temp = carver.take_bytes(cub_bytes);
  if (carver.querying()) return finish(carver, temp_bytes);

  const unsigned grid = grid_for(n, kBlock);
  if (pairs) prepare_pairs<<<grid, kBlock, 0, stream>>>(in, job.keys_out, indices_out, n, len);
  ACCEL_CUB_TRY(sort(cub_temp, cub_bytes, &keys_current, &indices_current));
  if (pairs) {
    if (indices_current != indices_out) {
      ACCEL_CUB_TRY(cudaMemcpyAsync(indices_out, indices_current, n * sizeof(int64_t),
                                    cudaMemcpyDeviceToDevice, stream));
    }
    if (keys_out) gather_sorted_keys<<<grid, kBlock, 0, stream>>>(in, indices_out, keys_out, n, len);
  } else if constexpr (std::is_floating_point_v<K>) {
    const unsigned row_grid = unsigned(rows < 4096 ? rows : 4096);
    move_signed_nans<<<row_grid, kBlock, 0, stream>>>(keys_out, rows, len, nan_scratch,
                                                      descending);
  }
  return finish(carver, temp_bytes);
}

// Merge sort of positions, comparing the keys they point at (row first, so rows stay apart).
template <class T>
struct ComparePositions {
  const T* keys;
  int64_t len;
  bool descending;
  __device__ bool operator()(int64_t a, int64_t b) const {
    const int64_t ra = a / len, rb = b / len;
    if (ra != rb) return ra < rb;
    return descending ? sort_less(keys[b], keys[a]) : sort_less(keys[a], keys[b]);
  }
};

__global__ void iota(int64_t* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = i;
  }
}

template <class T>
__global__ void finish_merge_sort(const T* in, const int64_t* order, T* keys_out,
                                  int64_t* indices_out, int64_t n, int64_t len) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t from = order[i];
    if (keys_out) keys_out[i] = in[from];
    if (indices_out) indices_out[i] = from - (i / len) * len;
  }
}

template <class T>
int merge_sort(bool descending, const T* in, T* keys_out, int64_t* indices_out, int64_t rows,
               int64_t len, TempCarver& carver, size_t* temp_bytes, cudaStream_t stream) {
  const int64_t n = rows * len;
  int64_t* order = carver.take<int64_t>(n);
  const ComparePositions<T> compare{in, len, descending};
  size_t cub_bytes = 0;
  ACCEL_CUB_TRY(cub::DeviceMergeSort::StableSortKeys(nullptr, cub_bytes, order, n, compare, stream));
  void* cub_temp = carver.take_bytes(cub_bytes);
  if (carver.querying()) return finish(carver, temp_bytes);
  const unsigned grid = grid_for(n, kBlock);
  iota<<<grid, kBlock, 0, stream>>>(order, n);
  ACCEL_CUB_TRY(
      cub::DeviceMergeSort::StableSortKeys(cub_temp, cub_bytes, order, n, compare, stream));
  finish_merge_sort<<<grid, kBlock, 0, stream>>>(in, order, keys_out, indices_out, n, len);
  return finish(carver, temp_bytes);
}

}  // namespace

}  // namespace accel::cub_lib

using namespace accel;
using namespace accel::cub_lib;

extern "C" int accel_cub_abi_version(void) { return ACCEL_CUB_ABI_VERSION; }

extern "C" const char* accel_cub_error_string(int error) {
  return cudaGetErrorString(cudaError_t(error));
}

extern "C" int accel_cub_sort(int dtype, int descending, const void* keys_in, void* keys_out,
                              int64_t* indices_out, int64_t rows, int64_t len, void* temp,
                              size_t* temp_bytes, accel_cub_stream stream) {
  if (dtype < 0 || dtype >= kNumDTypes || rows < 0 || len < 0) return int(cudaErrorInvalidValue);
  TempCarver carver(temp);
  if (rows * len == 0) return finish(carver, temp_bytes);
  return dispatch_dtype(DType(dtype), [&]<class T>(type_tag<T>) -> int {
    if constexpr (is_half_v<T> || is_complex_v<T>) {
      return merge_sort(descending != 0, static_cast<const T*>(keys_in), static_cast<T*>(keys_out),
                        indices_out, rows, len, carver, temp_bytes, stream);
    } else {
      using K = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
      return radix_sort(descending != 0, static_cast<const K*>(keys_in), static_cast<K*>(keys_out),
                        indices_out, rows, len, carver, temp_bytes, stream);
    }
  });
}
