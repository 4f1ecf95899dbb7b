// Kernels compiled quickly now, optimized behind: the compile worker process.
//
// A new elementwise kernel is compiled with NVRTC's --Ofast-compile=min (and stored on disk as
// such) and launched at once; its optimized build is compiled by a worker process
// (accel_compile_worker, started on first use, at the lowest priority), which stores it in the
// disk cache and sends it back, and the LoadedKernel's functions are swapped for it
// (kernel_cache.cpp). Only elementwise kernels go this way: a reduction's split count follows its
// kernel's occupancy, which the two builds need not share, and the split count decides the
// order of the sum.
//
// Why a process and not a thread: NVRTC compilations in one process slow each other down (13.0,
// 2026-12-02: a 100 ms compile took 135-200 ms beside another in a second thread, and 100-106
// ms beside one in a second process), so a background thread made the quick compile it ran
// beside slower than an optimized one alone. A process also outlives an exiting parent: what it
// was given still reaches the disk cache, and the parent's exit waits for nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "src/cuda/jit/compiler.hpp"

namespace accel::cuda {

struct UpgradeJob {
  std::string name, code, key_text;  // as load_kernel compiles and stores them
  int cc = 0;
  // Called on the worker's reply thread with the optimized build; not called when the build
  // failed or the process is exiting. May throw (counted as a failure).
  std::function<void(const CompiledImage&)> done;
};

// Whether a new job may be queued now: ACCELPY_QUICK_COMPILE is not "0", this is the process
// that started the worker (a child made by fork() has none), the worker runs (started here on
// first call), and fewer than 8 builds are pending (else the caller compiles the optimized
// build itself rather than add to the backlog).
bool upgrades_enabled();
// Sends `job` to the worker. Call after upgrades_enabled() returned true.
void queue_upgrade(UpgradeJob job);
// Waits until no job is pending or `seconds` have passed; true when none is.
bool wait_for_upgrades(double seconds);
// finish_upgrades() (accel/cuda.hpp) is what the process does at exit.

struct UpgradeCounts {
  uint64_t pending = 0;  // sent, no reply yet
  uint64_t done = 0;
  uint64_t failed = 0;  // the quickly compiled kernel stays in use
};
UpgradeCounts upgrade_counts();

// The worker's main loop: reads jobs from `fd` (a socket) until end of file, compiles each
// (optimized) unless the disk cache has it by now, stores it there and replies on `fd`.
// Returns the exit status.
int run_compile_worker(int fd);

}  // namespace accel::cuda
