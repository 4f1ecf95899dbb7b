#include "src/cuda/jit/kernel_cache.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "src/cuda/jit/compiler.hpp"
#include "src/cuda/jit/kernel_cache_stats.hpp"
#include "src/cuda/jit/kernel_upgrades.hpp"
#include "src/util/disk_cache.hpp"
#include "src/util/hash.hpp"

namespace accel::cuda {

std::string kernel_name(const KernelPlan& plan) {
  const uint64_t h = util::fnv1a(plan.key.data(), plan.key.size());
  const char* kind = plan.strategy == Strategy::Elementwise ? "ew"
                     : plan.strategy == Strategy::Inner     ? "red_inner"
                     : plan.strategy == Strategy::Outer     ? "red_outer"
                                                            : "rows";
  std::string ops;
  for (const Step& st : plan.group->steps) {
    if (ops.size() > 40) break;
    ops += "_";
    ops += op_name(st.node->op);
  }
  return std::string("accel_") + kind + ops + "_" + util::hex64(h);
}

namespace {

struct DeviceKernels {
  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<LoadedKernel>> map;
};

DeviceKernels& kernels_of(int device) {
  static DeviceKernels* all = new DeviceKernels[kMaxDevices];
  return all[device];
}

}  // namespace

thread_local const char* t_last_lookup = "";

const char* last_kernel_lookup() { return t_last_lookup; }

namespace {

// Loads `img` on the device and finds its entry points (at most two).
void load_image(DeviceContext& c, const CompiledImage& img, const std::vector<std::string>& entries,
                api::CUfunction (&fn)[2]) {
  c.make_current();
  const Driver& d = drv();
  api::CUmodule mod = nullptr;
  check(d.cuModuleLoadData(&mod, img.data.c_str()), "cuModuleLoadData", c.index);
  for (size_t i = 0; i < entries.size() && i < 2; ++i) {
    check(d.cuModuleGetFunction(&fn[i], mod, entries[i].c_str()), "cuModuleGetFunction", c.index);
  }
}

// Loads (from disk or by compiling) and registers under `key` the program `src`; dk.mutex held.
// A program that `may_upgrade`, when its optimized build is not on disk, is loaded from its
// quick build (from disk, else compiled and stored), and its optimized build replaces it when
// the compile worker sends it (kernel_upgrades.hpp), having stored it on disk. The quick build
// is stored too, so that a process that starts before the worker is done still finds a kernel.
const LoadedKernel& load_kernel(DeviceContext& c, DeviceKernels& dk, const std::string& key,
                                const std::string& name, const KernelSource& src,
                                bool may_upgrade) {
  auto k = std::make_unique<LoadedKernel>();
  k->name = name;
  const int cc = c.props.major * 10 + c.props.minor;
  dump_source(k->name, program_prelude() + src.code);
  std::string key_text = disk_key(src.code, cc);
  std::optional<CompiledImage> img = util::disk_cache().load(key_text);
  const bool upgrade = !img && may_upgrade && quick_compile_supported(cc) && upgrades_enabled();
  const std::string quick_key = upgrade ? disk_key(src.code, cc, CompileTier::Quick) : "";
  if (upgrade) img = util::disk_cache().load(quick_key);
  if (img) {
    t_last_lookup = "disk hit";
    record_disk_hit();
  } else {
    t_last_lookup = "compiled";
    img = compile_program(src.code, cc, k->name,
                          upgrade ? CompileTier::Quick : CompileTier::Optimized);
    util::disk_cache().store(upgrade ? quick_key : key_text, *img);
  }
  api::CUfunction fn[2] = {nullptr, nullptr};
  load_image(c, *img, src.entries, fn);
  k->fn[0] = fn[0];
  k->fn[1] = fn[1];
  check(
      drv().cuOccupancyMaxActiveBlocksPerMultiprocessor(&k->blocks_per_sm, fn[0], kBlockThreads, 0),
      "cuOccupancyMaxActiveBlocksPerMultiprocessor", c.index);
  LoadedKernel* loaded = k.get();
  dk.map.emplace(key, std::move(k));
  if (upgrade) {
    queue_upgrade({name, src.code, std::move(key_text), cc,
                   [&c, loaded, entries = src.entries](const CompiledImage& optimized) {
                     // The quick build's module stays loaded: a launch on another thread may
                     // hold one of its functions.
                     api::CUfunction f[2] = {nullptr, nullptr};
                     load_image(c, optimized, entries, f);
                     loaded->fn[1] = f[1];
                     loaded->fn[0] = f[0];
                   }});
  }
  return *loaded;
}

const LoadedKernel* find_kernel(DeviceKernels& dk, const std::string& key) {
  auto it = dk.map.find(key);
  if (it == dk.map.end()) return nullptr;
  t_last_lookup = "memory hit";
  record_memory_hit();
  return it->second.get();
}

}  // namespace

const LoadedKernel& get_kernel(DeviceContext& c, const KernelPlan& plan) {
  // The kernel this thread found last, checked first: a loop of one operation finds it again
  // without a lock or a hash. Entries are never removed from the map, so the pointer stays valid.
  thread_local struct {
    int device = -1;
    std::string key;
    const LoadedKernel* kernel = nullptr;
  } last;
  if (last.kernel && last.device == c.index && last.key == plan.key) {
    t_last_lookup = "memory hit";
    record_memory_hit();
    return *last.kernel;
  }
  DeviceKernels& dk = kernels_of(c.index);
  std::lock_guard<std::mutex> lock(dk.mutex);
  const LoadedKernel* k = find_kernel(dk, plan.key);
  if (!k) {
    const std::string name = kernel_name(plan);
    k = &load_kernel(c, dk, plan.key, name, generate(plan, name),
                     plan.strategy == Strategy::Elementwise);
  }
  last.device = c.index;
  last.key = plan.key;
  last.kernel = k;
  return *k;
}

const LoadedKernel& get_source_kernel(DeviceContext& c, const std::string& name,
                                      const std::function<KernelSource()>& make) {
  DeviceKernels& dk = kernels_of(c.index);
  std::lock_guard<std::mutex> lock(dk.mutex);
  const std::string key = "source:" + name;
  if (const LoadedKernel* k = find_kernel(dk, key)) return *k;
  return load_kernel(c, dk, key, name, make(), false);
}

const LoadedKernel& get_named_kernel(DeviceContext& c, const std::string& name,
                                     const std::string& code) {
  return get_source_kernel(c, name, [&] { return KernelSource{code, {name}}; });
}

size_t loaded_kernel_count() {
  size_t n = 0;
  for (int d = 0; d < kMaxDevices; ++d) {
    DeviceKernels& dk = kernels_of(d);
    std::lock_guard<std::mutex> lock(dk.mutex);
    n += dk.map.size();
  }
  return n;
}

}  // namespace accel::cuda
