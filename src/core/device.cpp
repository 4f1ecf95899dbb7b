#include "accel/device.hpp"

#include <charconv>
#include <cstdlib>

#include "accel/cuda.hpp"
#include "accel/errors.hpp"

namespace accel {

namespace {
thread_local bool g_default_set = false;
thread_local Device g_default;
}  // namespace

std::string Device::str() const {
  return is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(index);
}

Device Device::parse(std::string_view text) {
  const auto colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  int index = 0;
  if (colon != std::string_view::npos) {
    const std::string_view num = text.substr(colon + 1);
    const auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), index);
    if (ec != std::errc() || end != num.data() + num.size() || index < 0) {
      throw ValueError("invalid device string '" + std::string(text) +
                       "': expected 'cpu', 'cuda' or 'cuda:N'");
    }
  }
  if (kind == "cpu") {
    if (index != 0)
      throw ValueError("invalid device '" + std::string(text) +
                       "': there is one cpu device, 'cpu'");
    return cpu();
  }
  if (kind == "cuda" || kind == "gpu") return cuda(index);
  throw ValueError("invalid device string '" + std::string(text) +
                   "': expected 'cpu', 'cuda' or 'cuda:N'");
}

// GPU 0 when there is one, else the CPU; ACCELPY_DEFAULT_DEVICE overrides. Decided on first
// use, not at import, because asking the driver costs a CUDA initialization.
Device initial_default() {
  static const Device d = [] {
    if (const char* env = std::getenv("ACCELPY_DEFAULT_DEVICE"); env && *env) {
      return Device::parse(env);
    }
    return cuda::is_available() ? Device::cuda(0) : Device::cpu();
  }();
  return d;
}

Device default_device() { return g_default_set ? g_default : initial_default(); }

void set_default_device(Device device) {
  g_default = device;
  g_default_set = true;
}

}  // namespace accel
