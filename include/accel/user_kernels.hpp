// What users' CUDA C kernels share across devices (NVRTC and the GPU, the C++ compiler and the
// CPU): the program to compile, the error a compiler's refusal raises, the launch limits and
// the argument checks, so that the same mistake raises the same error on every device.
// accel/raw_kernel.hpp (GPU) and accel/cpu_user_kernels.hpp (CPU) build on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accel/errors.hpp"

namespace accel {

// The compiler (NVRTC, or the C++ compiler for the CPU device) refused a program
// (accelpy.CompileError). what() holds everything; the parts are kept
// for programs that want them.
struct CompileError : Error {
  CompileError(const std::string& message, std::string log, std::string name, std::string excerpt)
      : Error(message), log(std::move(log)), name(std::move(name)), excerpt(std::move(excerpt)) {}
  std::string log;      // the compiler's log, verbatim
  std::string name;     // the kernel (or module) being compiled
  std::string excerpt;  // the source lines the log points at, numbered, with a line around each
};

// The numbered source lines that an NVRTC-style log names ("prog.cu(12): error: ..."), each with
// one line of context; "" when the log names none.
std::string offending_lines(const std::string& source, const std::string& log);

struct ProgramSpec {
  std::string code;
  std::string name;                           // for messages and the program's file name
  std::vector<std::string> options;           // passed to the compiler as given
  std::vector<std::string> name_expressions;  // C++ names to lower (template instances)
  bool with_prelude = false;  // prepend accelpy's kernel headers (accel::float16, ...)
  std::string cache_dir;      // "" = the default disk cache; "off" = none
  // A cubin, PTX or fatbin to load as it is instead of compiling `code` (RawModule(path=...)).
  std::string image;
};

struct FunctionAttributes {
  int max_threads_per_block = 0;  // for this kernel (registers permitting)
  int shared_size_bytes = 0;      // static shared memory
  int const_size_bytes = 0;
  int local_size_bytes = 0;
  int num_regs = 0;
  int ptx_version = 0;
  int binary_version = 0;
  int max_dynamic_shared_size_bytes = 0;
};

struct ParamInfo {
  size_t offset = 0, size = 0;
};

// One launch argument: the bytes a parameter receives.
struct KernelArg {
  const void* data;  // points at the value (for a pointer argument: at the pointer)
  size_t size;
  const char* what;  // what was given, for messages ("a float64", "a pointer")
  // For an array argument, the memory its pointer may reach (its storage), which the CPU's
  // checked mode checks accesses against; null for other arguments.
  const void* lo = nullptr;
  const void* hi = nullptr;
};

// A device's launch limits (the CPU device has its own, shaped like a GPU's).
struct LaunchLimits {
  int block[3] = {0, 0, 0};
  int grid[3] = {0, 0, 0};
  int shared_optin = 0;
};
// Checks a launch configuration against `limits` (ValueError naming the limit) on CUDA device
// `device`, or on the CPU device when `device` is -1.
void check_launch_config(const LaunchLimits& limits, int device, const FunctionAttributes& attrs,
                         const unsigned grid[3], const unsigned block[3], size_t shared_mem);
// "parameter 3 ('N', 4 bytes)"
std::string describe_param(const std::optional<std::vector<ParamInfo>>& params,
                           const std::vector<std::string>& names, size_t i);
// Checks the arguments' count and sizes against the kernel's parameters (TypeError naming the
// parameter).
void check_arguments(const std::string& kernel, const std::vector<ParamInfo>& params,
                     const std::vector<std::string>& names, const KernelArg* args, size_t nargs);

}  // namespace accel
