// The interface between the core and a device backend, and the registry through which the
// core finds a device's backend (the core includes no backend's headers).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "accel/device.hpp"
#include "src/core/group.hpp"

namespace accel {

struct Gemm;            // src/core/backend_matmul.hpp
class FftBackend;       // backend_fft.hpp
class LinalgBackend;    // backend_linalg.hpp
class SortScanOps;      // backend_sort.hpp
class IndexingBackend;  // backend_indexing.hpp
class ScatterBackend;   // backend_scatter.hpp

// How a generated kernel's parameter block grows with a group, in bytes at most: what the
// planner counts to keep a group's parameters within BackendLimits::param_block_bytes. The
// numbers come from the backend that generates the kernels (the CUDA codegen's param_layout(),
// derived from the fields it packs); nothing in the core writes them down.
struct ParamLayout {
  size_t fixed_elementwise = 0;        // sizes and launch values of an elementwise kernel
  size_t fixed_reduction = 0;          // ... of a reduction kernel (its bookkeeping included)
  size_t per_dim = 0;                  // per dimension of the iteration space (its shape)
  size_t operand = 0;                  // per array operand or output (its pointer)
  size_t operand_stride = 0;           // per dimension, for an operand neither contiguous nor
                                       // broadcast
  size_t reduction_output_stride = 0;  // per dimension, for a reduction's output
  size_t scalar = 0;                   // per scalar operand
  size_t generator = 0;                // per generator step (linspace, eye, ... fields)
};

// What the planner keeps a group within on a device.
struct BackendLimits {
  size_t param_block_bytes = 0;  // a group's kernel parameters
  size_t max_group_steps = 0;    // steps of one group
  // Whether the backend runs Rows groups (group.hpp); without them a reduction whose result is
  // broadcast back into elementwise work ends its group, as it did before row groups.
  bool row_groups = true;
  // Rows groups whose rows hold more than `long_row` elements (0: no bound) only where there
  // are at least `long_row_min_rows` rows: a backend that gives each row to one processor
  // (CUDA: one block) fills the device with enough rows only; fewer, longer rows run faster as
  // the split groups (a reduction spread over the device, then elementwise work).
  int64_t long_row = 0;
  int64_t long_row_min_rows = 0;
  // Whether the backend's float scans add in index order (the CPU's loop), which float16 sums
  // and products need to round by steps as NumPy's do (ops/reduce.cpp); a backend whose scans
  // associate otherwise (CUB's) accumulates float16 reductions in float32, as CuPy does.
  bool ordered_scans = true;
  ParamLayout params;
};

// The limits of backends that have none of their own (Backend::limits()'s default): set once, by
// register_builtin_backends(), to those of the backend whose kernels bound groups.
void set_default_limits(const BackendLimits& limits);

// What a backend keeps beside a cached plan (plan_cache.hpp's CachedPlan owns it, and destroys
// it with the entry): the CUDA backend's graph of the plan's launches.
class CachedPlanState {
 public:
  virtual ~CachedPlanState() = default;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual void* allocate(size_t nbytes) = 0;
  virtual void deallocate(void* ptr, size_t nbytes) = 0;

  // Runs one group; every output's destination memory exists when this is called. Devices
  // that queue work (CUDA) return once it is queued, in order with what came before.
  virtual void run(const Group& group) = 0;

  // Copies between this device's memory and host memory (contiguous bytes).
  // copy_to_host returns once `dst` holds the data; copy_from_host once `src` may be reused.
  virtual void copy_to_host(const void* src, void* dst, size_t nbytes) = 0;
  virtual void copy_from_host(const void* src, void* dst, size_t nbytes) = 0;
  // Within this device, in order with its queued work.
  virtual void copy_device(const void* src, void* dst, size_t nbytes) = 0;
  // From memory of another device of the same type (a peer GPU); returns once done.
  virtual void copy_from_peer(Device from, const void* src, void* dst, size_t nbytes) = 0;

  // For the fusion debug log (only asked while it is on): the kernel the last run() on this
  // thread launched, and where it came from ("memory hit", "disk hit", "compiled"). Backends
  // without compiled kernels leave both empty.
  virtual void describe_last_run(std::string& kernel, std::string& cache) {
    (void)kernel;
    (void)cache;
  }

  // The matmul family (backend_matmul.hpp): queues one batched GEMM in stream order. The
  // default throws NotImplementedError.
  virtual void gemm(const Gemm& g);

  // The planner's bounds for groups on this device. The default (the CPU's) is set_default_limits'
  // (the bound of the CUDA backend's kernels): the CPU needs none, but a program is then cut into
  // the same groups on every device, so that results (summation orders) and the fusion log agree.
  virtual const BackendLimits& limits() const;

  // Around the runs of one evaluation whose grouping came from the plan cache, all its groups
  // on this device: `state` is the backend's slot in the cache entry (null until the backend
  // fills it). end_cached_run(true) follows the last run; end_cached_run(false) an evaluation
  // cut short by an exception (it must not throw). The defaults do nothing.
  virtual void begin_cached_run(std::unique_ptr<CachedPlanState>& state) { (void)state; }
  virtual void end_cached_run(bool completed) { (void)completed; }

  // Waits until all work queued on this device has finished.
  virtual void synchronize() = 0;

  // Library families (null where this backend has none).
  virtual FftBackend* fft() { return nullptr; }
  virtual LinalgBackend* linalg() { return nullptr; }
  // Gathers, scatters and selection (src/core/backend_indexing.hpp).
  virtual IndexingBackend& indexing() = 0;
  // Sorting, scans, selection, gathers, binary search (src/core/backend_sort.hpp).
  virtual SortScanOps& sort_scan() = 0;
  // Scatter-add (backend_scatter.hpp); null where the backend has none.
  virtual ScatterBackend* scatter() { return nullptr; }
};

// The backend of device `index` of a type; throws (naming the reason) when it does not exist.
using BackendFactory = Backend& (*)(int index);

// Makes `factory` the backend of every device of `type` (replacing an earlier one).
void register_backend(DeviceType type, BackendFactory factory);

// Registers the backends this library was built with (src/builtin_backends.cpp, outside the
// core): backend_for() calls it once, before its first lookup (see backend.cpp for why).
void register_builtin_backends();

// The backend of `device`; throws (naming the reason) when this build or machine has none.
Backend& backend_for(Device device);

// Concatenate (a Single group) as one elementwise copy group per non-empty input, each writing
// its slab of the output; `run_copy` runs them on the backend, in order.
void run_concatenate_as_copies(const Group& group,
                               const std::function<void(const Group&)>& run_copy);

}  // namespace accel
