// Building a user's program for the CPU: the full C++ source (prelude, the user's code with its
// own line numbers, an entry point per kernel), the compiler run, and the disk cache.
#pragma once

#include <string>
#include <vector>

#include "accel/user_kernels.hpp"
#include "src/cpu/user_kernels/source_scan.hpp"

namespace accel::cpu {
// ACCELPY_KERNEL_CHECK=1 in the environment.
bool kernel_check_requested();
// Not ACCELPY_KERNEL_REGIONS=0 in the environment (which runs every barrier kernel as fibers,
// to compare).
bool kernel_regions_allowed();
}  // namespace accel::cpu

namespace accel::cpu::user_kernels {

struct BuiltProgram {
  std::string shared_object;  // the .so's bytes
  ScannedSource scanned;
  std::vector<std::string> entries;  // entry symbol i launches kernel_names[i]
  std::vector<std::string> kernel_names;
  std::string log;  // the compiler's warnings
  bool from_disk = false;
  bool checked = false;  // built in the checked mode
};

// Whether `spec` builds in the checked mode (cuda_checked.h): ACCELPY_KERNEL_CHECK=1 in the
// environment, or -DACCELPY_KERNEL_CHECK among its options (NVRTC takes the define too).
bool checked_build(const ProgramSpec& spec);

// Compiles `spec` (or loads it from the disk cache NVRTC's images share). Throws
// CompileError with the compiler's log and the offending lines.
BuiltProgram build_program(const ProgramSpec& spec);

}  // namespace accel::cpu::user_kernels
