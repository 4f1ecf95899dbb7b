// How many parameters a kernel of a loaded image takes, read from the image itself, so that the
// driver is asked for each parameter's offset and size (cuFuncGetParamInfo) exactly that many
// times: a query past the last parameter fails, and a failing call is noise in the output of
// compute-sanitizer and of any other API-error checker a user runs over their program. Drivers
// of CUDA 13.2+ answer the count themselves (cuFuncGetParamCount); this is for the older ones.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace accel::cuda {

// A parameter as the image lays it out (the driver reports the same figures).
struct ImageParam {
  size_t offset = 0;
  size_t size = 0;
};

// The parameters of kernel `name` (its mangled name) in `image`: a cubin (an ELF file whose
// `.nv.info.<name>` section lists one EIATTR_KPARAM_INFO record per parameter) or PTX text (the
// `.entry <name>(...)` list; sizes are not read from PTX and stay 0). nullopt when the image is
// neither (a fatbinary), the kernel is not found, or its records do not add up.
std::optional<std::vector<ImageParam>> image_params(std::string_view image, std::string_view name);

}  // namespace accel::cuda
