// Replay of repeated evaluations as CUDA graphs.
//
// An evaluation whose grouping came from the plan cache (plan_cache.hpp: a loop body building
// the same structure again) is announced to the backend (Backend::begin_cached_run). From its
// kRecordFromEvaluation-th such evaluation on, the launches of its generated kernels are
// recorded instead of queued; at the evaluation's end they are queued together: the first time
// as a new graph of kernel nodes (cuGraphCreate, cuGraphAddKernelNode in a chain,
// cuGraphInstantiateWithFlags), later by rebinding each node whose grid, block or parameters
// (buffers, sizes, scalar values) changed (cuGraphExecKernelNodeSetParams) and one
// cuGraphLaunch. The graph lives in the cache entry (GraphReplay, its backend-owned slot) and
// goes with it.
//
// Only generated kernels are recorded. Anything else that would queue, wait or read on this
// thread while a record is open (a copy, a library call, a synchronization, parameters passed
// through device memory, a users' kernel) first queues what was recorded, one launch at a time,
// and ends recording for the evaluation (stop_recording); such a plan is not recorded again.
// Frees during a record (intermediates released between groups, reduction scratch) wait until
// the recorded launches are queued: stream-ordered reuse must come after the kernels that read
// the memory. An evaluation cut short by an exception queues what it recorded one by one: the
// groups whose run() returned count as computed.
//
// ACCELPY_CUDA_GRAPHS=0 turns recording off (set_graphs_enabled at run time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "src/core/backend.hpp"
#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

struct LoadedKernel;

// Queues `k` with its parameter block `params` (the struct's bytes, passed by value), or
// records it while this thread records an evaluation on `c`.
void launch_or_record(DeviceContext& c, const LoadedKernel& k, const unsigned* grid,
                      const unsigned* block, const std::vector<unsigned char>& params);
// Queues `k` now; `params` points at the kernel's one argument.
void launch_kernel(DeviceContext& c, const LoadedKernel& k, const unsigned* grid,
                   const unsigned* block, void* params);
// Frees device memory once the recorded launches are queued (at once when none are recorded).
void free_after_launches(DeviceContext& c, void* ptr, size_t nbytes) noexcept;
// Queues what this thread recorded, one launch at a time, and records nothing more in this
// evaluation; the plan being recorded is not recorded again. Called before work a graph of
// generated kernels cannot hold.
void stop_recording();

// Backend::begin_cached_run / end_cached_run of the CUDA backend on `c`.
void begin_cached_run(DeviceContext& c, std::unique_ptr<CachedPlanState>& state);
void end_cached_run(bool completed);

// Whether evaluations are recorded (ACCELPY_CUDA_GRAPHS, default on).
bool graphs_enabled();
void set_graphs_enabled(bool enabled);

}  // namespace accel::cuda
