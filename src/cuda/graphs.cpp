// Replay of repeated evaluations as CUDA graphs (graphs.hpp).
#include "src/cuda/graphs.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "accel/cuda.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/loader.hpp"
#include "src/cuda/jit/kernel_cache.hpp"

namespace accel::cuda {

namespace {

// The evaluation of a cached plan from which launches are recorded: the plan cache's first hit
// is a structure's second evaluation, so the graph is built at its fourth and replayed from
// its fifth. Building costs about what a few launches do (instantiation); a structure
// evaluated two or three times never pays it.
constexpr uint32_t kRecordFromEvaluation = 3;
// Fewer launches than this are queued one by one: a graph launch of one kernel costs about
// what the kernel's own launch does, and the rebinding comes on top.
constexpr size_t kMinGraphLaunches = 2;
// A plan whose launches keep changing kernels (new kernels compiled for other sizes, quick
// builds replaced by optimized ones) is rebuilt at most this often, then queued launch by launch.
constexpr uint32_t kMaxRebuilds = 8;

bool read_graphs_env() {
  const char* v = std::getenv("ACCELPY_CUDA_GRAPHS");
  return !(v && std::strcmp(v, "0") == 0);
}
std::atomic<bool> g_enabled{read_graphs_env()};

struct Counters {
  std::atomic<uint64_t> built{0}, launched{0}, kernels{0}, rebound{0}, unrecorded{0};
} g_counters;

// One kernel launch: its kernel, configuration and parameter bytes.
struct Launch {
  api::CUfunction fn = nullptr;
  const char* name = nullptr;  // for fault reports (the kernel cache keeps it)
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  std::vector<unsigned char> params;

  bool same_config(const Launch& o) const {
    return std::memcmp(grid, o.grid, sizeof grid) == 0 &&
           std::memcmp(block, o.block, sizeof block) == 0;
  }
};

// How the nodes get their parameter bytes: as one buffer with its size (`extra`, which the
// fake driver can copy), or, should a driver refuse that, as cuLaunchKernel's one-argument list
// (the driver copies the argument at its size).
std::atomic<bool> g_params_as_buffer{true};

// What a node's parameters point at while the driver call that takes them runs.
struct NodeArgs {
  size_t size = 0;
  void* extra[5] = {};
  void* kernel_params[1] = {};
};

api::KernelNodeParams node_params(Launch& l, NodeArgs& a) {
  api::KernelNodeParams p;
  p.func = l.fn;
  std::memcpy(p.grid, l.grid, sizeof p.grid);
  std::memcpy(p.block, l.block, sizeof p.block);
  if (g_params_as_buffer.load(std::memory_order_relaxed)) {
    a.size = l.params.size();
    a.extra[0] = reinterpret_cast<void*>(api::kLaunchParamBufferPointer);
    a.extra[1] = l.params.data();
    a.extra[2] = reinterpret_cast<void*>(api::kLaunchParamBufferSize);
    a.extra[3] = &a.size;
    a.extra[4] = reinterpret_cast<void*>(api::kLaunchParamEnd);
    p.extra = a.extra;
  } else {
    a.kernel_params[0] = l.params.data();
    p.kernel_params = a.kernel_params;
  }
  return p;
}

// A cached plan's graph on one device (the backend's slot in the plan-cache entry).
class GraphReplay final : public CachedPlanState {
 public:
  explicit GraphReplay(int device) : device_(device) {}
  ~GraphReplay() override { destroy(); }

  int device() const { return device_; }
  uint32_t evaluations = 0;  // cached evaluations announced
  bool disabled = false;     // never recorded again

  // Queues `launches` as this graph: rebinds what changed and launches it, or (other kernels,
  // another count) builds it anew. False when it cannot (the caller queues them one by one).
  bool replay(DeviceContext& c, std::vector<Launch>& launches, size_t n) {
    if (!exec_ || !same_kernels(launches, n)) {
      if (++rebuilds_ > kMaxRebuilds || !build(launches, n)) {
        disabled = true;
        return false;
      }
    } else if (!rebind(launches, n)) {
      destroy();
      return false;
    }
    check(drv().cuGraphLaunch(exec_, c.stream()), "cuGraphLaunch", c.index);
    g_counters.launched.fetch_add(1, std::memory_order_relaxed);
    g_counters.kernels.fetch_add(n, std::memory_order_relaxed);
    return true;
  }

 private:
  bool same_kernels(const std::vector<Launch>& launches, size_t n) const {
    if (n != nodes_.size()) return false;
    for (size_t i = 0; i < n; ++i) {
      if (launches[i].fn != set_[i].fn) return false;
    }
    return true;
  }

  // Gives each node whose configuration or parameters changed the new ones.
  bool rebind(std::vector<Launch>& launches, size_t n) {
    const Driver& d = drv();
    for (size_t i = 0; i < n; ++i) {
      Launch& l = launches[i];
      if (l.same_config(set_[i]) && l.params == set_[i].params) continue;
      NodeArgs args;
      const api::KernelNodeParams p = node_params(l, args);
      if (d.cuGraphExecKernelNodeSetParams(exec_, nodes_[i], &p) != api::CUDA_SUCCESS) return false;
      std::swap(set_[i], l);
      g_counters.rebound.fetch_add(1, std::memory_order_relaxed);
    }
    return true;
  }

  bool build(std::vector<Launch>& launches, size_t n) {
    destroy();
    const Driver& d = drv();
    bool ok = d.cuGraphCreate(&graph_, 0) == api::CUDA_SUCCESS;
    for (size_t i = 0; ok && i < n; ++i) {
      api::CUgraphNode node = nullptr;
      // A chain: each kernel after the one before it, as the stream would order them.
      const auto add = [&] {
        NodeArgs args;
        const api::KernelNodeParams p = node_params(launches[i], args);
        return d.cuGraphAddKernelNode(&node, graph_, nodes_.empty() ? nullptr : &nodes_.back(),
                                      nodes_.empty() ? 0 : 1, &p) == api::CUDA_SUCCESS;
      };
      ok = add();
      if (!ok && g_params_as_buffer.exchange(false)) ok = add();
      if (ok) nodes_.push_back(node);
    }
    ok = ok && d.cuGraphInstantiateWithFlags(&exec_, graph_, 0) == api::CUDA_SUCCESS;
    if (!ok) {
      destroy();
      return false;
    }
    set_.resize(n);
    for (size_t i = 0; i < n; ++i) std::swap(set_[i], launches[i]);
    g_counters.built.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  // Errors are ignored: this runs from destructors, at exit too (D33).
  void destroy() noexcept {
    if ((exec_ || graph_) && !forked_after_init()) {
      const Driver& d = drv();
      if (exec_) d.cuGraphExecDestroy(exec_);
      if (graph_) d.cuGraphDestroy(graph_);
    }
    exec_ = nullptr;
    graph_ = nullptr;
    nodes_.clear();
    set_.clear();
  }

  int device_;
  uint32_t rebuilds_ = 0;
  api::CUgraph graph_ = nullptr;
  api::CUgraphExec exec_ = nullptr;
  std::vector<api::CUgraphNode> nodes_;
  std::vector<Launch> set_;  // what each node holds now
};

// This thread's open record (one evaluation at a time: evaluations do not nest).
struct Record {
  DeviceContext* context = nullptr;  // recording while set
  GraphReplay* graph = nullptr;
  std::vector<Launch> launches;  // [0, n) this evaluation's; kept for their capacity
  size_t n = 0;
  std::vector<std::pair<void*, size_t>> frees;
};
thread_local Record t_record;

// Queues the recorded launches one by one (from `from` on), then the waiting frees, and closes
// the record.
void queue_one_by_one(Record& r, size_t from) {
  DeviceContext& c = *r.context;
  r.context = nullptr;
  r.graph = nullptr;
  const size_t n = std::exchange(r.n, 0);
  // The frees wait for the launches, also when a launch fails.
  struct FreeAfter {
    Record& r;
    DeviceContext& c;
    ~FreeAfter() {
      for (const auto& [ptr, bytes] : r.frees) device_free(c, ptr, bytes);
      r.frees.clear();
    }
  } free_after{r, c};
  for (size_t i = from; i < n; ++i) {
    Launch& l = r.launches[i];
    c.last_kernel.store(l.name);
    void* args[] = {l.params.data()};
    check(drv().cuLaunchKernel(l.fn, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1],
                               l.block[2], 0, c.stream(), args, nullptr),
          "cuLaunchKernel", c.index);
  }
  if (n > from) g_counters.unrecorded.fetch_add(n - from, std::memory_order_relaxed);
}

}  // namespace

void launch_kernel(DeviceContext& c, const LoadedKernel& k, const unsigned* grid,
                   const unsigned* block, void* params) {
  const Driver& d = drv();
  c.last_kernel.store(k.name.c_str());
  void* args[] = {params};
  check(d.cuLaunchKernel(k.fn[0], grid[0], grid[1], grid[2], block[0], block[1], block[2], 0,
                         c.stream(), args, nullptr),
        "cuLaunchKernel", c.index);
}

void launch_or_record(DeviceContext& c, const LoadedKernel& k, const unsigned* grid,
                      const unsigned* block, const std::vector<unsigned char>& params) {
  Record& r = t_record;
  if (r.context != &c) {
    if (r.context) stop_recording();  // another device's launch: its own order
    launch_kernel(c, k, grid, block, const_cast<unsigned char*>(params.data()));
    return;
  }
  if (r.n == r.launches.size()) r.launches.emplace_back();
  Launch& l = r.launches[r.n++];
  l.fn = k.fn[0];
  l.name = k.name.c_str();
  std::memcpy(l.grid, grid, sizeof l.grid);
  std::memcpy(l.block, block, sizeof l.block);
  l.params.assign(params.begin(), params.end());
  c.last_kernel.store(l.name);
}

void free_after_launches(DeviceContext& c, void* ptr, size_t nbytes) noexcept {
  Record& r = t_record;
  // Only the recorded device's memory can be read by the recorded kernels.
  if (r.context == &c) {
    try {
      r.frees.emplace_back(ptr, nbytes);
      return;
    } catch (...) {
      // Out of host memory: queue what was recorded first, so the free stays after it.
      try {
        stop_recording();
      } catch (...) {
      }
    }
  }
  device_free(c, ptr, nbytes);
}

void stop_recording() {
  Record& r = t_record;
  if (!r.context) return;
  r.graph->disabled = true;
  queue_one_by_one(r, 0);
}

void begin_cached_run(DeviceContext& c, std::unique_ptr<CachedPlanState>& state) {
  if (!g_enabled.load(std::memory_order_relaxed) || t_record.context) return;
  if (!state) state = std::make_unique<GraphReplay>(c.index);
  auto* graph = static_cast<GraphReplay*>(state.get());
  // The plan cache keys devices, so an entry's state is this device's; checked all the same.
  if (graph->device() != c.index || graph->disabled) return;
  if (++graph->evaluations < kRecordFromEvaluation) return;
  Record& r = t_record;
  r.context = &c;
  r.graph = graph;
  r.n = 0;
}

void end_cached_run(bool completed) {
  Record& r = t_record;
  if (!r.context) return;
  if (!completed) {
    // Unwinding: the launches recorded are of groups that count as computed. Queue them; a
    // failure here cannot be reported over the exception already in flight (the context is
    // then broken and the next CUDA call reports it).
    try {
      queue_one_by_one(r, 0);
    } catch (...) {
    }
    return;
  }
  if (r.n < kMinGraphLaunches) {
    r.graph->disabled = true;  // a plan's launch count rarely changes: stop recording it
    return queue_one_by_one(r, 0);
  }
  DeviceContext& c = *r.context;
  c.make_current();
  bool replayed = false;
  try {
    replayed = r.graph->replay(c, r.launches, r.n);
  } catch (...) {
    // The graph launch failed (a broken context): nothing of it ran. Free what waits.
    r.n = 0;
    queue_one_by_one(r, 0);
    throw;
  }
  if (replayed) {
    r.n = 0;
    queue_one_by_one(r, 0);  // only the frees remain
  } else {
    queue_one_by_one(r, 0);
  }
}

bool graphs_enabled() { return g_enabled.load(std::memory_order_relaxed); }
void set_graphs_enabled(bool enabled) { g_enabled.store(enabled, std::memory_order_relaxed); }

GraphStats graph_stats() {
  GraphStats s;
  s.graphs_built = g_counters.built.load(std::memory_order_relaxed);
  s.graph_launches = g_counters.launched.load(std::memory_order_relaxed);
  s.kernels_replayed = g_counters.kernels.load(std::memory_order_relaxed);
  s.nodes_rebound = g_counters.rebound.load(std::memory_order_relaxed);
  s.kernels_unrecorded = g_counters.unrecorded.load(std::memory_order_relaxed);
  s.enabled = graphs_enabled();
  return s;
}

void reset_graph_stats() {
  g_counters.built.store(0, std::memory_order_relaxed);
  g_counters.launched.store(0, std::memory_order_relaxed);
  g_counters.kernels.store(0, std::memory_order_relaxed);
  g_counters.rebound.store(0, std::memory_order_relaxed);
  g_counters.unrecorded.store(0, std::memory_order_relaxed);
}

}  // namespace accel::cuda
