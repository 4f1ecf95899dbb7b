// The kernel headers (include/accel/kernels/*.h) and the program prelude (prelude.cuh) as
// strings, generated at build time (cmake/embed_headers.cmake) so that NVRTC programs need no
// header files at run time; the CPU prelude of users' kernels is embedded alike.
#pragma once

namespace accel::util {

struct EmbeddedHeader {
  const char* path;  // "accel/kernels/scalar_ops.h"
  const char* name;  // "scalar_ops.h", as the headers include each other
  const char* text;
};
extern const EmbeddedHeader kEmbeddedHeaders[];
extern const int kNumEmbeddedHeaders;
// prelude.cuh alone: what every generated program starts with (not a header NVRTC is given).
extern const EmbeddedHeader kEmbeddedPrelude[];
extern const int kNumEmbeddedPrelude;
// The CPU prelude of users' kernels (src/cpu/user_kernels/cuda_prelude.h), embedded alike.
extern const EmbeddedHeader kCpuKernelPrelude[];
extern const int kNumCpuKernelPrelude;

}  // namespace accel::util
