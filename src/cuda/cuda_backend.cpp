// The CUDA backend: runs each Group as one generated kernel on the device's current stream.
// Host work per launch is one plan (dimension merging and a structural key), one hash lookup,
// and one parameter struct passed by value.
#include "src/cuda/cuda_backend.hpp"

#include <atomic>

#include "accel/errors.hpp"
#include "accel/ops.hpp"
#include "accel/storage.hpp"
#include "src/core/graph.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/loader.hpp"
#include "src/cuda/driver/transfer.hpp"
#include "src/cuda/graphs.hpp"
#include "src/cuda/jit/codegen.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/cuda/jit/kernel_cache.hpp"
#include "src/cuda/libraries/fft.hpp"
#include "src/cuda/libraries/gemm.hpp"
#include "src/cuda/libraries/linalg.hpp"
#include "src/cuda/libraries/sort_scan.hpp"
#include "src/cuda/ops/indexing.hpp"
#include "src/cuda/ops/scatter.hpp"

namespace accel::cuda {

namespace {

// The kernel this thread launched last, for the fusion debug log.
thread_local const LoadedKernel* t_last_kernel = nullptr;

// The plan and parameter bytes of this thread's launches: reused, so that a launch allocates
// no host memory for them (run_kernel never runs inside itself).
struct LaunchBuffers {
  LaunchPlans plans;
  std::vector<unsigned char> params;
};
thread_local LaunchBuffers t_launch;

void run_kernel(DeviceContext& c, const Group& g) {
  c.make_current();
  t_last_kernel = nullptr;
  LaunchBuffers& buffers = t_launch;
  KernelPlan& plan = make_plan_cached(g, c.props, c.index, buffers.plans);
  if (plan.strategy == Strategy::Elementwise ? plan.n == 0 : plan.outputs_n == 0) return;
  const LoadedKernel& k = get_kernel(c, plan);
  t_last_kernel = &k;
  if (plan.strategy == Strategy::Inner || plan.strategy == Strategy::Outer) {
    // Split counts depend on how many blocks of this kernel fit at once, known once it is loaded.
    size_reduction(plan, c.props, k.blocks_per_sm);
    if (plan.splits > 1) plan.counters = stream_counters(c, plan.grid[0]);
  }
  const size_t pbytes = partial_bytes(plan);
  void* partial = pbytes ? device_allocate(c, pbytes) : nullptr;
  plan.partial = partial;
  std::vector<unsigned char>& params = buffers.params;
  pack_params(plan, params);
  void* dev_params = nullptr;
  try {
    if (!plan.byref) {
      launch_or_record(c, k, plan.grid, plan.block, params);
    } else {
      // Too large for the kernel parameter space: pass a pointer to a device copy. The copy
      // is from pageable memory, so the driver stages it before returning. A copy is no
      // kernel: what was recorded is queued before it.
      stop_recording();
      dev_params = device_allocate(c, params.size());
      check(drv().cuMemcpyHtoDAsync(reinterpret_cast<api::CUdeviceptr>(dev_params), params.data(),
                                    params.size(), c.stream()),
            "cuMemcpyHtoDAsync", c.index);
      launch_kernel(c, k, plan.grid, plan.block, &dev_params);
    }
  } catch (...) {
    if (partial) free_after_launches(c, partial, pbytes);
    if (dev_params) device_free(c, dev_params, params.size());
    throw;
  }
  // Stream-ordered frees: the memory is reused only after the kernel above is done (after the
  // recorded launches are queued, when it was recorded).
  if (partial) free_after_launches(c, partial, pbytes);
  if (dev_params) device_free(c, dev_params, params.size());
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int index) : index_(index), context_(context(index)) {}
  void* allocate(size_t nbytes) override { return device_allocate(context_, nbytes); }
  // Memory freed while an evaluation is recorded is freed after its launches are queued.
  void deallocate(void* ptr, size_t nbytes) override { free_after_launches(context_, ptr, nbytes); }
  void run(const Group& group) override {
    // Before compiling: a forked child must not reach the parent's compile worker either.
    if (forked_after_init()) throw Error(kForkedMessage);
    DeviceContext& c = context_;
    switch (group.kind) {
      case Group::Kind::Elementwise:
      case Group::Kind::Reduction:
      case Group::Kind::Rows:  // one generated row kernel (codegen_rows.cpp)
        return run_kernel(c, group);
      case Group::Kind::Single:
        if (group.steps[0].node->op == OpKind::Concatenate) {
          // One copy kernel per input.
          return run_concatenate_as_copies(group, [&](const Group& g) { run_kernel(c, g); });
        }
        throw NotImplementedError(std::string(op_name(group.steps[0].node->op)) +
                                  " is not implemented on CUDA devices yet");
    }
  }
  // Work that is not a generated kernel (copies, waits, libraries) first queues what this
  // thread recorded (graphs.hpp), so that it runs in stream order after it.
  void copy_to_host(const void* src, void* dst, size_t nbytes) override {
    stop_recording();
    copy_device_to_host(context(index_), src, dst, nbytes);
  }
  void copy_from_host(const void* src, void* dst, size_t nbytes) override {
    stop_recording();
    copy_host_to_device(context(index_), src, dst, nbytes);
  }
  void copy_device(const void* src, void* dst, size_t nbytes) override {
    stop_recording();
    copy_device_to_device(context(index_), src, dst, nbytes);
  }
  void copy_from_peer(Device from, const void* src, void* dst, size_t nbytes) override {
    if (!from.is_cuda()) throw Error("internal: copy_from_peer from " + from.str());
    stop_recording();
    if (from.index == index_) return copy_device(src, dst, nbytes);
    copy_peer(context(from.index), src, context(index_), dst, nbytes);
  }
  void synchronize() override {
    stop_recording();
    cuda::synchronize(index_);
  }
  void gemm(const Gemm& g) override {
    stop_recording();
    cuda::gemm(context(index_), g);
  }
  IndexingBackend& indexing() override {
    stop_recording();
    return cuda_indexing(index_);
  }
  SortScanOps& sort_scan() override {
    stop_recording();
    return cuda_sort_scan(index_);
  }
  ScatterBackend* scatter() override {
    stop_recording();
    return &cuda_scatter(index_);
  }
  void begin_cached_run(std::unique_ptr<CachedPlanState>& state) override {
    cuda::begin_cached_run(context_, state);
  }
  void end_cached_run(bool completed) override { cuda::end_cached_run(completed); }
  void describe_last_run(std::string& kernel, std::string& cache) override {
    kernel = t_last_kernel ? t_last_kernel->name : "none (empty)";
    cache = t_last_kernel ? last_kernel_lookup() : "-";
  }
  FftBackend* fft() override {
    stop_recording();
    return &cuda_fft(index_);
  }
  LinalgBackend* linalg() override {
    stop_recording();
    return &cuda_linalg(index_);
  }
  const BackendLimits& limits() const override {
    // The kernels' limits (kernel_limits(), also the default of backends without their own).
    // Rows groups of any axes and layout run as one kernel (codegen_rows.cpp), long rows only
    // where they are many; float16 reductions accumulate in float32 (no in-order scan).
    static const BackendLimits l = [] {
      BackendLimits r = kernel_limits();
      r.long_row = kRowsInRegisters;
      r.long_row_min_rows = kMinLongRows;
      r.ordered_scans = false;  // CUB's scans associate in a tree
      return r;
    }();
    return l;
  }

 private:
  int index_;
  DeviceContext& context_;  // initialized before the backend, lives until exit
};

}  // namespace

const BackendLimits& kernel_limits() {
  static const BackendLimits l = [] {
    BackendLimits r;
    r.param_block_bytes = kMaxParamBytes;
    r.max_group_steps = kMaxGroupSteps;
    r.params = param_layout();
    return r;
  }();
  return l;
}

Backend& cuda_backend(int index) {
  // Every operation on a CUDA array passes here (allocation, run, free): once made, a device's
  // backend is one atomic load away.
  static std::atomic<CudaBackend*> backends[kMaxDevices] = {};
  static std::once_flag once[kMaxDevices];
  if (index >= 0 && index < kMaxDevices) {
    if (CudaBackend* b = backends[index].load(std::memory_order_acquire)) return *b;
  }
  context(index);  // validates the index, initializes the device
  std::call_once(once[index],
                 [&] { backends[index].store(new CudaBackend(index), std::memory_order_release); });
  return *backends[index].load(std::memory_order_acquire);
}

void register_cuda_backend() { register_backend(DeviceType::CUDA, cuda_backend); }

void copy_to_host_async(const Array& src, void* dst) {
  if (!src.device().is_cuda()) throw ValueError("copy_to_host_async needs a CUDA array");
  const Array c = src.is_contiguous() ? src : accel::copy(src);
  c.eval();
  const char* p =
      static_cast<const char*>(c.storage()->data()) + c.offset() * int64_t(itemsize(c.dtype()));
  copy_device_to_host_async(context(c.device().index), p, dst, c.nbytes());
}

void launch_faulting_kernel(int device) {
  DeviceContext& c = context(device);
  c.make_current();
  static const char* code =
      "extern \"C\" __global__ void accel_fault_test(int* p) { p[threadIdx.x] = 1; }\n";
  const CompiledImage img =
      compile_program(code, c.props.major * 10 + c.props.minor, "accel_fault_test");
  const Driver& d = drv();
  api::CUmodule mod = nullptr;
  check(d.cuModuleLoadData(&mod, img.data.c_str()), "cuModuleLoadData", device);
  static LoadedKernel k;
  k.name = "accel_fault_test";
  api::CUfunction fn = nullptr;
  check(d.cuModuleGetFunction(&fn, mod, "accel_fault_test"), "cuModuleGetFunction", device);
  k.fn[0] = fn;
  int* null = nullptr;
  const unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
  launch_kernel(c, k, grid, block, &null);
}

}  // namespace accel::cuda
