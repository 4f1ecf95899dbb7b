// accel_cub_select_flagged (cub::DeviceSelect::Flagged), accel_cub_gather and
// accel_cub_searchsorted (one binary search per value, in NumPy's order).
#include <cub/device/device_select.cuh>

#include "src/cuda/libraries/cub/common.cuh"

namespace accel::cub_lib {

namespace {

constexpr unsigned kBlock = 256;

template <class In, class Out>
int select_flagged(In in, const uint8_t* flags, Out out, int64_t* num_selected, int64_t n,
                   TempCarver& carver, size_t* temp_bytes, cudaStream_t stream) {
  const bool* f = reinterpret_cast<const bool*>(flags);
  size_t cub_bytes = 0;
  ACCEL_CUB_TRY(
      cub::DeviceSelect::Flagged(nullptr, cub_bytes, in, f, out, num_selected, n, stream));
  void* cub_temp = carver.take_bytes(cub_bytes);
  if (carver.querying()) return finish(carver, temp_bytes);
  ACCEL_CUB_TRY(
      cub::DeviceSelect::Flagged(cub_temp, cub_bytes, in, f, out, num_selected, n, stream));
  return finish(carver, temp_bytes);
}

template <class T>
__global__ void gather_kernel(const T* src, const int64_t* index, T* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = src[index[i]];
  }
}

template <class T>
__global__ void searchsorted_kernel(const T* sorted, int64_t len, const int64_t* sorter,
                                    const T* values, int64_t n, int64_t* out, bool right) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const T v = values[i];
    int64_t lo = 0, hi = len;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const T x = sorted[sorter ? sorter[mid] : mid];
      // left: skip elements before v; right: skip elements not after v.
      const bool skip = right ? !sort_less(v, x) : sort_less(x, v);
      if (skip)
        lo = mid + 1;
      else
        hi = mid;
    }
    out[i] = lo;
  }
}

}  // namespace

}  // namespace accel::cub_lib

using namespace accel;
using namespace accel::cub_lib;

extern "C" int accel_cub_select_flagged(size_t elem_size, const void* in, const uint8_t* flags,
                                        void* out, int64_t* num_selected, int64_t n, void* temp,
                                        size_t* temp_bytes, accel_cub_stream stream) {
  if (n < 0) return int(cudaErrorInvalidValue);
  TempCarver carver(temp);
  if (!in) {
    return select_flagged(thrust::counting_iterator<int64_t>(0), flags, static_cast<int64_t*>(out),
                          num_selected, n, carver, temp_bytes, stream);
  }
  int result = int(cudaErrorInvalidValue);
  dispatch_size(elem_size, [&]<class T>(type_tag<T>) {
    result = select_flagged(static_cast<const T*>(in), flags, static_cast<T*>(out), num_selected, n,
                            carver, temp_bytes, stream);
  });
  return result;
}

extern "C" int accel_cub_gather(size_t elem_size, const void* src, const int64_t* index, void* out,
                                int64_t n, accel_cub_stream stream) {
  if (n <= 0) return n < 0 ? int(cudaErrorInvalidValue) : 0;
  const bool ok = dispatch_size(elem_size, [&]<class T>(type_tag<T>) {
    gather_kernel<<<grid_for(n, kBlock), kBlock, 0, stream>>>(static_cast<const T*>(src), index,
                                                              static_cast<T*>(out), n);
  });
  return ok ? int(cudaGetLastError()) : int(cudaErrorInvalidValue);
}

extern "C" int accel_cub_searchsorted(int dtype, int right, const void* sorted, int64_t len,
                                      const int64_t* sorter, const void* values, int64_t n,
                                      int64_t* out, accel_cub_stream stream) {
  if (dtype < 0 || dtype >= kNumDTypes || n < 0 || len < 0) return int(cudaErrorInvalidValue);
  if (n == 0) return 0;
  dispatch_dtype(DType(dtype), [&]<class T>(type_tag<T>) {
    searchsorted_kernel<<<grid_for(n, kBlock), kBlock, 0, stream>>>(
        static_cast<const T*>(sorted), len, sorter, static_cast<const T*>(values), n, out,
        right != 0);
  });
  return int(cudaGetLastError());
}
