// What the CPU build of a user's CUDA source needs from the source text itself: the kernels to
// make entry points for, whether any needs fibers, and `extern __shared__` arrays rewritten to
// the launch's dynamic shared memory; in the checked mode, the kernels' pointer parameters
// rewritten to checked pointers (cuda_checked.h); where allowed, the kernels that wait at
// __syncthreads rewritten to coroutines run by regions (below).
#pragma once

#include <string>
#include <vector>

namespace accel::cpu::user_kernels {

struct ScannedSource {
  std::string code;                  // the source with the rewrites above, same lines
  std::vector<std::string> kernels;  // non-template __global__ functions at global scope
  bool barriers = false;             // uses __syncthreads or a warp primitive
  // The kernels that wait at __syncthreads are C++ coroutines (`void` -> `__accel_task`,
  // `return` -> `co_return`; the prelude's __syncthreads is then `co_await`): their blocks run
  // region by region, every thread up to its next barrier in turn, with no fibers.
  bool regions = false;
};

// `regions_allowed`: rewrite barrier kernels to coroutines when the source lets it be done
// safely: the only barrier or warp primitive named is __syncthreads, every use of it is in the
// body of a non-template __global__ function, and those bodies hold nothing that looks like a
// lambda (whose `return` must stay).
ScannedSource scan_source(const std::string& code, bool checked = false,
                          bool regions_allowed = false);

}  // namespace accel::cpu::user_kernels
