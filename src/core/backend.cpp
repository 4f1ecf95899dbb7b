#include "src/core/backend.hpp"

#include "accel/errors.hpp"
#include "src/cpu/cpu_backend.hpp"

namespace accel {

Backend& backend_for(Device device) {
  if (device.is_cpu()) return cpu::cpu_backend();
  throw NotImplementedError("device '" + device.str() + "' is not available in this build");
}

}  // namespace accel
