// accel_cub_sort: stable sorts in NumPy's order.
//
// Integers, bool and float32/float64 go through CUB's radix sorts; floats as ordered integer
// keys (sort_key below), except keys-only sorts of one row, which sort the floats themselves.
// float16, bfloat16 and complex keys are sorted by cub::DeviceMergeSort over positions with
// the comparison of kernels/sort_ops.h.
#include <cub/device/device_merge_sort.cuh>

#include <cmath>
#include <cstring>

#include "src/cuda/libraries/cub/sort.cuh"

namespace accel::cub_lib {

namespace {

constexpr unsigned kBlock = 256;

// Sort keys for floats: unsigned integers in NumPy's order (-0 ties +0, every NaN last whatever
// its sign). CUB's radix sort alone puts NaNs with the sign bit set first, and its small-segment
// sorts compare with `<`, which NaNs break. Integers are their own sort keys.
template <class K>
struct SortKeyOf {
  using type = K;
};
template <>
struct SortKeyOf<float> {
  using type = uint32_t;
};
template <>
struct SortKeyOf<double> {
  using type = uint64_t;
};
template <class K>
using SortKey = typename SortKeyOf<K>::type;

template <class U>
constexpr U kSignBit = U(1) << (sizeof(U) * 8 - 1);

template <class K>
__device__ SortKey<K> sort_key(K x) {
  if constexpr (std::is_floating_point_v<K>) {
    using U = SortKey<K>;
    if (x != x) return ~U(0);
    if (x == K(0)) return kSignBit<U>;
    U u;
    memcpy(&u, &x, sizeof u);
    return (u & kSignBit<U>) ? ~u : (u | kSignBit<U>);
  } else {
    return x;
  }
}

// The inverse of sort_key (NaNs come back as one NaN, zeros as +0).
template <class K>
__device__ K from_sort_key(SortKey<K> u) {
  using U = SortKey<K>;
  const U bits = (u & kSignBit<U>) ? (u ^ kSignBit<U>) : ~u;
  K x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

template <class K>
__global__ void to_sort_keys(const K* in, SortKey<K>* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = sort_key(in[i]);
  }
}

template <class K>
__global__ void from_sort_keys(SortKey<K>* data, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const K x = from_sort_key<K>(data[i]);
    memcpy(&data[i], &x, sizeof x);
  }
}

// Pair sorts start from the sort keys and each element's position in its row.
template <class K>
__global__ void prepare_pairs(const K* in, SortKey<K>* keys, int64_t* positions, int64_t n,
                              int64_t len) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    keys[i] = sort_key(in[i]);
    positions[i] = i % len;
  }
}

// keys_out[i] = the original key at the sorted position (sort keys lost NaN and zero signs).
template <class K>
__global__ void gather_sorted_keys(const K* in, const int64_t* positions, K* out, int64_t n,
                                   int64_t len) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = in[(i / len) * len + positions[i]];
  }
}

// After CUB's keys-only radix sort of one float row, NaNs with the sign bit set are at the
// start of an ascending row (the end of a descending one): rotate them to the other end, where
// NumPy puts NaNs. One block; returns at once when the row has none. `scratch` holds len keys.
template <class K>
__global__ void move_signed_nans(K* seg, int64_t len, K* scratch, bool descending) {
  __shared__ int64_t count;
  const K probe = descending ? seg[len - 1] : seg[0];
  if (probe == probe) return;  // the same for every thread of the block
  if (threadIdx.x == 0) {
    // The signed NaNs are contiguous at that end: binary search for their number.
    int64_t lo = 0, hi = len;
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      const K x = descending ? seg[len - 1 - mid] : seg[mid];
      const bool signed_nan = x != x && signbit(x);
      if (signed_nan)
        lo = mid + 1;
      else
        hi = mid;
    }
    count = lo;
  }
  __syncthreads();
  const int64_t k = count;
  for (int64_t i = threadIdx.x; i < len; i += blockDim.x) scratch[i] = seg[i];
  __syncthreads();
  for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
    seg[i] = descending ? scratch[(i - k + len) % len] : scratch[(i + k) % len];
  }
}

// The common keys-only sort of one float row: CUB's radix sort of the floats themselves (no
// key conversion passes), then the signed NaNs moved.
template <class K>
int radix_sort_float_row(bool descending, const K* in, K* keys_out, int64_t len, TempCarver& carver,
                         size_t* temp_bytes, cudaStream_t stream) {
  SortJob<K> job{descending, in, keys_out, nullptr, nullptr, nullptr, 1, len, stream};
  K* scratch = carver.take<K>(len);
  K* keys_current = nullptr;
  int64_t* indices_current = nullptr;
  size_t cub_bytes = 0;
  ACCEL_CUB_TRY(radix_sort_one_row(job, nullptr, cub_bytes, &keys_current, &indices_current));
  void* cub_temp = carver.take_bytes(cub_bytes);
  if (carver.querying()) return finish(carver, temp_bytes);
  ACCEL_CUB_TRY(radix_sort_one_row(job, cub_temp, cub_bytes, &keys_current, &indices_current));
  move_signed_nans<<<1, kBlock, 0, stream>>>(keys_out, len, scratch, descending);
  return finish(carver, temp_bytes);
}

template <class K>
int radix_sort(bool descending, const K* in, K* keys_out, int64_t* indices_out, int64_t rows,
               int64_t len, TempCarver& carver, size_t* temp_bytes, cudaStream_t stream) {
  using U = SortKey<K>;
  constexpr bool converted = !std::is_same_v<U, K>;
  const int64_t n = rows * len;
  const bool pairs = indices_out != nullptr;
  if constexpr (converted) {
    if (!pairs && rows == 1)
      return radix_sort_float_row(descending, in, keys_out, len, carver, temp_bytes, stream);
  }
  SortJob<U> job{descending, nullptr, nullptr, nullptr, nullptr, nullptr, rows, len, stream};
  U* converted_keys = nullptr;
  if (pairs) {
    job.keys_out = carver.take<U>(n);
    job.keys_alt = carver.take<U>(n);
    job.indices = indices_out;
    job.indices_alt = carver.take<int64_t>(n);
  } else if constexpr (converted) {
    converted_keys = carver.take<U>(n);
    job.keys_in = converted_keys;
    job.keys_out = reinterpret_cast<U*>(keys_out);
  } else {
    job.keys_in = in;
    job.keys_out = keys_out;
  }
  const auto sort = [&](void* temp, size_t& bytes, U** kc, int64_t** ic) {
    return rows == 1 ? radix_sort_one_row(job, temp, bytes, kc, ic)
                     : radix_sort_rows(job, temp, bytes, kc, ic);
  };
  U* keys_current = nullptr;
  int64_t* indices_current = nullptr;
  size_t cub_bytes = 0;
  ACCEL_CUB_TRY(sort(nullptr, cub_bytes, &keys_current, &indices_current));
  void* cub_temp = carver.take_bytes(cub_bytes);
  if (carver.querying()) return finish(carver, temp_bytes);

  const unsigned grid = grid_for(n, kBlock);
  if (pairs) {
    prepare_pairs<<<grid, kBlock, 0, stream>>>(in, job.keys_out, indices_out, n, len);
  } else if constexpr (converted) {
    to_sort_keys<<<grid, kBlock, 0, stream>>>(in, converted_keys, n);
  }
  ACCEL_CUB_TRY(sort(cub_temp, cub_bytes, &keys_current, &indices_current));
  if (pairs) {
    if (indices_current != indices_out) {
      ACCEL_CUB_TRY(cudaMemcpyAsync(indices_out, indices_current, n * sizeof(int64_t),
                                    cudaMemcpyDeviceToDevice, stream));
    }
    if (keys_out)
      gather_sorted_keys<<<grid, kBlock, 0, stream>>>(in, indices_out, keys_out, n, len);
  } else if constexpr (converted) {
    from_sort_keys<K><<<grid, kBlock, 0, stream>>>(job.keys_out, n);
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
  ACCEL_CUB_TRY(
      cub::DeviceMergeSort::StableSortKeys(nullptr, cub_bytes, order, n, compare, stream));
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
