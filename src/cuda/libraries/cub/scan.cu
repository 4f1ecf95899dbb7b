// accel_cub_scan: inclusive sums and products with cub::DeviceScan (decoupled look-back: one
// pass over the data); rows of an array are scanned at once by key (the row number).
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "src/cuda/libraries/cub/common.cuh"

namespace accel::cub_lib {

namespace {

template <class T, class Op>
int inclusive_scan(const T* in, T* out, int64_t rows, int64_t len, TempCarver& carver,
                   size_t* temp_bytes, cudaStream_t stream) {
  const int64_t n = rows * len;
  const auto scan = [&](void* temp, size_t& bytes) {
    return rows == 1
               ? cub::DeviceScan::InclusiveScan(temp, bytes, in, out, Op{}, n, stream)
               : cub::DeviceScan::InclusiveScanByKey(temp, bytes, row_numbers(len), in, out, Op{},
                                                     n, ::cuda::std::equal_to<>{}, stream);
  };
  size_t cub_bytes = 0;
  ACCEL_CUB_TRY(scan(nullptr, cub_bytes));
  void* cub_temp = carver.take_bytes(cub_bytes);
  if (carver.querying()) return finish(carver, temp_bytes);
  ACCEL_CUB_TRY(scan(cub_temp, cub_bytes));
  return finish(carver, temp_bytes);
}

template <class T>
int scan_op(int op, const void* in, void* out, int64_t rows, int64_t len, TempCarver& carver,
            size_t* temp_bytes, cudaStream_t stream) {
  const T* src = static_cast<const T*>(in);
  T* dst = static_cast<T*>(out);
  if (op == 0) {
    return inclusive_scan<T, ::cuda::std::plus<T>>(src, dst, rows, len, carver, temp_bytes, stream);
  }
  return inclusive_scan<T, ::cuda::std::multiplies<T>>(src, dst, rows, len, carver, temp_bytes,
                                                       stream);
}

}  // namespace

}  // namespace accel::cub_lib

using namespace accel;
using namespace accel::cub_lib;

extern "C" int accel_cub_scan(int dtype, int op, const void* in, void* out, int64_t rows,
                              int64_t len, void* temp, size_t* temp_bytes,
                              accel_cub_stream stream) {
  if ((op != 0 && op != 1) || rows < 0 || len < 0) return int(cudaErrorInvalidValue);
  TempCarver carver(temp);
  if (rows * len == 0) return finish(carver, temp_bytes);
  switch (DType(dtype)) {
#define ACCEL_SCAN_CASE(D) \
  case DType::D:           \
    return scan_op<dtype_t<DType::D>>(op, in, out, rows, len, carver, temp_bytes, stream);
    ACCEL_SCAN_CASE(UInt64)
    ACCEL_SCAN_CASE(Float16)
    ACCEL_SCAN_CASE(BFloat16)
    ACCEL_SCAN_CASE(Float32)
    ACCEL_SCAN_CASE(Float64)
    ACCEL_SCAN_CASE(Complex64)
    ACCEL_SCAN_CASE(Complex128)
#undef ACCEL_SCAN_CASE
    default:
      return int(cudaErrorInvalidValue);
  }
}
