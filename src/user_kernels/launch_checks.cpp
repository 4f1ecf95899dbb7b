// The launch checks every device applies to users' kernels (accel/user_kernels.hpp).
#include <string>

#include "accel/user_kernels.hpp"

namespace accel {

namespace {

const char* const kDim = "xyz";

}  // namespace

std::string describe_param(const std::optional<std::vector<ParamInfo>>& params,
                           const std::vector<std::string>& names, size_t i) {
  std::string s = "parameter " + std::to_string(i);
  const bool named = params && names.size() == params->size();
  if (named) s += " '" + names[i] + "'";
  if (params && i < params->size()) {
    s += " (" + std::to_string((*params)[i].size) + " bytes)";
  }
  return s;
}

void check_launch_config(const LaunchLimits& l, int device, const FunctionAttributes& attrs,
                         const unsigned grid[3], const unsigned block[3], size_t shared_mem) {
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (block[i] == 0 || grid[i] == 0) {
      throw ValueError(std::string(block[i] == 0 ? "block" : "grid") + " dimension " + kDim[i] +
                       " is 0; every dimension must be at least 1");
    }
    if (block[i] > unsigned(l.block[i])) {
      throw ValueError("block dimension " + std::string(1, kDim[i]) + " is " +
                       std::to_string(block[i]) + "; the device allows at most " +
                       std::to_string(l.block[i]));
    }
    if (grid[i] > unsigned(l.grid[i])) {
      throw ValueError("grid dimension " + std::string(1, kDim[i]) + " is " +
                       std::to_string(grid[i]) + "; the device allows at most " +
                       std::to_string(l.grid[i]));
    }
    threads *= block[i];
  }
  if (attrs.max_threads_per_block > 0 && threads > uint64_t(attrs.max_threads_per_block)) {
    throw ValueError("a block of " + std::to_string(threads) + " threads is too large: this " +
                     "kernel allows at most " + std::to_string(attrs.max_threads_per_block) +
                     " threads per block (on " +
                     (device < 0 ? std::string("cpu") : "cuda:" + std::to_string(device)) + ")");
  }
  const size_t total = shared_mem + size_t(attrs.shared_size_bytes);
  if (total > size_t(l.shared_optin)) {
    throw ValueError("shared memory of " + std::to_string(shared_mem) + " bytes (+" +
                     std::to_string(attrs.shared_size_bytes) +
                     " static) is too large: the device allows at most " +
                     std::to_string(l.shared_optin) + " bytes per block");
  }
}

void check_arguments(const std::string& kernel, const std::vector<ParamInfo>& ps,
                     const std::vector<std::string>& param_names, const KernelArg* args,
                     size_t nargs) {
  if (nargs != ps.size()) {
    std::string names;
    for (size_t i = 0; i < param_names.size() && param_names.size() == ps.size(); ++i) {
      names += (i ? ", " : " (") + param_names[i] + (i + 1 == ps.size() ? ")" : "");
    }
    throw TypeError("kernel '" + kernel + "' takes " + std::to_string(ps.size()) + " arguments" +
                    names + ", " + std::to_string(nargs) + " given");
  }
  for (size_t i = 0; i < nargs; ++i) {
    if (args[i].size != ps[i].size) {
      throw TypeError("kernel '" + kernel + "': " + describe_param(ps, param_names, i) +
                      " was given " + args[i].what + " (" + std::to_string(args[i].size) +
                      " bytes); pass a value of the parameter's type (e.g. numpy.int32(n) "
                      "for an int, numpy.float32(x) for a float)");
    }
  }
}

}  // namespace accel
