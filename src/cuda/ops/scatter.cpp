// Scatter-add on CUDA: one kernel of atomic adds (64-bit integer counts, float64 sums), compiled
// once per process by NVRTC (and kept in the disk cache like the generated kernels). Float sums
// add in the order the atomics land, so weighted results may differ from NumPy's sequential sum
// in the last bits and from run to run; counts are exact.
#include "src/cuda/ops/scatter.hpp"

#include <mutex>
#include <optional>
#include <string>

#include "accel/errors.hpp"
#include "src/cuda/driver/context.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/util/disk_cache.hpp"

namespace accel::cuda {

namespace {

const char* kSource = R"(
struct ScatterParams {
  const long long* index;
  const double* weights;  // null: count
  long long n;
  void* out;
};
extern "C" __global__ void __launch_bounds__(256) accel_scatter_add(const ScatterParams p) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += stride) {
    const long long j = p.index[i];
    if (p.weights) {
      atomicAdd(static_cast<double*>(p.out) + j, p.weights[i]);
    } else {
      atomicAdd(static_cast<unsigned long long*>(p.out) + j, 1ull);
    }
  }
}
)";

struct ScatterParams {
  const void* index;
  const void* weights;
  long long n;
  void* out;
};

class CudaScatter final : public ScatterBackend {
 public:
  explicit CudaScatter(int device) : device_(device) {}

  void scatter_add(const Array& index, const Array* weights, const Array& out) override {
    const int64_t n = index.size();
    if (n == 0) return;
    DeviceContext& c = context(device_);
    c.make_current();
    api::CUfunction fn = function(c);
    ScatterParams p{index.data(), weights ? weights->data() : nullptr, (long long)n, out.data()};
    void* args[] = {&p};
    const long long blocks = (n + 255) / 256;
    const unsigned grid = unsigned(blocks < 8 * 1024 ? blocks : 8 * 1024);
    c.last_kernel.store("accel_scatter_add");
    check(drv().cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, 0, c.stream(), args, nullptr),
          "cuLaunchKernel", c.index);
  }

 private:
  api::CUfunction function(DeviceContext& c) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (fn_) return fn_;
    const int cc = c.props.major * 10 + c.props.minor;
    const util::DiskCache cache(util::default_cache_dir());
    const std::string key = disk_key(kSource, cc);
    std::optional<CompiledImage> img = cache.enabled() ? cache.load(key) : std::nullopt;
    if (!img) {
      img = compile_program(kSource, cc, "accel_scatter_add");
      if (cache.enabled()) cache.store(key, *img);
    }
    api::CUmodule mod = nullptr;
    check(drv().cuModuleLoadData(&mod, img->data.c_str()), "cuModuleLoadData", c.index);
    check(drv().cuModuleGetFunction(&fn_, mod, "accel_scatter_add"), "cuModuleGetFunction",
          c.index);
    return fn_;
  }

  int device_;
  std::mutex mutex_;
  api::CUfunction fn_ = nullptr;
};

}  // namespace

ScatterBackend& cuda_scatter(int device) { return per_device<CudaScatter>(device); }

}  // namespace accel::cuda
