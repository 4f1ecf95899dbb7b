#include "src/cuda/jit/compiler.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <unordered_map>

#include "accel/errors.hpp"
#include "src/cuda/jit/embedded_headers.hpp"
#include "src/cuda/jit/kernel_upgrades.hpp"

namespace accel::cuda {

namespace {

constexpr char kMagic[8] = {'A', 'C', 'C', 'E', 'L', 'P', 'Y', 'K'};
constexpr uint32_t kFormat = 1;

struct Stats {
  std::mutex mutex;
  KernelCacheStats s;
  std::atomic<uint64_t> memory_hits{0};  // the dispatch path: no lock
};
Stats& stats() {
  static Stats* st = new Stats;
  return *st;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// mkdir -p; directories we create are private to the user (0700): cached code is executed.
void make_dirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      const std::string part = path.substr(0, i);
      if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return;
    }
  }
}

uint64_t headers_hash() {
  static const uint64_t h = [] {
    uint64_t v = 1469598103934665603ULL;
    for (int i = 0; i < kNumEmbeddedHeaders; ++i) {
      v = fnv1a(kEmbeddedHeaders[i].text, std::strlen(kEmbeddedHeaders[i].text), v);
    }
    return v;
  }();
  return h;
}

void dump_source(const std::string& name, const std::string& source) {
  const char* dir = std::getenv("ACCELPY_DUMP_KERNELS");
  if (!dir || !*dir) return;
  make_dirs(dir);
  std::ofstream f(std::string(dir) + "/" + name + ".cu", std::ios::binary);
  f << source;
}

}  // namespace

const DiskCache& disk_cache() {
  static DiskCache* dc = new DiskCache(default_cache_dir());
  return *dc;
}

uint64_t fnv1a(const void* data, size_t n, uint64_t seed) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint64_t h = seed;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

void record_compilation(double ms) {
  std::lock_guard<std::mutex> lock(stats().mutex);
  ++stats().s.compiled;
  stats().s.compile_ms += ms;
}

void record_disk_hit() {
  std::lock_guard<std::mutex> lock(stats().mutex);
  ++stats().s.disk_hits;
}

const std::string& program_prelude() {
  static const std::string prelude = R"(// accelpy generated kernel
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#include "scalar_ops.h"
#include "generators.h"
#include "random.h"
#include "reduce_ops.h"
template <class T, int N>
struct alignas(sizeof(T) * N) accel_vec {
  T v[N];
};
// Shuffles any trivially copyable accumulator, 32 bits at a time.
template <class A>
__device__ __forceinline__ A accel_shfl_down(A a, int off) {
  constexpr int W = (int(sizeof(A)) + 3) / 4;
  unsigned w[W];
  const unsigned char* src = reinterpret_cast<const unsigned char*>(&a);
  unsigned char* dst = reinterpret_cast<unsigned char*>(w);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) dst[i] = src[i];
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], off);
  A out;
  unsigned char* o = reinterpret_cast<unsigned char*>(&out);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) o[i] = dst[i];
  return out;
}
// Combines the accumulators of each aligned group of `tpo` threads (a power of two up to the
// block) into the group's first thread, in a fixed tree.
template <class Red>
__device__ __forceinline__ typename Red::Acc accel_group_reduce(typename Red::Acc a, int tpo,
                                                                typename Red::Acc* sm) {
  const int w = tpo < 32 ? tpo : 32;
  for (int off = w >> 1; off > 0; off >>= 1) a = Red::combine(a, accel_shfl_down(a, off));
  if (tpo > 32) {
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) sm[warp] = a;
    __syncthreads();
    if ((threadIdx.x & (tpo - 1)) == 0) {
      for (int k = 1; k < tpo / 32; ++k) a = Red::combine(a, sm[warp + k]);
    }
  }
  return a;
}
// A load through L2 only: partial results another block wrote during this kernel.
template <class T>
__device__ __forceinline__ T accel_load_cg(const T* p) {
  T v;
  if constexpr (sizeof(T) % 4 == 0) {
#pragma unroll
    for (int i = 0; i < int(sizeof(T) / 4); ++i) {
      reinterpret_cast<unsigned*>(&v)[i] = __ldcg(reinterpret_cast<const unsigned*>(p) + i);
    }
  } else {
#pragma unroll
    for (int i = 0; i < int(sizeof(T)); ++i) {
      reinterpret_cast<unsigned char*>(&v)[i] =
          __ldcg(reinterpret_cast<const unsigned char*>(p) + i);
    }
  }
  return v;
}
// Whether this block is the last of its grid column to get here, every thread having written
// its partial results before. The last block resets the column's count to zero for the next
// kernel on the stream (every other block of the column has counted by then).
__device__ __forceinline__ bool accel_last_block(unsigned* count) {
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    last = atomicAdd(count, 1u) == gridDim.y - 1;
    if (last) *count = 0;
  }
  __syncthreads();
  return last;
}
)";
  return prelude;
}

std::vector<std::string> compile_options(int cc, bool& cubin, CompileTier tier) {
  std::vector<std::string> opts = {"-std=c++17", "--fmad=false"};
  // --fmad=false: NumPy rounds a * b and then + c; a fused multiply-add would differ.
  const Nvrtc* nv = nvrtc();
  if (nv && (nv->major > 12 || (nv->major == 12 && nv->minor >= 8))) {
    // --minimal leaves out of NVRTC's built-in headers what generated code never uses
    // (textures, surfaces, device-runtime calls). --pch: the first program of the process
    // saves the parsed embedded headers (everything before the first declaration of the
    // prelude) as a precompiled header in a per-process directory NVRTC removes at exit, and
    // later programs load it instead of parsing the headers again. CPU time per new kernel on
    // the 2-core build machine: prelude + trivial kernel 55 -> 30 ms, float32 add 87 -> 61 ms.
    opts.push_back("--minimal");
    opts.push_back("--pch");
  }
  int arch = cc;
  cubin = true;
  if (nv && !nv->archs.empty()) {
    bool native = false;
    int best = 0;
    for (int a : nv->archs) {
      native = native || a == cc;
      if (a <= cc && a > best) best = a;
    }
    if (!native) {
      cubin = false;  // PTX for the newest architecture NVRTC knows; the driver finishes it
      arch = best ? best : nv->archs.front();
    }
  }
  opts.push_back((cubin ? "-arch=sm_" : "-arch=compute_") + std::to_string(arch));
  if (tier == CompileTier::Quick) opts.push_back("--Ofast-compile=min");
  return opts;
}

bool quick_compile_supported(int cc) {
  const Nvrtc* nv = nvrtc();
  bool cubin = true;
  compile_options(cc, cubin);
  return cubin && nv && (nv->major > 12 || (nv->major == 12 && nv->minor >= 8));
}

CompiledImage compile_program(const std::string& code, int cc, const std::string& name,
                              CompileTier tier) {
  const Nvrtc* nv = nvrtc();
  if (!nv)
    throw Error("cannot compile CUDA kernels: NVRTC is not available: " + nvrtc_status().error);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string source = program_prelude() + code;
  const NvrtcProgram prog(*nv, source, name + ".cu", true);
  bool cubin = true;
  const std::vector<std::string> opts = compile_options(cc, cubin, tier);
  std::vector<const char*> copts;
  for (const std::string& o : opts) copts.push_back(o.c_str());
  api::nvrtcResult r;
  {
    // One compilation at a time: the automatic precompiled header is process-wide state, and
    // compilations in one process slow each other down (kernel_upgrades.hpp).
    static std::mutex* compile_mutex = new std::mutex;
    std::lock_guard<std::mutex> lock(*compile_mutex);
    r = nv->nvrtcCompileProgram(prog.get(), int(copts.size()), copts.data());
  }
  if (r != api::NVRTC_SUCCESS) {
    dump_source(name, source);
    throw Error("NVRTC failed to compile kernel " + name + " (" + nv->nvrtcGetErrorString(r) +
                "):\n" + prog.log() + "\n(set ACCELPY_DUMP_KERNELS=dir to keep the sources)");
  }
  CompiledImage img;
  img.cubin = cubin;
  img.data = prog.image(cubin);
  record_compilation(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return img;
}

NvrtcProgram::NvrtcProgram(const Nvrtc& nv, const std::string& source, const std::string& file,
                           bool with_headers)
    : nv_(nv) {
  std::vector<const char*> hdr_text, hdr_name;
  for (int i = 0; with_headers && i < kNumEmbeddedHeaders; ++i) {
    // By the bare name the headers include each other with (#pragma once goes by name).
    hdr_text.push_back(kEmbeddedHeaders[i].text);
    hdr_name.push_back(kEmbeddedHeaders[i].name);
  }
  const api::nvrtcResult r = nv.nvrtcCreateProgram(
      &prog_, source.c_str(), file.c_str(), int(hdr_text.size()), hdr_text.data(), hdr_name.data());
  if (r != api::NVRTC_SUCCESS) {
    throw Error(std::string("nvrtcCreateProgram failed: ") + nv.nvrtcGetErrorString(r));
  }
}

NvrtcProgram::~NvrtcProgram() { nv_.nvrtcDestroyProgram(&prog_); }

std::string NvrtcProgram::log() const {
  size_t n = 0;
  std::string log;
  if (nv_.nvrtcGetProgramLogSize(prog_, &n) == api::NVRTC_SUCCESS && n > 1) {
    log.resize(n);
    nv_.nvrtcGetProgramLog(prog_, log.data());
    log.resize(n - 1);
  }
  return log;
}

std::string NvrtcProgram::image(bool cubin) const {
  size_t n = 0;
  std::string image;
  if (cubin) {
    if (nv_.nvrtcGetCUBINSize(prog_, &n) != api::NVRTC_SUCCESS)
      throw Error("nvrtcGetCUBINSize failed");
    image.resize(n);
    if (nv_.nvrtcGetCUBIN(prog_, image.data()) != api::NVRTC_SUCCESS)
      throw Error("nvrtcGetCUBIN failed");
  } else {
    if (nv_.nvrtcGetPTXSize(prog_, &n) != api::NVRTC_SUCCESS) throw Error("nvrtcGetPTXSize failed");
    image.resize(n);
    if (nv_.nvrtcGetPTX(prog_, image.data()) != api::NVRTC_SUCCESS)
      throw Error("nvrtcGetPTX failed");
  }
  return image;
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("ACCELPY_CACHE_DIR"); d) {
    const std::string v = d;
    if (v == "0" || v == "off" || v.empty()) return {};
    return v;
  }
  const char* home = std::getenv("HOME");
  if (!home || !*home) return {};
  return std::string(home) + "/.cache/accelpy";
}

std::string disk_key(const std::string& code, int cc, CompileTier tier) {
  const Nvrtc* nv = nvrtc();
  bool cubin = true;
  std::string k = "accelpy kernel cache v1\nnvrtc ";
  k += nv ? std::to_string(nv->major) + "." + std::to_string(nv->minor) : "?";
  k += "\noptions";
  for (const std::string& o : compile_options(cc, cubin, tier)) k += " " + o;
  k += "\nheaders " + hex64(headers_hash()) + "\n";
  k += code;
  return k;
}

std::string DiskCache::path_for(const std::string& key_text) const {
  const uint64_t a = fnv1a(key_text.data(), key_text.size());
  const uint64_t b = fnv1a(key_text.data(), key_text.size(), a ^ 0x9e3779b97f4a7c15ULL);
  return dir_ + "/kernels/" + hex64(a) + hex64(b) + ".bin";
}

std::optional<CompiledImage> DiskCache::load(const std::string& key_text) const {
  if (!enabled()) return std::nullopt;
  std::ifstream f(path_for(key_text), std::ios::binary);
  if (!f) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  struct Header {
    char magic[8];
    uint32_t format, cubin;
    uint64_t key_len, image_len, checksum;
  } h;
  if (bytes.size() < sizeof(h)) return std::nullopt;
  std::memcpy(&h, bytes.data(), sizeof(h));
  if (std::memcmp(h.magic, kMagic, 8) != 0 || h.format != kFormat || h.key_len != key_text.size() ||
      sizeof(h) + h.key_len + h.image_len != bytes.size()) {
    return std::nullopt;
  }
  const char* key = bytes.data() + sizeof(h);
  const char* image = key + h.key_len;
  if (std::memcmp(key, key_text.data(), key_text.size()) != 0) return std::nullopt;
  if (fnv1a(image, h.image_len, fnv1a(key, h.key_len)) != h.checksum) return std::nullopt;
  return CompiledImage{std::string(image, h.image_len), h.cubin != 0};
}

void DiskCache::store(const std::string& key_text, const CompiledImage& img) const {
  if (!enabled()) return;
  // Failures only cost a recompilation later; never fail the computation for them.
  make_dirs(dir_);
  make_dirs(dir_ + "/kernels");
  const std::string path = path_for(key_text);
  std::random_device rd;
  const std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + hex64(rd());
  struct {
    char magic[8];
    uint32_t format, cubin;
    uint64_t key_len, image_len, checksum;
  } h;
  std::memcpy(h.magic, kMagic, 8);
  h.format = kFormat;
  h.cubin = img.cubin ? 1 : 0;
  h.key_len = key_text.size();
  h.image_len = img.data.size();
  h.checksum = fnv1a(img.data.data(), img.data.size(), fnv1a(key_text.data(), key_text.size()));
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return;
  bool ok = true;
  auto put = [&](const void* p, size_t n) {
    const char* c = static_cast<const char*>(p);
    while (ok && n > 0) {
      const ssize_t w = write(fd, c, n);
      if (w <= 0) {
        ok = false;
        break;
      }
      c += w;
      n -= size_t(w);
    }
  };
  put(&h, sizeof(h));
  put(key_text.data(), key_text.size());
  put(img.data.data(), img.data.size());
  ok = close(fd) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) std::remove(tmp.c_str());
}

std::string kernel_name(const KernelPlan& plan) {
  const uint64_t h = fnv1a(plan.key.data(), plan.key.size());
  const char* kind = plan.strategy == Strategy::Elementwise ? "ew"
                     : plan.strategy == Strategy::Inner     ? "red_inner"
                                                            : "red_outer";
  std::string ops;
  for (const Step& st : plan.group->steps) {
    if (ops.size() > 40) break;
    ops += "_";
    ops += op_name(st.node->op);
  }
  return std::string("accel_") + kind + ops + "_" + hex64(h);
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
  std::optional<CompiledImage> img = disk_cache().load(key_text);
  const bool upgrade = !img && may_upgrade && quick_compile_supported(cc) && upgrades_enabled();
  const std::string quick_key = upgrade ? disk_key(src.code, cc, CompileTier::Quick) : "";
  if (upgrade) img = disk_cache().load(quick_key);
  if (img) {
    t_last_lookup = "disk hit";
    record_disk_hit();
  } else {
    t_last_lookup = "compiled";
    img = compile_program(src.code, cc, k->name,
                          upgrade ? CompileTier::Quick : CompileTier::Optimized);
    disk_cache().store(upgrade ? quick_key : key_text, *img);
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
  stats().memory_hits.fetch_add(1, std::memory_order_relaxed);
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
    stats().memory_hits.fetch_add(1, std::memory_order_relaxed);
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

KernelCacheStats kernel_cache_stats() {
  KernelCacheStats s;
  {
    std::lock_guard<std::mutex> lock(stats().mutex);
    s = stats().s;
  }
  s.memory_hits = stats().memory_hits.load(std::memory_order_relaxed);
  const UpgradeCounts u = upgrade_counts();
  s.upgrades_pending = u.pending;
  s.upgraded = u.done;
  s.upgrade_failures = u.failed;
  for (int d = 0; d < kMaxDevices; ++d) {
    DeviceKernels& dk = kernels_of(d);
    std::lock_guard<std::mutex> lock(dk.mutex);
    s.kernels += dk.map.size();
  }
  s.cache_dir = disk_cache().dir();
  return s;
}

bool wait_for_optimized_kernels(double timeout_s) { return wait_for_upgrades(timeout_s); }

}  // namespace accel::cuda
