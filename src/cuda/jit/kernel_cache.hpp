// The in-memory kernel cache: per device, a program's key -> its loaded functions. A miss looks
// in the disk cache (disk_cache.hpp), else compiles (compiler.hpp); elementwise kernels may be
// compiled quickly first and upgraded behind (kernel_upgrades.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

#include "src/cuda/driver/context.hpp"
#include "src/cuda/jit/codegen.hpp"

namespace accel::cuda {

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

// Kernels loaded, over all devices.
size_t loaded_kernel_count();

}  // namespace accel::cuda
