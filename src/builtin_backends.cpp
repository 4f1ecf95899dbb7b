// The backends built into accel_core, registered with the core's backend registry on its first
// lookup (src/core/backend.cpp explains why by a call and not by static initializers). The one
// file of the library that names every backend: the core itself includes none of them.
#include "src/core/backend.hpp"
#include "src/cpu/cpu_backend.hpp"
#include "src/cuda/cuda_backend.hpp"

namespace accel {

void register_builtin_backends() {
  // Devices without a kernel parameter block (the CPU) group as CUDA's kernels must.
  set_default_limits(cuda::kernel_limits());
  cpu::register_cpu_backend();
  cuda::register_cuda_backend();
}

}  // namespace accel
