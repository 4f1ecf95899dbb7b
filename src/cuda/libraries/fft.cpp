// cuFFT on the device's current stream. Plans are cached per device, keyed by what cuFFT plans
// for (type, lengths, batch), least recently used first out past the bound (accel/fft.hpp).
// Plans are made without a work area (cufftSetAutoAllocation 0): each execution takes its work
// area from accelpy's stream-ordered allocator and frees it in stream order, so idle plans
// hold no scratch memory and the memory limit and OOM retry apply to it.
#include "src/cuda/libraries/fft.hpp"

#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "accel/fft.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/context.hpp"
#include "src/cuda/libraries/cufft.hpp"

namespace accel::cuda {

namespace {

const Cufft& lib() {
  const Cufft* f = cufft();
  if (!f) throw Error("cuFFT is not available: " + cufft_status().error);
  return *f;
}

void check_cufft(api::cufftResult r, const char* call, int device) {
  if (r == api::CUFFT_SUCCESS) return;
  const std::string what =
      std::string(call) + " failed on cuda:" + std::to_string(device) + ": " + cufft_error_name(r);
  if (r == api::CUFFT_ALLOC_FAILED) throw OutOfMemoryError(what);
  throw Error(what);
}

struct PlanKey {
  api::cufftType type = 0;
  int64_t batch = 0;
  std::vector<int64_t> n;
  bool operator==(const PlanKey& o) const { return type == o.type && batch == o.batch && n == o.n; }
};

struct Plan {
  int device = 0;
  api::cufftHandle handle = 0;
  size_t work_bytes = 0;
  Plan(int dev, const PlanKey& key) : device(dev) {
    const Cufft& f = lib();
    check_cufft(f.cufftCreate(&handle), "cufftCreate", device);
    try {
      check_cufft(f.cufftSetAutoAllocation(handle, 0), "cufftSetAutoAllocation", device);
      std::vector<long long> n(key.n.begin(), key.n.end());
      // Basic (contiguous) layouts: the batch is the leading dimension.
      check_cufft(f.cufftMakePlanMany64(handle, int(n.size()), n.data(), nullptr, 1, 0, nullptr, 1,
                                        0, key.type, key.batch, &work_bytes),
                  "cufftMakePlanMany64", device);
    } catch (...) {
      f.cufftDestroy(handle);
      throw;
    }
  }
  ~Plan() {
    if (!context(device).try_make_current()) return;
    if (const Cufft* f = cufft()) f->cufftDestroy(handle);
  }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
};

struct DevicePlans {
  std::list<std::pair<PlanKey, std::shared_ptr<Plan>>> lru;  // most recent first
  uint64_t hits = 0, misses = 0;
};

std::mutex g_mutex;
size_t g_max_size = 16;  // CuPy's default
// Never destroyed: at exit cuFFT may be torn down before this library's statics are.
DevicePlans* const g_plans = new DevicePlans[kMaxDevices];

// Drops plans beyond `bound` (called with g_mutex held); plans still executing elsewhere live
// on through their shared_ptr.
void trim(DevicePlans& p, size_t bound) {
  while (p.lru.size() > bound) p.lru.pop_back();
}

std::shared_ptr<Plan> get_plan(int device, const PlanKey& key) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    DevicePlans& p = g_plans[device];
    for (auto it = p.lru.begin(); it != p.lru.end(); ++it) {
      if (it->first == key) {
        p.lru.splice(p.lru.begin(), p.lru, it);
        ++p.hits;
        return it->second;
      }
    }
    ++p.misses;
  }
  auto plan = std::make_shared<Plan>(device, key);  // outside the lock: planning takes time
  std::lock_guard<std::mutex> lock(g_mutex);
  DevicePlans& p = g_plans[device];
  if (g_max_size > 0) {
    p.lru.emplace_front(key, plan);
    trim(p, g_max_size);
  }
  return plan;
}

api::cufftType type_of(const FftJob& job) {
  const bool dbl = job.real == DType::Float64;
  switch (job.kind) {
    case FftKind::C2C:
      return dbl ? api::CUFFT_Z2Z : api::CUFFT_C2C;
    case FftKind::R2C:
      return dbl ? api::CUFFT_D2Z : api::CUFFT_R2C;
    case FftKind::C2R:
      return dbl ? api::CUFFT_Z2D : api::CUFFT_C2R;
  }
  return api::CUFFT_C2C;
}

class CudaFft final : public FftBackend {
 public:
  explicit CudaFft(int device) : device_(device) {}

  void execute(const FftJob& job) override {
    DeviceContext& c = context(device_);
    c.make_current();
    const Cufft& f = lib();
    PlanKey key{type_of(job), job.batch, job.n};
    const std::shared_ptr<Plan> plan = get_plan(device_, key);
    const api::CUstream stream = c.stream();
    void* work = plan->work_bytes ? device_allocate(c, plan->work_bytes) : nullptr;
    try {
      // A plan is shared by threads and streams: binding it and queuing its execution are one
      // step under the lock.
      std::lock_guard<std::mutex> lock(g_mutex);
      check_cufft(f.cufftSetStream(plan->handle, stream), "cufftSetStream", device_);
      check_cufft(f.cufftSetWorkArea(plan->handle, work), "cufftSetWorkArea", device_);
      void* in = const_cast<void*>(job.in);  // cuFFT's signatures are not const
      const int dir = job.forward ? api::CUFFT_FORWARD : api::CUFFT_INVERSE;
      switch (key.type) {
        case api::CUFFT_C2C:
          check_cufft(f.cufftExecC2C(plan->handle, in, job.out, dir), "cufftExecC2C", device_);
          break;
        case api::CUFFT_Z2Z:
          check_cufft(f.cufftExecZ2Z(plan->handle, in, job.out, dir), "cufftExecZ2Z", device_);
          break;
        case api::CUFFT_R2C:
          check_cufft(f.cufftExecR2C(plan->handle, in, job.out), "cufftExecR2C", device_);
          break;
        case api::CUFFT_D2Z:
          check_cufft(f.cufftExecD2Z(plan->handle, in, job.out), "cufftExecD2Z", device_);
          break;
        case api::CUFFT_C2R:
          check_cufft(f.cufftExecC2R(plan->handle, in, job.out), "cufftExecC2R", device_);
          break;
        case api::CUFFT_Z2D:
          check_cufft(f.cufftExecZ2D(plan->handle, in, job.out), "cufftExecZ2D", device_);
          break;
      }
      c.last_kernel.store("cuFFT");
    } catch (...) {
      if (work) device_free(c, work, plan->work_bytes);
      throw;
    }
    // Stream-ordered: reused only after the transform is done.
    if (work) device_free(c, work, plan->work_bytes);
  }
  bool applies_scale() const override { return false; }
  int max_rank() const override { return 3; }

 private:
  int device_;
};

}  // namespace

FftBackend& cuda_fft(int device) { return per_device<CudaFft>(device); }

}  // namespace accel::cuda

namespace accel::fft {

PlanCacheInfo plan_cache_info(int cuda_device) {
  if (cuda_device < 0 || cuda_device >= cuda::kMaxDevices) {
    throw ValueError("no CUDA device " + std::to_string(cuda_device));
  }
  std::lock_guard<std::mutex> lock(cuda::g_mutex);
  const cuda::DevicePlans& p = cuda::g_plans[cuda_device];
  return {p.lru.size(), cuda::g_max_size, p.hits, p.misses};
}

void clear_plan_cache(int cuda_device) {
  if (cuda_device < 0 || cuda_device >= cuda::kMaxDevices) {
    throw ValueError("no CUDA device " + std::to_string(cuda_device));
  }
  std::list<std::pair<cuda::PlanKey, std::shared_ptr<cuda::Plan>>> dropped;
  {
    std::lock_guard<std::mutex> lock(cuda::g_mutex);
    dropped.swap(cuda::g_plans[cuda_device].lru);
  }
  // Destroyed here, outside the lock.
}

void set_plan_cache_max_size(size_t max_size) {
  std::lock_guard<std::mutex> lock(cuda::g_mutex);
  cuda::g_max_size = max_size;
  for (int d = 0; d < cuda::kMaxDevices; ++d) cuda::trim(cuda::g_plans[d], max_size);
}

}  // namespace accel::fft
