// Running a grid of a user's kernel on the CPU: blocks split across the CPU backend's threads;
// a block's threads either a plain loop or fibers scheduled in rounds (every live thread runs
// once per round, up to its next barrier or warp primitive, so all of them are there before any
// goes on).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "src/cpu/user_kernels/kernel_abi.hpp"

namespace accel::cpu::user_kernels {

struct Launch {
  const KernelInfo* info = nullptr;
  bool fibers = false;  // the kernel uses barriers or warp primitives
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  size_t shared_mem = 0;
  void** args = nullptr;
  const ArgBounds* bounds = nullptr;  // one per parameter
  const char* name = "";
  const std::vector<std::string>* param_names = nullptr;  // may be empty
  bool checked = false;  // the checked mode: barrier divergence is reported
};

// The runtime every module is initialised with (its __accelpy_init).
const Runtime& runtime();

// Runs the grid; throws accel::Error naming the kernel when a thread failed (assert, __trap),
// or, in the checked mode (ACCELPY_KERNEL_CHECK=1), on barrier divergence; IndexError naming the
// kernel, argument and index when a checked access fell outside its argument's array.
void run_grid(const Launch& launch);

}  // namespace accel::cpu::user_kernels
