// Users' own CUDA C kernels: compiled with NVRTC (cached in memory and on disk like generated
// kernels), loaded per device, and launched with their arguments and launch configuration
// checked first. The C++ side of accelpy.RawKernel / RawModule / ElementwiseKernel /
// ReductionKernel and of the PyCUDA-compatible accelpy.driver layer.
//
// Compiling needs only NVRTC (no GPU: the architecture is then sm_90, for checking); loading
// and launching need a device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "accel/user_kernels.hpp"

namespace accel::cuda {

// What users' kernels share with the CPU device (accel/user_kernels.hpp), by their old names.
using accel::check_arguments;
using accel::check_launch_config;
using accel::CompileError;
using accel::describe_param;
using accel::FunctionAttributes;
using accel::KernelArg;
using accel::LaunchLimits;
using accel::offending_lines;
using accel::ParamInfo;
using accel::ProgramSpec;

// The compute capability code is compiled for when none is given: the current device's, or 90
// (sm_90) without a GPU.
int default_compute_capability();

// A compiled program: its image for one architecture and its lowered name expressions.
struct ProgramImage {
  std::string image;  // cubin, or PTX when NVRTC does not know the device
  bool cubin = true;
  std::vector<std::pair<std::string, std::string>> lowered;  // expression -> mangled name
  std::string log;                                           // NVRTC's warnings, if any
  bool from_disk = false;
};
// Compiles `spec` for compute capability `cc` (or loads it from the disk cache). Throws
// CompileError with the log and offending lines; accel::Error when NVRTC is missing.
ProgramImage compile_user_program(const ProgramSpec& spec, int cc);

class RawModule;

// One kernel of a loaded module on one device.
class RawFunction {
 public:
  const std::string& name() const;  // the name asked for (or the name expression)
  int device() const;
  const FunctionAttributes& attributes() const;
  // The kernel's parameters (offset, size), as the driver reports them; nullopt when the driver
  // cannot say (older than CUDA 12.4), in which case arguments are not checked.
  const std::optional<std::vector<ParamInfo>>& params() const;
  // Names for messages ("N"), parsed from the source by the caller; may be empty.
  void set_param_names(std::vector<std::string> names);
  const std::vector<std::string>& param_names() const;
  // "parameter 3 ('N', 4 bytes)"
  std::string describe_param(size_t i) const;
  void* handle() const;  // CUfunction

  using Arg = KernelArg;
  // Checks the launch configuration against the device's and the kernel's limits (ValueError
  // naming the limit) and the arguments against the parameters (TypeError naming the
  // parameter), then queues the kernel on `stream` (0: this thread's current stream).
  void launch(const unsigned grid[3], const unsigned block[3], size_t shared_mem, uintptr_t stream,
              const Arg* args, size_t nargs) const;

  struct Impl;
  explicit RawFunction(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<Impl> impl_;
};

// A program compiled once per architecture and loaded once per device, lazily.
class RawModule {
 public:
  explicit RawModule(ProgramSpec spec);
  const ProgramSpec& spec() const;
  // Compiles for `cc` (0: default_compute_capability()) now, so errors surface here.
  const ProgramImage& compile(int cc = 0) const;
  // The mangled name of a name expression given at construction (ValueError otherwise).
  std::string lowered_name(const std::string& expression) const;
  // A kernel by name or name expression, on `device` (loads the module there on first use).
  RawFunction function(const std::string& name, int device) const;
  // A __device__ / __constant__ variable: (device address, bytes).
  std::pair<uintptr_t, size_t> global(const std::string& name, int device) const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

// Checks the launch configuration of a kernel with `attrs` on `device` (ValueError with the
// limit). Exposed for the Python layer's own kernels and for tests.
void check_launch(int device, const FunctionAttributes& attrs, const unsigned grid[3],
                  const unsigned block[3], size_t shared_mem);

// Host <-> device copies for the PyCUDA layer, on `stream` (0: the current stream of the
// device the pointer belongs to); `sync` waits for the copy.
void memcpy_htod(uintptr_t dst, const void* src, size_t nbytes, uintptr_t stream, bool sync);
void memcpy_dtoh(void* dst, uintptr_t src, size_t nbytes, uintptr_t stream, bool sync);
void memcpy_dtod(uintptr_t dst, uintptr_t src, size_t nbytes, uintptr_t stream, bool sync);
// (free, total) bytes of `device`.
std::pair<size_t, size_t> mem_get_info(int device);

}  // namespace accel::cuda
