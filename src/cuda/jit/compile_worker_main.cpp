// accel_compile_worker: compiles the optimized builds of kernels a process launched quickly
// compiled (kernel_upgrades.hpp), in a process of its own.
//   accel_compile_worker NVRTC CACHE_DIR   (CACHE_DIR "off": no disk cache)
// Jobs come and replies go on standard input, a socket the parent made.
#include <cstdio>
#include <cstdlib>

#include "src/cuda/driver/loader.hpp"
#include "src/cuda/jit/kernel_upgrades.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s NVRTC CACHE_DIR (started by accelpy)\n", argv[0]);
    return 2;
  }
  // The parent's NVRTC and cache, whatever the environment says: the builds must be the ones
  // the parent would make, stored where it looks.
  setenv("ACCELPY_NVRTC", argv[1], 1);
  setenv("ACCELPY_CACHE_DIR", argv[2], 1);
  accel::cuda::compile_only();
  return accel::cuda::run_compile_worker(0);
}
