// Run-time compilation with NVRTC and the kernel caches: in memory (structural key -> loaded
// functions, per device) and on disk (full source and options -> cubin).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "src/cuda/jit/codegen.hpp"
#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

// What every generated program starts with: the embedded kernel headers and a few helpers.
const std::string& program_prelude();

struct CompiledImage {
  std::string data;  // a cubin, or PTX for a device newer than NVRTC knows
  bool cubin = true;
};

// How a program is compiled. Optimized: for the kernels' speed. Quick: also NVRTC's
// --Ofast-compile=min, for a kernel needed now whose optimized build follows from the compile
// worker (kernel_upgrades.hpp).
enum class CompileTier { Optimized, Quick };
// Whether Quick compiles exist here: NVRTC 12.8 or newer, compiling cubins for the device.
bool quick_compile_supported(int cc);

// NVRTC options for a compute capability (90 for sm_90); sets `cubin` to whether they make a
// cubin (the device's own architecture) or PTX (a device newer than this NVRTC). With NVRTC
// 12.8+ they include --minimal (no texture/surface types or device-runtime calls: code that
// needs them, such as a user's raw kernel, must drop it) and --pch (see compiler.cpp).
std::vector<std::string> compile_options(int cc, bool& cubin,
                                         CompileTier tier = CompileTier::Optimized);

// Compiles prelude + code; throws accel::Error carrying NVRTC's log on failure.
CompiledImage compile_program(const std::string& code, int cc, const std::string& name,
                              CompileTier tier = CompileTier::Optimized);

// An NVRTC program of `source` (`file` names it in NVRTC's messages), given the embedded kernel
// headers when `with_headers`; destroyed with this object. Throws accel::Error when NVRTC
// refuses to create it.
class NvrtcProgram {
 public:
  NvrtcProgram(const Nvrtc& nv, const std::string& source, const std::string& file,
               bool with_headers);
  ~NvrtcProgram();
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  api::nvrtcProgram get() const { return prog_; }
  // NVRTC's log of the compilation ("" when it has none).
  std::string log() const;
  // The image the compilation produced: its cubin, or its PTX when `cubin` is false.
  std::string image(bool cubin) const;

 private:
  const Nvrtc& nv_;
  api::nvrtcProgram prog_ = nullptr;
};

// The disk cache: one file per program, named by a hash of its key text (NVRTC version,
// options, headers, source), holding the key text itself (compared exactly on load), the image
// and a checksum. Files are written to a temporary name and renamed, so readers never see a
// partial file; anything that fails verification is treated as a miss and rewritten.
class DiskCache {
 public:
  explicit DiskCache(std::string dir) : dir_(std::move(dir)) {}
  bool enabled() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }
  std::string path_for(const std::string& key_text) const;
  std::optional<CompiledImage> load(const std::string& key_text) const;
  void store(const std::string& key_text, const CompiledImage& image) const;

 private:
  std::string dir_;
};

// The process's disk cache, in default_cache_dir().
const DiskCache& disk_cache();
// ACCELPY_CACHE_DIR, else ~/.cache/accelpy; "" (off) when ACCELPY_CACHE_DIR is "0" or "off".
std::string default_cache_dir();
// The text that keys a program in the disk cache.
std::string disk_key(const std::string& code, int cc, CompileTier tier = CompileTier::Optimized);

// Counts a compilation (and its time) or a disk-cache hit in kernel_cache_stats(), for
// programs compiled outside get_kernel (users' kernels).
void record_compilation(double ms);
void record_disk_hit();

uint64_t fnv1a(const void* data, size_t n, uint64_t seed = 1469598103934665603ULL);

struct LoadedKernel {
  // Atomic: a kernel compiled quickly is replaced by its optimized build from another thread
  // while launches read it (kernel_upgrades.hpp).
  std::atomic<api::CUfunction> fn[2] = {nullptr, nullptr};
  std::string name;  // entry point of fn[0]; fault reports name it
  // Of fn[0] at kBlockThreads threads, as many as fit at once: the first build's (reductions,
  // which use it, are never replaced).
  int blocks_per_sm = 1;
};

// The loaded kernel for a plan on a device: from memory, else from disk, else compiled.
const LoadedKernel& get_kernel(DeviceContext& c, const KernelPlan& plan);
// A fixed (not planned) program `code` whose entry point is `name` (unique to that code): from
// memory, else from disk, else compiled.
const LoadedKernel& get_named_kernel(DeviceContext& c, const std::string& name,
                                     const std::string& code);

// A program not made from a plan (indexing.cpp): `name` keys it (it must name the source's
// structure); `make` gives the source on a memory miss. The first entry is fn[0], ...
const LoadedKernel& get_source_kernel(DeviceContext& c, const std::string& name,
                                      const std::function<KernelSource()>& make);

// Where this thread's last get_kernel() found its kernel: "memory hit", "disk hit" or
// "compiled" (for the fusion debug log).
const char* last_kernel_lookup();

// The kernel name of a plan (a hash of its key, with a readable prefix).
std::string kernel_name(const KernelPlan& plan);

}  // namespace accel::cuda
