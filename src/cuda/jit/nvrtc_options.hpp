// The NVRTC options accelpy compiles with: per compute capability (a cubin for the device's own
// architecture, PTX for a device newer than NVRTC) and per compile tier.
#pragma once

#include <string>
#include <vector>

namespace accel::cuda {

// How a program is compiled. Optimized: for the kernels' speed. Quick: also NVRTC's
// --Ofast-compile=min, for a kernel needed now whose optimized build follows from the compile
// worker (kernel_upgrades.hpp).
enum class CompileTier { Optimized, Quick };
// Whether Quick compiles exist here: NVRTC 12.8 or newer, compiling cubins for the device.
bool quick_compile_supported(int cc);

// NVRTC options for a compute capability (90 for sm_90); sets `cubin` to whether they make a
// cubin (the device's own architecture) or PTX (a device newer than this NVRTC). With NVRTC
// 12.8+ they include --minimal (no texture/surface types or device-runtime calls: code that
// needs them, such as a user's raw kernel, must drop it) and --pch (see nvrtc_options.cpp).
std::vector<std::string> compile_options(int cc, bool& cubin,
                                         CompileTier tier = CompileTier::Optimized);

}  // namespace accel::cuda
