// CUDA devices, streams, events and memory: the C++ side of `accelpy.cuda`.
//
// Everything here works in a build without a GPU: is_available() is false and the rest throws
// accel::Error with the reason (no driver, no device, ...). Nothing touches the driver until
// first use, so that importing accelpy stays fast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "accel/array.hpp"

namespace accel::cuda {

bool is_available();
int device_count();
// Why CUDA is unavailable ("" when it is available).
std::string unavailable_reason();

struct DeviceProperties {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  size_t total_memory = 0;
  int multiprocessor_count = 0;
  int l2_cache_size = 0;
  int max_threads_per_multiprocessor = 0;
  int max_threads_per_block = 0;
  int max_shared_memory_per_block = 0;
  int warp_size = 0;
  int clock_rate_khz = 0;
  int memory_clock_rate_khz = 0;
  int memory_bus_width = 0;
  int pci_bus_id = 0;
};
DeviceProperties device_properties(int device);

struct LibraryInfo {
  std::string name;     // "driver", "nvrtc", "cublas", "cublasLt"
  bool found = false;   // usable
  std::string path;     // where it was found
  std::string version;  // "12.4"
  std::string detail;   // why it is not usable
  std::vector<std::string> tried;
};
std::vector<LibraryInfo> libraries();
// Adds directories (site-packages) where NVIDIA's pip wheels may hold CUDA libraries.
void add_library_search_dirs(const std::vector<std::string>& dirs);

// Waits for all work on `device` (all its streams). A kernel fault raised since the last check
// is reported here, naming the last kernel launched.
void synchronize(int device);

class Event;

// A stream of work on one device. Each device has a non-blocking default stream; a Stream made
// current (set_current_stream, `with stream:` in Python) receives this thread's work for its
// device until it is replaced.
class Stream {
 public:
  static Stream create(int device, bool non_blocking = true);
  static Stream default_stream(int device);
  static Stream current(int device);

  int device() const;
  void* handle() const;  // CUstream
  void synchronize() const;
  bool query() const;  // true when all its work is done
  void wait(const Event& event) const;
  bool operator==(const Stream& o) const { return handle() == o.handle(); }

  struct Impl;
  friend Stream set_current_stream(const Stream& stream);

 private:
  explicit Stream(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};
// Makes `stream` current for its device on this thread; returns the stream it replaces.
Stream set_current_stream(const Stream& stream);

class Event {
 public:
  static Event create(int device, bool enable_timing = true, bool blocking = false);
  void record(const Stream& stream);
  void synchronize() const;
  bool query() const;
  // Milliseconds between this event and `end` (both recorded, timing enabled); waits for both
  // to complete first.
  float elapsed_ms(const Event& end) const;
  int device() const;
  void* handle() const;  // CUevent

  struct Impl;

 private:
  explicit Event(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

struct MemoryStats {
  size_t allocated = 0;       // bytes in live arrays
  size_t peak_allocated = 0;  // high-water mark of `allocated`
  size_t reserved = 0;        // held by the memory pool (live + cached)
  size_t limit = 0;           // accelpy's limit on `allocated`; 0 = none
  size_t device_free = 0;     // cuMemGetInfo
  size_t device_total = 0;
  uint64_t allocations = 0;  // counts of allocate calls
  uint64_t frees = 0;
  uint64_t oom_retries = 0;        // times the cache was freed to satisfy an allocation
  size_t small_cached_blocks = 0;  // freed small blocks kept for reuse (the allocator's cache)
  size_t small_cached_bytes = 0;
};
MemoryStats memory_stats(int device);
// Returns the pool's cached (unused) memory to the driver.
void free_cache(int device);
// Caps the bytes live arrays may hold on `device` (0 removes the cap). Also set by
// ACCELPY_CUDA_MEMORY_LIMIT (bytes, or with a K/M/G suffix) for every device.
void set_memory_limit(int device, size_t bytes);

// Page-locked host memory: copies from and to it are asynchronous.
void* pinned_alloc(size_t nbytes);
void pinned_free(void* ptr);

// Copies `src` (a CUDA array) into host memory at `dst`, in C order, on the current stream,
// without waiting: dst must be pinned, and stays in use until the stream reaches the copy.
void copy_to_host_async(const Array& src, void* dst);

struct KernelCacheStats {
  uint64_t compiled = 0;     // NVRTC compilations a launch waited for
  uint64_t disk_hits = 0;    // cubins loaded from the disk cache
  uint64_t memory_hits = 0;  // launches served by the in-memory cache
  uint64_t kernels = 0;      // distinct kernels held in memory
  double compile_ms = 0;     // total time of those compilations
  // New elementwise kernels are compiled quickly (NVRTC --Ofast-compile=min) and replaced by
  // their optimized build, compiled by a worker process (ACCELPY_QUICK_COMPILE=0: compile the
  // optimized build at once instead).
  uint64_t upgrades_pending = 0;  // optimized builds queued or compiling
  uint64_t upgraded = 0;          // quickly compiled kernels replaced by their optimized build
  uint64_t upgrade_failures = 0;  // optimized builds that failed (the quick build stays)
  std::string cache_dir;          // "" when the disk cache is off
};
KernelCacheStats kernel_cache_stats();
// Waits until every quickly compiled kernel has been replaced by its optimized build (as a
// benchmark should before it times kernels), or `timeout_s` seconds have passed; returns
// whether none is pending.
bool wait_for_optimized_kernels(double timeout_s);
// What the process does at exit (registered with std::atexit when the compile worker starts;
// Python calls it from its own atexit, before the interpreter and the libraries tear down):
// kernels are no longer swapped, and the worker compiles what it was sent into the disk cache
// and ends, without the process waiting for it. Does nothing in a child made by fork().
void finish_upgrades();

// Replay of repeated evaluations as CUDA graphs (src/cuda/graphs.hpp): an evaluation whose
// structure came from the plan cache several times runs as one graph launch, its kernels
// rebound to the new buffers and scalars. On by default; ACCELPY_CUDA_GRAPHS=0 starts it off.
bool graphs_enabled();
void set_graphs_enabled(bool enabled);
struct GraphStats {
  uint64_t graphs_built = 0;        // graphs instantiated (first recordings and rebuilds)
  uint64_t graph_launches = 0;      // evaluations queued as one graph launch
  uint64_t kernels_replayed = 0;    // kernels those launches ran
  uint64_t nodes_rebound = 0;       // kernel nodes given new parameters before a launch
  uint64_t kernels_unrecorded = 0;  // recorded kernels queued one by one after all
  bool enabled = true;
};
GraphStats graph_stats();
void reset_graph_stats();

// Host waits for the GPU (host reads, synchronize()), which Ctrl-C interrupts
// (src/cuda/driver/wait.hpp): done within the first short spin, waited on asleep, interrupted.
struct WaitStats {
  uint64_t fast = 0;
  uint64_t slow = 0;
  uint64_t interrupted = 0;
};
WaitStats wait_stats();

// TF32 tensor cores for float32 matmul (CUBLAS_COMPUTE_32F_FAST_TF32: inputs rounded to 10
// mantissa bits). Off by default, as torch.backends.cuda.matmul.allow_tf32; process-wide.
bool allow_tf32();
void set_allow_tf32(bool allow);

// Testing aid: launches a kernel that writes through a null pointer on `device`'s current
// stream, so that fault reporting can be checked (the context is unusable afterwards).
void launch_faulting_kernel(int device);

}  // namespace accel::cuda
