// Gathers and scatters run one generated kernel that checks every index as it reads it: an
// out-of-range index sets a flag in device memory (first offender wins, by atomicCAS), read back
// once the kernel is done, so the check costs no separate pass over the indices. Selection
// counts the true elements per tile and scans the counts (two small kernels; the total, read
// back, sizes the result), then CUB's DeviceSelect (libaccel_cub) writes the selection, or our
// own write kernel where the build had no nvcc.
#include "src/cuda/ops/indexing.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "accel/storage.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/transfer.hpp"
#include "src/cuda/jit/kernel_cache.hpp"
#include "src/cuda/libraries/cub_library.hpp"
#include "src/cuda/ops/indexing_kernels.hpp"

namespace accel::cuda {

namespace {

constexpr size_t kErrorBytes = 2 * sizeof(unsigned long long);

const char* address(const Array& a) {
  return static_cast<const char*>(a.storage()->data()) + a.offset() * int64_t(itemsize(a.dtype()));
}

void launch(DeviceContext& c, const LoadedKernel& k, int entry, unsigned grid, unsigned block,
            void** args) {
  c.last_kernel.store(k.name.c_str());
  check(drv().cuLaunchKernel(k.fn[entry], grid, 1, 1, block, 1, 1, 0, c.stream(), args, nullptr),
        "cuLaunchKernel", c.index);
}

// Device memory for the duration of one call, freed in stream order.
struct Scratch {
  DeviceContext& c;
  size_t bytes;
  void* ptr;
  Scratch(DeviceContext& ctx, size_t n) : c(ctx), bytes(n), ptr(device_allocate(ctx, n)) {}
  ~Scratch() { device_free(c, ptr, bytes); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

// The out-of-range flag of a stream: {index array + 1, offending value}, zero between calls (a
// call that finds it set zeroes it again), so a checked gather costs no allocation or upload,
// only the read-back. Its mutex spans launch to read-back: calls on one stream from several
// threads must not see each other's flag.
struct ErrorFlag {
  std::mutex mutex;
  void* ptr = nullptr;
};

ErrorFlag& error_flag(DeviceContext& c) {
  static std::mutex mutex;
  static std::map<std::pair<int, api::CUstream>, std::unique_ptr<ErrorFlag>> flags;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<ErrorFlag>& f = flags[{c.index, c.stream()}];
  if (!f) {
    auto made = std::make_unique<ErrorFlag>();
    made->ptr = device_allocate(c, kErrorBytes);
    const unsigned long long zero[2] = {0, 0};
    copy_host_to_device(c, zero, made->ptr, kErrorBytes);
    f = std::move(made);
  }
  return *f;
}

void run_map(int device, const IndexMap& map, bool scatter) {
  DeviceContext& c = context(device);
  c.make_current();
  const IndexLoop loop = make_index_loop(map);
  const int nd = int(loop.shape.size()), na = int(map.indices.size());
  if (nd > kMaxIndexDims || na > kMaxIndexArrays) {
    throw NotImplementedError("indexing on CUDA supports up to " + std::to_string(kMaxIndexArrays) +
                              " index arrays over up to " + std::to_string(kMaxIndexDims) +
                              " non-mergeable dimensions (got " + std::to_string(na) + " over " +
                              std::to_string(nd) + ")");
  }
  IndexKernelKey key;
  key.scatter = scatter;
  key.elem_size = int(itemsize(map.base.dtype()));
  key.ndim = nd;
  key.arrays = na;
  key.mode = map.mode;
  const std::string name = index_kernel_name(key);
  const LoadedKernel& k = get_source_kernel(c, name, [&] { return index_kernel_source(key); });

  std::vector<long long> w(index_param_words(nd, na), 0);
  w[0] = loop.size;
  w[1] = reinterpret_cast<long long>(address(map.base));
  w[2] = reinterpret_cast<long long>(address(map.dense));
  int at = 4;
  for (const IndexOperand& op : map.indices)
    w[at++] = reinterpret_cast<long long>(address(op.index));
  for (int d = 0; d < nd; ++d) w[at++] = loop.shape[d];
  for (const Strides& st : loop.strides)
    for (int d = 0; d < nd; ++d) w[at++] = st[d];
  for (const IndexOperand& op : map.indices) w[at++] = op.stride;
  for (const IndexOperand& op : map.indices) w[at++] = op.len;

  ErrorFlag* err = map.mode == IndexMode::Raise ? &error_flag(c) : nullptr;
  std::unique_lock<std::mutex> err_lock;
  if (err) {
    err_lock = std::unique_lock<std::mutex>(err->mutex);
    w[3] = reinterpret_cast<long long>(err->ptr);
  }
  const int64_t per_block = int64_t(kIndexThreads) * kIndexUnroll;
  // One block per per_block elements (the loop strides over the grid only past the grid-size
  // limit): capping the grid at 32 blocks per SM made 2^26 random gathers 1.3% slower on the
  // H200 (1.947 -> 1.973 ms; unrolling 2 or 8 instead of 4 was slower still, 2026-12-02).
  const int64_t max_blocks = INT32_MAX;
  const unsigned grid = unsigned(std::min((loop.size + per_block - 1) / per_block, max_blocks));
  void* args[] = {w.data()};
  launch(c, k, 0, grid, kIndexThreads, args);
  if (err) {
    unsigned long long flag[2];
    copy_device_to_host(c, err->ptr, flag, sizeof(flag));
    if (flag[0] != 0) {
      const unsigned long long zero[2] = {0, 0};
      copy_host_to_device(c, zero, err->ptr, kErrorBytes);
      const IndexOperand& op = map.indices[flag[0] - 1];
      throw_index_out_of_bounds(static_cast<int64_t>(flag[1]), op.axis, op.len);
    }
  }
}

class CudaIndexing final : public IndexingBackend {
 public:
  explicit CudaIndexing(int device) : device_(device) {}
  void gather(const IndexMap& map) override { run_map(device_, map, false); }
  void scatter(const IndexMap& map) override { run_map(device_, map, true); }
  Array select(const Array& mask, const Array& values) override {
    DeviceContext& c = context(device_);
    c.make_current();
    const long long n = mask.size();
    const long long tiles = (n + kSelectTile - 1) / kSelectTile;
    const LoadedKernel& counting =
        get_source_kernel(c, select_kernel_name(-1), [] { return select_kernel_source(-1); });
    Scratch offs(c, size_t(tiles + 1) * sizeof(unsigned long long));
    const void* m = address(mask);
    {
      void* args[] = {&m, const_cast<long long*>(&n), &offs.ptr};
      launch(c, counting, 0, unsigned(tiles), kSelectThreads, args);
      long long t = tiles;
      void* scan_args[] = {&offs.ptr, &t};
      launch(c, counting, 1, 1, kScanThreads, scan_args);
    }
    unsigned long long total = 0;
    copy_device_to_host(c, static_cast<const unsigned long long*>(offs.ptr) + tiles, &total,
                        sizeof(total));
    const DType dt = values.defined() ? values.dtype() : DType::Int64;
    Array out = Array::empty(Shape{int64_t(total)}, dt, mask.device());
    if (total == 0) return out;
    const int es = values.defined() ? int(itemsize(dt)) : 0;
    const void* v = values.defined() ? address(values) : nullptr;
    void* o = out.storage()->data();
    if (cub_available()) {
      // CUB's DeviceSelect writes the selection (the library made for it); the count above
      // only sized the result.
      Scratch count(c, sizeof(int64_t));
      select_flagged(device_, v, values.defined() ? size_t(es) : sizeof(int64_t),
                     static_cast<const bool*>(m), o, static_cast<int64_t*>(count.ptr), n);
      return out;
    }
    // Without libaccel_cub (no nvcc at build time): our write kernel.
    const LoadedKernel& writing =
        get_source_kernel(c, select_kernel_name(es), [es] { return select_kernel_source(es); });
    void* args[] = {&m, &v, const_cast<long long*>(&n), &offs.ptr, &o};
    launch(c, writing, 0, unsigned(tiles), kSelectThreads, args);
    return out;
  }

 private:
  int device_;
};

}  // namespace

IndexingBackend& cuda_indexing(int device) {
  static CudaIndexing* backends[kMaxDevices] = {};
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (!backends[device]) backends[device] = new CudaIndexing(device);
  return *backends[device];
}

}  // namespace accel::cuda
