// Users' CUDA C kernels on the CPU device: the same source as for NVRTC, compiled with the
// machine's C++ compiler against a prelude that models CUDA's execution model
// (src/cpu/user_kernels/cuda_prelude.h), cached on disk beside NVRTC's images, and launched
// with the GPU path's argument and configuration checks (accel/raw_kernel.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "accel/user_kernels.hpp"

namespace accel::cpu {

class UserModule;

// One kernel of a CPU module.
class UserKernel {
 public:
  const std::string& name() const { return name_; }
  // Parameter sizes, from the compiled kernel's signature.
  const std::optional<std::vector<ParamInfo>>& params() const { return params_; }
  void set_param_names(std::vector<std::string> names) { param_names_ = std::move(names); }
  std::string describe_param(size_t i) const;
  // Whether the kernel's threads need fibers (it uses barriers or warp primitives).
  bool uses_barriers() const { return barriers_; }
  // Checks as the GPU does, then runs the grid on the CPU's threads; returns when it is done.
  // Raises accel::Error when a thread failed an assert (after the grid stops).
  void launch(const unsigned grid[3], const unsigned block[3], size_t shared_mem,
              const KernelArg* args, size_t nargs) const;

  UserKernel(std::shared_ptr<const UserModule> module, std::string name, const void* info,
             bool barriers);

 private:
  std::shared_ptr<const UserModule> module_;  // keeps the shared object loaded
  std::string name_;
  const void* info_;  // KernelInfo in the shared object
  bool barriers_;
  std::optional<std::vector<ParamInfo>> params_;
  std::vector<std::string> param_names_;
};

// A user's program compiled for the CPU and loaded. Modules are shared by everything that
// defines them (source, options, name expressions).
class UserModule : public std::enable_shared_from_this<UserModule> {
 public:
  // Compiles (or finds in the disk cache) and loads `spec`; throws CompileError with the
  // compiler's log, or accel::Error when no C++ compiler is installed.
  static std::shared_ptr<const UserModule> get(const ProgramSpec& spec);
  UserKernel function(const std::string& name) const;
  // A __device__ / __constant__ variable: (address, bytes).
  std::pair<uintptr_t, size_t> global(const std::string& name) const;
  bool from_disk() const { return from_disk_; }
  // Built in the checked mode (bounds of pointer arguments, barrier divergence).
  bool checked() const { return checked_; }
  const std::string& log() const { return log_; }
  ~UserModule();

  struct Compiled;
  UserModule(const ProgramSpec& spec, Compiled compiled);

 private:
  void* handle_ = nullptr;  // dlopen
  int fd_ = -1;             // the memfd holding the shared object, open while it is loaded
  std::vector<std::string> kernel_names_;  // index i: entry __accelpy_kernel_<i>
  bool barriers_ = false;
  bool checked_ = false;
  bool from_disk_ = false;
  std::string log_;
};

// The C++ compiler users' kernels are built with: $CXX, else c++, g++ or clang++ on PATH; throws
// accel::Error saying what to install when there is none.
std::string find_cxx_compiler();

// Whether users' kernels are forced onto the CPU (ACCELPY_KERNELS_ON_CPU=1).
bool kernels_forced_on_cpu();

}  // namespace accel::cpu
