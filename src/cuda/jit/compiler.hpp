// Run-time compilation with NVRTC: a generated program is the prelude (prelude.cuh) followed by
// its code, compiled with the embedded kernel headers (include/accel/kernels/) and the options
// of nvrtc_options.hpp. The caches around it: kernel_cache.hpp (memory), disk_cache.hpp.
#pragma once

#include <string>

#include "src/cuda/driver/loader.hpp"
#include "src/cuda/jit/nvrtc_options.hpp"
#include "src/util/disk_cache.hpp"

namespace accel::cuda {

// What every generated program starts with: the embedded kernel headers and a few helpers.
const std::string& program_prelude();

// A cubin, or PTX for a device newer than NVRTC knows (the disk cache's image).
using util::CompiledImage;

// The text that keys a generated program in the disk cache: NVRTC's version, the options of
// `cc` and `tier`, the embedded headers, the code.
std::string disk_key(const std::string& code, int cc, CompileTier tier = CompileTier::Optimized);

// Compiles prelude + code; throws accel::Error carrying NVRTC's log on failure.
CompiledImage compile_program(const std::string& code, int cc, const std::string& name,
                              CompileTier tier = CompileTier::Optimized);

// Writes `source` to $ACCELPY_DUMP_KERNELS/<name>.cu when that variable names a directory.
void dump_source(const std::string& name, const std::string& source);

// An NVRTC program of `source` (`file` names it in NVRTC's messages), given the embedded kernel
// headers when `with_headers`; destroyed with this object. Throws accel::Error when NVRTC
// refuses to create it.
class NvrtcProgram {
 public:
  NvrtcProgram(const Nvrtc& nv, const std::string& source, const std::string& file,
               bool with_headers);
  ~NvrtcProgram();
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  api::nvrtcProgram get() const { return prog_; }
  // NVRTC's log of the compilation ("" when it has none).
  std::string log() const;
  // The image the compilation produced: its cubin, or its PTX when `cubin` is false.
  std::string image(bool cubin) const;

 private:
  const Nvrtc& nv_;
  api::nvrtcProgram prog_ = nullptr;
};

}  // namespace accel::cuda
