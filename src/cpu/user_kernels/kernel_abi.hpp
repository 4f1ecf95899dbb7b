// What a compiled user kernel and the runtime share: the layouts that cuda_prelude.h declares
// for the kernel side (__accel_thread, __accel_runtime, __accel_kernel_info), and its version.
#pragma once

#include <cstddef>

namespace accel::cpu::user_kernels {

inline constexpr unsigned kAbiVersion = 2;  // ACCEL_CPU_KERNEL_ABI in the prelude

struct Uint3 {
  unsigned x, y, z;
};

// The memory a pointer argument may reach (an accelpy array's storage); hi null: not known.
struct ArgBounds {
  const char* lo;
  const char* hi;
};

struct ThreadState {
  Uint3 thread_idx;
  Uint3 block_idx;
  Uint3 block_dim;
  Uint3 grid_dim;
  unsigned linear;
  void* block;
  char* dyn_shared;
  const ArgBounds* bounds;  // one per parameter
};

struct Runtime {
  void (*sync)(ThreadState* self, int line);
  unsigned (*warp_exchange)(ThreadState* self, const void* in, unsigned bytes, void* out);
  void (*fail)(const char* message);
  // The checked mode: thread `self` reached element `index` of argument `arg`, which holds
  // `count` elements from its pointer.
  void (*out_of_bounds)(ThreadState* self, unsigned arg, long long index, long long count);
};

struct KernelInfo {
  unsigned abi;
  unsigned nparams;
  const size_t* param_sizes;
  int (*run_thread)(ThreadState*, void**);
  int (*run_block)(ThreadState*, void**);
};

using KernelEntry = const KernelInfo* (*)();
using InitEntry = void (*)(const Runtime*);

}  // namespace accel::cpu::user_kernels
