// CPU modules: the built shared object loaded from memory (memfd), its kernels' entry points
// and parameter sizes, and launches checked as on a GPU.
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <mutex>

#include "accel/cpu_user_kernels.hpp"
#include "src/cpu/user_kernels/compile.hpp"
#include "src/cpu/user_kernels/kernel_abi.hpp"
#include "src/cpu/user_kernels/launcher.hpp"
#include "src/user_kernels/arg_pointers.hpp"

namespace accel::cpu {

using user_kernels::KernelInfo;

namespace {

// The CPU device's limits: those of a current GPU, so that a configuration valid here is valid
// there and the same mistakes raise the same errors.
const LaunchLimits& cpu_limits() {
  static const LaunchLimits l = {{1024, 1024, 64}, {2147483647, 65535, 65535}, 227 * 1024};
  return l;
}

// The memfd stays open while the module is loaded: dlopen finds loaded objects by path first,
// and a reused descriptor number would give back another module.
void* load_shared_object(const std::string& bytes, const std::string& name, int& fd_out) {
  const int fd = memfd_create(("accelpy-" + name).c_str(), MFD_CLOEXEC);
  if (fd < 0) throw Error("cannot load a kernel compiled for the CPU: memfd_create failed");
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    if (w <= 0) {
      close(fd);
      throw Error("cannot load a kernel compiled for the CPU: writing it failed");
    }
    done += size_t(w);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) close(fd);
  fd_out = h ? fd : -1;
  if (!h) {
    const char* e = dlerror();
    throw Error(std::string("cannot load a kernel compiled for the CPU: ") + (e ? e : "dlopen"));
  }
  return h;
}

std::string module_key(const ProgramSpec& s) {
  std::string k = s.name + '\0' + s.cache_dir + '\0' + (s.with_prelude ? "1" : "0") +
                  (user_kernels::checked_build(s) ? "c" : "") + '\0';
  for (const std::string& o : s.options) k += o + '\0';
  k += '\1';
  for (const std::string& e : s.name_expressions) k += e + '\0';
  k += '\1';
  return k + s.code;
}

}  // namespace

struct UserModule::Compiled {
  user_kernels::BuiltProgram built;
};

UserModule::UserModule(const ProgramSpec& spec, Compiled compiled)
    : kernel_names_(std::move(compiled.built.kernel_names)),
      // Kernels run by regions wait at barriers without fibers.
      barriers_(compiled.built.scanned.barriers && !compiled.built.scanned.regions),
      checked_(compiled.built.checked),
      from_disk_(compiled.built.from_disk),
      log_(std::move(compiled.built.log)) {
  handle_ = load_shared_object(compiled.built.shared_object, spec.name, fd_);
  auto init = reinterpret_cast<user_kernels::InitEntry>(dlsym(handle_, "__accelpy_init"));
  if (!init) throw Error("a kernel compiled for the CPU lacks its entry points");
  init(&user_kernels::runtime());
}

UserModule::~UserModule() {
  if (handle_) dlclose(handle_);
  if (fd_ >= 0) close(fd_);
}

std::shared_ptr<const UserModule> UserModule::get(const ProgramSpec& spec) {
  static std::mutex mu;
  static auto* modules = new std::map<std::string, std::shared_ptr<const UserModule>>();
  const std::string key = module_key(spec);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = modules->find(key); it != modules->end()) return it->second;
  }
  auto m = std::make_shared<const UserModule>(spec, Compiled{user_kernels::build_program(spec)});
  std::lock_guard<std::mutex> lock(mu);
  return modules->emplace(key, std::move(m)).first->second;
}

UserKernel UserModule::function(const std::string& name) const {
  for (size_t i = 0; i < kernel_names_.size(); ++i) {
    if (kernel_names_[i] != name) continue;
    auto entry = reinterpret_cast<user_kernels::KernelEntry>(
        dlsym(handle_, ("__accelpy_kernel_" + std::to_string(i)).c_str()));
    if (!entry) break;
    return UserKernel(shared_from_this(), name, entry(), barriers_);
  }
  throw ValueError("the module has no kernel named '" + name +
                   "' (a C++ kernel needs extern \"C\", or its name among name_expressions)");
}

std::pair<uintptr_t, size_t> UserModule::global(const std::string& name) const {
  void* p = dlsym(handle_, name.c_str());
  if (!p) {
    throw ValueError("the module has no __device__ or __constant__ variable named '" + name + "'");
  }
  Dl_info info{};
  ElfW(Sym)* sym = nullptr;
  size_t size = 0;
  if (dladdr1(p, &info, reinterpret_cast<void**>(&sym), RTLD_DL_SYMENT) && sym) {
    size = size_t(sym->st_size);
  }
  return {reinterpret_cast<uintptr_t>(p), size};
}

UserKernel::UserKernel(std::shared_ptr<const UserModule> module, std::string name, const void* info,
                       bool barriers)
    : module_(std::move(module)), name_(std::move(name)), info_(info), barriers_(barriers) {
  const auto* k = static_cast<const KernelInfo*>(info_);
  if (k->abi != user_kernels::kAbiVersion) {
    throw Error("a kernel compiled for the CPU has ABI version " + std::to_string(k->abi) +
                "; this accelpy expects " + std::to_string(user_kernels::kAbiVersion));
  }
  std::vector<ParamInfo> ps;
  size_t offset = 0;
  for (unsigned i = 0; i < k->nparams; ++i) {
    const size_t size = k->param_sizes[i];
    const size_t align = size >= 8 ? 8 : (size >= 4 ? 4 : (size >= 2 ? 2 : 1));
    offset = (offset + align - 1) / align * align;
    ps.push_back(ParamInfo{offset, size});
    offset += size;
  }
  params_ = std::move(ps);
}

std::string UserKernel::describe_param(size_t i) const {
  return accel::describe_param(params_, param_names_, i);
}

void UserKernel::launch(const unsigned grid[3], const unsigned block[3], size_t shared_mem,
                        const KernelArg* args, size_t nargs) const {
  FunctionAttributes attrs;
  attrs.max_threads_per_block = 1024;
  check_launch_config(cpu_limits(), -1, attrs, grid, block, shared_mem);
  check_arguments(name_, *params_, param_names_, args, nargs);
  ArgPointers ptrs(args, nargs);
  // Where each pointer argument may reach, for the checked mode's bounds.
  std::vector<user_kernels::ArgBounds> bounds(nargs);
  for (size_t i = 0; i < nargs; ++i) {
    bounds[i] = {static_cast<const char*>(args[i].lo), static_cast<const char*>(args[i].hi)};
  }
  user_kernels::Launch l;
  l.info = static_cast<const KernelInfo*>(info_);
  l.fibers = barriers_;
  l.checked = module_->checked() || kernel_check_requested();
  l.bounds = bounds.data();
  l.param_names = &param_names_;
  for (int i = 0; i < 3; ++i) {
    l.grid[i] = grid[i];
    l.block[i] = block[i];
  }
  l.shared_mem = shared_mem;
  l.args = ptrs.data();
  l.name = name_.c_str();
  user_kernels::run_grid(l);
}

}  // namespace accel::cpu
