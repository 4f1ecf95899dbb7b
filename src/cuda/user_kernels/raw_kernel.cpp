// Users' modules loaded per device, their kernels' attributes and parameters, and checked
// launches. Per launch: the limits (cached per device and per kernel) are compared with the
// configuration, the argument sizes with the driver's parameter list, and cuLaunchKernel is
// called with pointers to the caller's argument bytes; nothing is allocated.
#include <array>
#include <future>
#include <map>
#include <mutex>
#include <string_view>
#include <unordered_set>

#include "accel/cuda.hpp"
#include "accel/interop.hpp"
#include "accel/raw_kernel.hpp"
#include "src/cuda/driver/context.hpp"
#include "src/cuda/driver/wait.hpp"
#include "src/cuda/graphs.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/cuda/user_kernels/image_params.hpp"
#include "src/user_kernels/arg_pointers.hpp"

namespace accel::cuda {

namespace {

// Launch limits of a device, read once.
using DeviceLimits = LaunchLimits;

const DeviceLimits& limits(int device) {
  static std::array<DeviceLimits, kMaxDevices>* all = new std::array<DeviceLimits, kMaxDevices>();
  static std::array<std::once_flag, kMaxDevices>* once =
      new std::array<std::once_flag, kMaxDevices>();
  DeviceContext& c = context(device);
  std::call_once((*once)[size_t(device)], [&] {
    const Driver& d = drv();
    DeviceLimits& l = (*all)[size_t(device)];
    for (int i = 0; i < 3; ++i) {
      check(
          d.cuDeviceGetAttribute(&l.block[i], api::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i, c.dev),
          "cuDeviceGetAttribute", device);
      check(d.cuDeviceGetAttribute(&l.grid[i], api::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i, c.dev),
            "cuDeviceGetAttribute", device);
    }
    check(d.cuDeviceGetAttribute(&l.shared_optin,
                                 api::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, c.dev),
          "cuDeviceGetAttribute", device);
  });
  return (*all)[size_t(device)];
}

// Names of launched kernels live forever: the device context keeps a plain pointer to the
// last one for fault reports, which may come after the kernel object is gone.
const char* intern(const std::string& s) {
  static std::mutex mu;
  static std::unordered_set<std::string>* names = new std::unordered_set<std::string>();
  std::lock_guard<std::mutex> lock(mu);
  return names->insert(s).first->c_str();
}

// A module loaded into one device's context; unloaded when the last kernel of it is dropped.
struct LoadedModule {
  int device = 0;
  api::CUcontext ctx = nullptr;
  api::CUmodule mod = nullptr;
  ~LoadedModule() {
    // Unloaded in its own context, restoring the thread's; nothing is done once the driver
    // is shutting down (the calls fail and the process is exiting).
    const Driver* d = driver();
    api::CUcontext cur = nullptr;
    if (!d || !mod || d->cuCtxGetCurrent(&cur) != api::CUDA_SUCCESS) return;
    if (cur != ctx && d->cuCtxSetCurrent(ctx) != api::CUDA_SUCCESS) return;
    d->cuModuleUnload(mod);
    if (cur != ctx) d->cuCtxSetCurrent(cur);
  }
};

const char* const kDim = "xyz";

// The compute capability of a device, from the driver, without creating its context.
int device_cc(int device) {
  if (device < 0 || device >= device_count()) context(device);  // throws the usual error
  const Driver& d = drv();
  api::CUdevice dev = 0;
  int major = 0, minor = 0;
  check(d.cuDeviceGet(&dev, device), "cuDeviceGet", device);
  check(d.cuDeviceGetAttribute(&major, api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
        "cuDeviceGetAttribute", device);
  check(d.cuDeviceGetAttribute(&minor, api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
        "cuDeviceGetAttribute", device);
  return major * 10 + minor;
}

// Asks the driver until it fails: the one way to learn the parameter count from drivers before
// CUDA 13.2 where the image cannot tell it (a fatbinary). The failed call is the end marker.
std::vector<ParamInfo> probe_params(const Driver& d, api::CUfunction fn) {
  std::vector<ParamInfo> params;
  for (size_t i = 0;; ++i) {
    ParamInfo p;
    if (d.cuFuncGetParamInfo(fn, i, &p.offset, &p.size) != api::CUDA_SUCCESS) return params;
    params.push_back(p);
  }
}

// The kernel's parameters as the driver lays them out, or nullopt where the driver cannot say
// (before CUDA 12.4). The count comes from the driver (13.2+) or the image (image_params.hpp),
// so that no query goes past the last parameter: a failed call is noise in a user's
// compute-sanitizer output. What the image says is checked against the driver's answers.
std::optional<std::vector<ParamInfo>> driver_params(const Driver& d, api::CUfunction fn,
                                                    std::string_view image,
                                                    const std::string& name) {
  if (!d.cuFuncGetParamInfo) return std::nullopt;
  std::optional<std::vector<ImageParam>> from_image;
  size_t count = 0;
  if (d.cuFuncGetParamCount) {
    if (d.cuFuncGetParamCount(fn, &count) != api::CUDA_SUCCESS) return probe_params(d, fn);
  } else if ((from_image = image_params(image, name))) {
    count = from_image->size();
  } else {
    return probe_params(d, fn);
  }
  std::vector<ParamInfo> params(count);
  for (size_t i = 0; i < count; ++i) {
    ParamInfo& p = params[i];
    if (d.cuFuncGetParamInfo(fn, i, &p.offset, &p.size) != api::CUDA_SUCCESS) {
      params.resize(i);  // fewer than the image says: the driver is believed
      return params;
    }
    const ImageParam* q = from_image ? &(*from_image)[i] : nullptr;
    if (q && q->size != 0 && (q->offset != p.offset || q->size != p.size)) {
      return probe_params(d, fn);  // the image was misread: ask as before
    }
  }
  return params;
}

}  // namespace

struct RawFunction::Impl {
  std::shared_ptr<LoadedModule> module;
  api::CUfunction fn = nullptr;
  int device = 0;
  // The device's context and limits, looked up once (a launch needs both).
  DeviceContext* ctx = nullptr;
  const DeviceLimits* limits = nullptr;
  std::string name;
  const char* label = nullptr;  // "add (RawKernel)": what fault reports name
  FunctionAttributes attrs;
  std::optional<std::vector<ParamInfo>> params;
  std::vector<std::string> param_names;
  std::mutex mutex;  // guards raising max_dynamic_shared_size_bytes
};

struct RawModule::Impl {
  ProgramSpec spec;
  std::mutex mutex;
  std::map<int, std::unique_ptr<ProgramImage>> images;  // by compute capability
  std::array<std::shared_ptr<LoadedModule>, kMaxDevices> loaded;
  std::map<std::pair<int, std::string>, std::shared_ptr<RawFunction::Impl>> functions;

  const ProgramImage& image_locked(int cc) {
    auto it = images.find(cc);
    if (it != images.end()) return *it->second;
    std::unique_ptr<ProgramImage> img;
    if (!spec.image.empty()) {
      img = std::make_unique<ProgramImage>();
      img->image = spec.image;  // loaded as given; the driver checks the architecture
      if (img->image.back() != '\0') img->image.push_back('\0');  // PTX must end with NUL
    } else {
      img = std::make_unique<ProgramImage>(compile_user_program(spec, cc));
    }
    return *images.emplace(cc, std::move(img)).first->second;
  }

  std::shared_ptr<LoadedModule> load_locked(int device) {
    if (loaded[size_t(device)]) return loaded[size_t(device)];
    const int cc = device_cc(device);
    const ProgramImage* image = nullptr;
    if (images.count(cc)) {
      image = &image_locked(cc);
    } else {
      // A new process spends most of its first launch creating the context and compiling:
      // do both at once (the context on another thread; the architecture needs no context).
      auto ctx = std::async(std::launch::async, [device] { context(device); });
      try {
        image = &image_locked(cc);
      } catch (...) {
        ctx.wait();
        throw;
      }
      ctx.get();
    }
    const ProgramImage& img = *image;
    DeviceContext& c = context(device);
    c.make_current();
    auto m = std::make_shared<LoadedModule>();
    m->device = device;
    m->ctx = c.ctx;
    check(drv().cuModuleLoadData(&m->mod, img.image.c_str()), "cuModuleLoadData", device);
    loaded[size_t(device)] = m;
    return m;
  }

  std::string mangled_locked(const std::string& name, int cc) {
    for (const auto& [expr, low] : image_locked(cc).lowered) {
      if (expr == name) return low;
    }
    return name;
  }
};

RawModule::RawModule(ProgramSpec spec) : impl_(std::make_shared<Impl>()) {
  impl_->spec = std::move(spec);
}

const ProgramSpec& RawModule::spec() const { return impl_->spec; }

const ProgramImage& RawModule::compile(int cc) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->image_locked(cc > 0 ? cc : default_compute_capability());
}

std::string RawModule::lowered_name(const std::string& expression) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  for (const auto& [expr, low] : impl_->image_locked(default_compute_capability()).lowered) {
    if (expr == expression) return low;
  }
  throw ValueError("'" + expression +
                   "' is not one of the module's name_expressions; give it when creating the "
                   "module");
}

RawFunction RawModule::function(const std::string& name, int device) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto key = std::make_pair(device, name);
  if (auto it = impl_->functions.find(key); it != impl_->functions.end()) {
    return RawFunction(it->second);
  }
  std::shared_ptr<LoadedModule> m = impl_->load_locked(device);
  DeviceContext& c = context(device);
  const std::string mangled = impl_->mangled_locked(name, c.props.major * 10 + c.props.minor);
  const Driver& d = drv();
  auto f = std::make_shared<RawFunction::Impl>();
  f->module = m;
  f->device = device;
  f->ctx = &c;
  f->limits = &limits(device);
  f->name = name;
  f->label = intern(name == impl_->spec.name ? name + " (user kernel)"
                                             : name + " (user kernel in " + impl_->spec.name + ")");
  c.make_current();
  const api::CUresult r = d.cuModuleGetFunction(&f->fn, m->mod, mangled.c_str());
  if (r == api::CUDA_ERROR_NOT_FOUND) {
    throw ValueError("the module has no kernel named '" + name +
                     "' (a C++ kernel needs extern \"C\", or its name among name_expressions)");
  }
  check(r, "cuModuleGetFunction", device);
  FunctionAttributes& a = f->attrs;
  const std::pair<int*, int> attrs[] = {
      {&a.max_threads_per_block, api::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {&a.shared_size_bytes, api::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
      {&a.const_size_bytes, api::CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES},
      {&a.local_size_bytes, api::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
      {&a.num_regs, api::CU_FUNC_ATTRIBUTE_NUM_REGS},
      {&a.ptx_version, api::CU_FUNC_ATTRIBUTE_PTX_VERSION},
      {&a.binary_version, api::CU_FUNC_ATTRIBUTE_BINARY_VERSION},
      {&a.max_dynamic_shared_size_bytes, api::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES},
  };
  for (const auto& [dst, attr] : attrs) {
    check(d.cuFuncGetAttribute(dst, attr, f->fn), "cuFuncGetAttribute", device);
  }
  const auto image = impl_->images.find(c.props.major * 10 + c.props.minor);
  f->params = driver_params(
      d, f->fn, image == impl_->images.end() ? std::string_view() : image->second->image, mangled);
  impl_->functions.emplace(key, f);
  return RawFunction(f);
}

std::pair<uintptr_t, size_t> RawModule::global(const std::string& name, int device) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::shared_ptr<LoadedModule> m = impl_->load_locked(device);
  DeviceContext& c = context(device);
  const std::string mangled = impl_->mangled_locked(name, c.props.major * 10 + c.props.minor);
  c.make_current();
  api::CUdeviceptr ptr = 0;
  size_t bytes = 0;
  const api::CUresult r = drv().cuModuleGetGlobal(&ptr, &bytes, m->mod, mangled.c_str());
  if (r == api::CUDA_ERROR_NOT_FOUND) {
    throw ValueError("the module has no __device__ or __constant__ variable named '" + name + "'");
  }
  check(r, "cuModuleGetGlobal", device);
  return {uintptr_t(ptr), bytes};
}

const std::string& RawFunction::name() const { return impl_->name; }
int RawFunction::device() const { return impl_->device; }
const FunctionAttributes& RawFunction::attributes() const { return impl_->attrs; }
const std::optional<std::vector<ParamInfo>>& RawFunction::params() const { return impl_->params; }
void RawFunction::set_param_names(std::vector<std::string> names) {
  impl_->param_names = std::move(names);
}
const std::vector<std::string>& RawFunction::param_names() const { return impl_->param_names; }
void* RawFunction::handle() const { return impl_->fn; }

std::string RawFunction::describe_param(size_t i) const {
  return cuda::describe_param(impl_->params, impl_->param_names, i);
}

void check_launch(int device, const FunctionAttributes& attrs, const unsigned grid[3],
                  const unsigned block[3], size_t shared_mem) {
  check_launch_config(limits(device), device, attrs, grid, block, shared_mem);
}

void RawFunction::launch(const unsigned grid[3], const unsigned block[3], size_t shared_mem,
                         uintptr_t stream, const Arg* args, size_t nargs) const {
  Impl& f = *impl_;
  check_launch_config(*f.limits, f.device, f.attrs, grid, block, shared_mem);
  if (f.params) check_arguments(f.name, *f.params, f.param_names, args, nargs);
  DeviceContext& c = *f.ctx;
  c.make_current();
  const Driver& d = drv();
  if (shared_mem > size_t(f.attrs.max_dynamic_shared_size_bytes)) {
    // Above the default 48 KB a kernel must opt in; check_launch bounded it by the device.
    std::lock_guard<std::mutex> lock(f.mutex);
    check(d.cuFuncSetAttribute(f.fn, api::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               int(shared_mem)),
          "cuFuncSetAttribute", f.device);
    f.attrs.max_dynamic_shared_size_bytes = int(shared_mem);
  }
  ArgPointers ptrs(args, nargs);
  stop_recording();  // a users' kernel is never in a replayed graph (graphs.hpp)
  const api::CUstream s = stream ? reinterpret_cast<api::CUstream>(stream) : c.stream();
  c.last_kernel.store(f.label);
  check(d.cuLaunchKernel(f.fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                         unsigned(shared_mem), s, nargs ? ptrs.data() : nullptr, nullptr),
        "cuLaunchKernel", f.device);
}

namespace {

api::CUstream stream_for(uintptr_t stream, int device) {
  return stream ? reinterpret_cast<api::CUstream>(stream) : context(device).stream();
}

// A synchronous copy waits interruptibly (Ctrl-C); what it queued may finish in the background.
void finish(api::CUstream s, bool sync, int device) {
  if (sync) wait_stream(context(device), s);
}

}  // namespace

void memcpy_htod(uintptr_t dst, const void* src, size_t nbytes, uintptr_t stream, bool sync) {
  if (nbytes == 0) return;
  const int device = pointer_device(dst);
  context(device).make_current();
  const api::CUstream s = stream_for(stream, device);
  check(drv().cuMemcpyHtoDAsync(api::CUdeviceptr(dst), src, nbytes, s), "cuMemcpyHtoDAsync",
        device);
  finish(s, sync, device);
}

void memcpy_dtoh(void* dst, uintptr_t src, size_t nbytes, uintptr_t stream, bool sync) {
  if (nbytes == 0) return;
  const int device = pointer_device(src);
  context(device).make_current();
  const api::CUstream s = stream_for(stream, device);
  // The queued work first, interruptibly: a copy into the caller's memory must not be left
  // running when Ctrl-C stops the wait, and into pageable memory the copy waits for it anyway.
  if (sync) wait_stream(context(device), s);
  check(drv().cuMemcpyDtoHAsync(dst, api::CUdeviceptr(src), nbytes, s), "cuMemcpyDtoHAsync",
        device);
  if (sync) check_sync(drv().cuStreamSynchronize(s), "cuStreamSynchronize", device);
}

void memcpy_dtod(uintptr_t dst, uintptr_t src, size_t nbytes, uintptr_t stream, bool sync) {
  if (nbytes == 0) return;
  const int device = pointer_device(dst);
  context(device).make_current();
  const api::CUstream s = stream_for(stream, device);
  check(drv().cuMemcpyDtoDAsync(api::CUdeviceptr(dst), api::CUdeviceptr(src), nbytes, s),
        "cuMemcpyDtoDAsync", device);
  finish(s, sync, device);
}

std::pair<size_t, size_t> mem_get_info(int device) {
  context(device).make_current();
  size_t free = 0, total = 0;
  check(drv().cuMemGetInfo(&free, &total), "cuMemGetInfo", device);
  return {free, total};
}

}  // namespace accel::cuda
