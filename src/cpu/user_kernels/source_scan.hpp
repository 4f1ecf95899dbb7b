// What the CPU build of a user's CUDA source needs from the source text itself: the kernels to
// make entry points for, whether any needs fibers, and `extern __shared__` arrays rewritten to
// the launch's dynamic shared memory; in the checked mode, the kernels' pointer parameters
// rewritten to checked pointers (cuda_checked.h).
#pragma once

#include <string>
#include <vector>

namespace accel::cpu::user_kernels {

struct ScannedSource {
  std::string code;                  // the source with the rewrites above, same lines
  std::vector<std::string> kernels;  // non-template __global__ functions at global scope
  bool barriers = false;             // uses __syncthreads or a warp primitive
};

ScannedSource scan_source(const std::string& code, bool checked = false);

}  // namespace accel::cpu::user_kernels
