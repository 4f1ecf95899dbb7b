#include "src/core/backend.hpp"

#include "accel/errors.hpp"
#include "src/cpu/cpu_backend.hpp"
#include "src/cuda/cuda_backend.hpp"

namespace accel {

Backend& backend_for(Device device) {
  if (device.is_cpu()) return cpu::cpu_backend();
  return cuda::cuda_backend(device.index);
}

void Backend::gemm(const Gemm&) {
  throw NotImplementedError("matmul is not implemented on this device");
}

}  // namespace accel
