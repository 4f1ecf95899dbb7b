#include "src/cuda/driver/context.hpp"

#include <cstdlib>
#include <limits>

#include "accel/errors.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/transfer.hpp"
#include "src/cuda/driver/wait.hpp"
#include "src/cuda/libraries/cub_library.hpp"
#include "src/cuda/libraries/cufft.hpp"
#include "src/cuda/libraries/cusolver.hpp"

namespace accel::cuda {

const Driver& drv() {
  if (forked_after_init()) throw Error(kForkedMessage);
  const Driver* d = driver();
  if (!d) throw Error("CUDA is not available: " + driver_status().error);
  return *d;
}

std::string error_name(api::CUresult r) {
  const Driver* d = driver();
  const char* name = nullptr;
  const char* text = nullptr;
  std::string out = "CUDA error " + std::to_string(r);
  if (d && d->cuGetErrorName(r, &name) == api::CUDA_SUCCESS && name) out = name;
  if (d && d->cuGetErrorString(r, &text) == api::CUDA_SUCCESS && text)
    out += std::string(" (") + text + ")";
  return out;
}

namespace {

// Errors after which the context is unusable: a kernel faulted.
bool is_sticky(api::CUresult r) {
  return r == 700 || r == 702 || (r >= 714 && r <= 719) || r == 710;
}

DeviceContext* g_contexts[kMaxDevices] = {};
std::once_flag g_once[kMaxDevices];

int attribute(const Driver& d, int attr, api::CUdevice dev, int index) {
  int v = 0;
  check(d.cuDeviceGetAttribute(&v, attr, dev), "cuDeviceGetAttribute", index);
  return v;
}

void init_context(DeviceContext& c, int index) {
  const Driver& d = drv();
  c.index = index;
  check(d.cuDeviceGet(&c.dev, index), "cuDeviceGet", index);
  check(d.cuDevicePrimaryCtxRetain(&c.ctx, c.dev), "cuDevicePrimaryCtxRetain", index);
  check(d.cuCtxSetCurrent(c.ctx), "cuCtxSetCurrent", index);
  DeviceProperties& p = c.props;
  char name[256] = {};
  check(d.cuDeviceGetName(name, sizeof(name) - 1, c.dev), "cuDeviceGetName", index);
  p.name = name;
  check(d.cuDeviceTotalMem(&p.total_memory, c.dev), "cuDeviceTotalMem", index);
  p.major = attribute(d, api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c.dev, index);
  p.minor = attribute(d, api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c.dev, index);
  p.multiprocessor_count =
      attribute(d, api::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, c.dev, index);
  p.l2_cache_size = attribute(d, api::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, c.dev, index);
  p.max_threads_per_multiprocessor =
      attribute(d, api::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, c.dev, index);
  p.max_threads_per_block =
      attribute(d, api::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, c.dev, index);
  p.max_shared_memory_per_block =
      attribute(d, api::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, c.dev, index);
  p.warp_size = attribute(d, api::CU_DEVICE_ATTRIBUTE_WARP_SIZE, c.dev, index);
  p.clock_rate_khz = attribute(d, api::CU_DEVICE_ATTRIBUTE_CLOCK_RATE, c.dev, index);
  p.memory_clock_rate_khz = attribute(d, api::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, c.dev, index);
  p.memory_bus_width = attribute(d, api::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, c.dev, index);
  p.pci_bus_id = attribute(d, api::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, c.dev, index);
  if (!attribute(d, api::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, c.dev, index)) {
    throw Error("cuda:" + std::to_string(index) + " (" + p.name +
                ") does not support stream-ordered memory pools, which accelpy needs");
  }
  // Non-blocking: the default stream never waits for the legacy NULL stream other libraries
  // may use, so their synchronization does not serialize ours.
  check(d.cuStreamCreate(&c.default_stream, api::CU_STREAM_NON_BLOCKING), "cuStreamCreate", index);
  init_pool(c);
  // Pinned host memory now, not at a first wait or read behind a running kernel (wait.hpp).
  prepare_waits(c);
  prepare_transfers(c);
}

}  // namespace

DeviceContext& context(int device) {
  if (forked_after_init()) throw Error(kForkedMessage);
  if (device < 0 || device >= device_count()) {
    throw ValueError("device 'cuda:" + std::to_string(device) + "' does not exist: " +
                     std::to_string(device_count()) + " CUDA device(s) found" +
                     (is_available() ? "" : " (" + unavailable_reason() + ")"));
  }
  std::call_once(g_once[device], [&] {
    auto* c = new DeviceContext;  // lives until exit: arrays may be freed during teardown
    init_context(*c, device);
    g_contexts[device] = c;
  });
  DeviceContext* c = g_contexts[device];
  if (!c) throw Error("cuda:" + std::to_string(device) + " failed to initialize earlier");
  return *c;
}

void DeviceContext::make_current() const {
  // Other libraries (PyTorch, CuPy) may switch contexts on this thread, so ask the driver
  // rather than caching.
  const Driver& d = drv();
  api::CUcontext cur = nullptr;
  if (d.cuCtxGetCurrent(&cur) != api::CUDA_SUCCESS || cur != ctx) {
    check(d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent", index);
  }
}

bool DeviceContext::try_make_current() const noexcept {
  const Driver* d = driver();
  api::CUcontext cur = nullptr;
  if (!d || d->cuCtxGetCurrent(&cur) != api::CUDA_SUCCESS) return false;
  return cur == ctx || d->cuCtxSetCurrent(ctx) == api::CUDA_SUCCESS;
}

[[noreturn]] void throw_cuda_error(api::CUresult r, const char* call, int device) {
  const std::string where = device >= 0 ? " on cuda:" + std::to_string(device) : "";
  std::string msg = error_name(r) + " in " + call + where;
  if (r == api::CUDA_ERROR_OUT_OF_MEMORY) throw OutOfMemoryError("out of memory: " + msg);
  if (is_sticky(r)) {
    const char* last = nullptr;
    if (device >= 0 && device < kMaxDevices && g_contexts[device]) {
      last = g_contexts[device]->last_kernel.load();
    }
    msg += std::string("; the last kernel launched there was '") + (last ? last : "(none)") +
           "'. A kernel fault leaves the CUDA context unusable: restart the process. "
           "CUDA_LAUNCH_BLOCKING=1 reports a fault at the launch that caused it.";
  }
  throw Error(msg);
}

void check_sync(api::CUresult r, const char* call, int device) { check(r, call, device); }

bool is_available() { return driver() != nullptr; }

int device_count() {
  const Driver* d = driver();
  return d ? d->device_count : 0;
}

std::string unavailable_reason() { return is_available() ? std::string() : driver_status().error; }

DeviceProperties device_properties(int device) { return context(device).props; }

std::vector<LibraryInfo> libraries() {
  std::vector<LibraryInfo> out;
  auto add = [&](const char* name, const LoadStatus& s) {
    out.push_back({name, s.ok, s.path, s.version, s.error, s.tried});
  };
  add("driver", driver_status());
  add("nvrtc", nvrtc_status());
  add("cublas", cublas_status());
  add("cublasLt", cublaslt_status());
  add("cufft", cufft_status());
  add("cusolver", cusolver_status());
  add("cub", cub_status());  // libaccel_cub.so: sort, scan, select (built with nvcc)
  return out;
}

void add_library_search_dirs(const std::vector<std::string>& dirs) { add_search_dirs(dirs); }

void synchronize(int device) {
  DeviceContext& c = context(device);
  // accelpy's streams first, interruptibly; then whatever else the context runs (other
  // libraries' streams), which the driver alone can wait for.
  wait_stream(c, c.default_stream);
  if (const api::CUstream s = c.stream(); s != c.default_stream) wait_stream(c, s);
  check_sync(drv().cuCtxSynchronize(), "cuCtxSynchronize", device);
}

}  // namespace accel::cuda
