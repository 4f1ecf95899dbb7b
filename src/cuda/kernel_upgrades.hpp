// Kernels compiled quickly now, optimized behind: the thread that builds the optimized kernels.
//
// A new elementwise kernel is compiled with NVRTC's --Ofast-compile=min and launched at once;
// a job queued here then compiles its optimized build, stores that in the disk cache and swaps
// its functions into the LoadedKernel (compiler.cpp). Only elementwise kernels go this way: a
// reduction's split count follows its kernel's occupancy, which the two builds need not share,
// and the split count decides the order of the sum.
//
// One thread runs the jobs, in order, at the lowest priority. At exit the process waits up to
// a second for the queue (what it compiles is what the next process finds in the disk cache),
// then for the job running, which holds NVRTC and the driver.
#pragma once

#include <cstdint>
#include <functional>

namespace accel::cuda {

// Whether jobs can be queued: ACCELPY_QUICK_COMPILE is not "0", and this process is the one
// that started the thread (a child made by fork() has none).
bool upgrades_enabled();
// Queues `job`, starting the thread on first use. A job that throws is counted as failed.
void queue_upgrade(std::function<void()> job);
// Waits until every queued job has run or `seconds` have passed; true when the queue is done.
bool wait_for_upgrades(double seconds);
// finish_upgrades() (accel/cuda.hpp) is what the process does at exit.

struct UpgradeCounts {
  uint64_t pending = 0;  // queued or running
  uint64_t done = 0;
  uint64_t failed = 0;  // the quickly compiled kernel stays in use
};
UpgradeCounts upgrade_counts();

}  // namespace accel::cuda
