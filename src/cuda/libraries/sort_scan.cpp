#include "src/cuda/libraries/sort_scan.hpp"

#include "accel/errors.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/context.hpp"
#include "src/cuda/driver/transfer.hpp"
#include "src/cuda/libraries/cub_library.hpp"

namespace accel::cuda {

namespace {

template <class T = void>
T* ptr(const Array& a) {
  return a.defined() ? static_cast<T*>(a.data()) : nullptr;
}

class CudaSortScan final : public SortScanOps {
 public:
  explicit CudaSortScan(int device) : device_(device) {}

  void sort_rows(const Array& keys, int64_t rows, int64_t len, bool descending, const Array& sorted,
                 const Array& indices) override {
    if (rows * len == 0) return;
    cub_sort(device_, keys.dtype(), descending, ptr(keys), ptr(sorted), ptr<int64_t>(indices), rows,
             len);
  }

  void scan_rows(const Array& in, const Array& out, int64_t rows, int64_t len, ScanOp op) override {
    if (rows * len == 0) return;
    // Integers wrap alike signed or not: one unsigned instantiation serves them all.
    const DType dt = is_integer(in.dtype()) ? DType::UInt64 : in.dtype();
    if (is_integer(in.dtype()) && itemsize(in.dtype()) != 8) {
      throw Error("internal: integer scans run in 64 bits");
    }
    cub_scan(device_, dt, op, ptr(in), ptr(out), rows, len);
  }

  int64_t select_flagged(const Array& in, const Array& flags, const Array& out) override {
    const int64_t n = flags.size();
    if (n == 0) return 0;
    DeviceContext& c = context(device_);
    auto* count = static_cast<int64_t*>(device_allocate(c, sizeof(int64_t)));
    int64_t host_count = 0;
    try {
      cuda::select_flagged(device_, ptr(in), in.defined() ? itemsize(in.dtype()) : 8,
                           ptr<bool>(flags), ptr(out), count, n);
      copy_device_to_host(c, count, &host_count, sizeof(int64_t));
    } catch (...) {
      device_free(c, count, sizeof(int64_t));
      throw;
    }
    device_free(c, count, sizeof(int64_t));
    return host_count;
  }

  void gather(const Array& src, const Array& index, const Array& out) override {
    cuda::gather(device_, itemsize(src.dtype()), ptr(src), ptr<int64_t>(index), ptr(out),
                 out.size());
  }

  void searchsorted(const Array& sorted, const Array& sorter, const Array& values, bool right,
                    const Array& out) override {
    if (values.size() == 0) return;
    cuda::searchsorted(device_, sorted.dtype(), right, ptr(sorted), sorted.size(),
                       ptr<int64_t>(sorter), ptr(values), values.size(), ptr<int64_t>(out));
  }

 private:
  int device_;
};

}  // namespace

SortScanOps& cuda_sort_scan(int device) { return per_device<CudaSortScan>(device); }

}  // namespace accel::cuda
