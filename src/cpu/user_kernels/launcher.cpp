#include "src/cpu/user_kernels/launcher.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "accel/errors.hpp"
#include "src/cpu/thread_pool.hpp"
#include "src/cpu/user_kernels/fibers.hpp"

namespace accel::cpu::user_kernels {

namespace {

// What failed in the current launch (the first message), for the error after the grid.
struct Failure {
  std::mutex mu;
  std::string message;
  bool out_of_bounds = false;
  std::atomic<bool> failed{false};
};
Failure* g_failure = nullptr;  // the launch in progress (launches are serialised)
const Launch* g_launch = nullptr;
std::mutex g_launch_mu;

void record_failure(const std::string& msg, bool out_of_bounds = false) {
  if (!g_failure) return;
  std::lock_guard<std::mutex> lock(g_failure->mu);
  if (!g_failure->failed.exchange(true)) {
    g_failure->message = msg;
    g_failure->out_of_bounds = out_of_bounds;
  }
}

std::string coords(const Uint3& v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

// One block's fibers on this OS thread.
struct Block {
  std::vector<ThreadState> threads;
  std::vector<FiberContext> contexts;
  std::vector<char> done;
  // Threads at a __syncthreads stay there, while others run on to a barrier or a warp primitive
  // (a warp's shuffles may take several rounds), until every live thread waits at one.
  std::vector<char> waiting;
  size_t nwaiting = 0;
  FiberContext scheduler;
  const Launch* launch = nullptr;
  bool trapped = false;
  bool checked = false;
  size_t round = 0;
  int barrier_line = -1;  // the __syncthreads line the first waiting thread of the round is at
  // Warp exchanges: 8 bytes per lane, by round parity (a round's deposits are read in the next
  // round while that round's deposits go to the other half), and which lanes deposited.
  std::vector<uint64_t> lanes[2];
  std::vector<unsigned> live[2];
};

// Hands control from thread `linear` to the next live thread of the round, or back to the
// scheduler after the last one: one switch per thread and round rather than two.
void yield_from(Block* b, size_t linear) {
  const size_t n = b->done.size();
  size_t k = linear + 1;
  while (k < n && (b->done[k] || b->waiting[k])) ++k;
  fiber_switch(b->contexts[linear], k < n && !b->trapped ? b->contexts[k] : b->scheduler);
}

void fiber_main(void* arg) {
  auto* t = static_cast<ThreadState*>(arg);
  auto* b = static_cast<Block*>(t->block);
  if (b->launch->info->run_thread(t, b->launch->args) != 0) b->trapped = true;
  b->done[t->linear] = 1;
  yield_from(b, t->linear);
}

// The checked mode's test at a barrier (out of line: rt_sync's frame stays small).
__attribute__((noinline, cold)) void check_barrier(Block* b, ThreadState* self, int line) {
  if (b->barrier_line < 0) {
    b->barrier_line = line;
  } else if (b->barrier_line != line) {
    record_failure("barrier divergence: in block " + coords(self->block_idx) +
                   " threads wait at __syncthreads on different lines (" +
                   std::to_string(b->barrier_line) + " and " + std::to_string(line) + ")");
  }
}

__attribute__((noinline, cold)) void no_fibers(const char* what) {
  record_failure(std::string(what) + " was reached in a kernel run without fibers");
}

// Every thread of a block passes here at every barrier: a small frame, the rest out of line.
void rt_sync(ThreadState* self, int line) {
  auto* b = static_cast<Block*>(self->block);
  if (__builtin_expect(b == nullptr, 0)) return no_fibers("__syncthreads");
  if (__builtin_expect(b->checked, 0)) check_barrier(b, self, line);
  b->waiting[self->linear] = 1;
  ++b->nwaiting;
  yield_from(b, self->linear);
}

unsigned rt_warp_exchange(ThreadState* self, const void* in, unsigned bytes, void* out) {
  auto* b = static_cast<Block*>(self->block);
  if (!b) {
    no_fibers("a warp primitive");
    return 0;
  }
  const size_t parity = b->round & 1, warp = self->linear >> 5, lane = self->linear & 31;
  std::memcpy(&b->lanes[parity][warp * 32 + lane], in, bytes);
  b->live[parity][warp] |= 1u << lane;
  yield_from(b, self->linear);
  for (size_t i = 0; i < 32; ++i) {
    std::memcpy(static_cast<char*>(out) + i * bytes, &b->lanes[parity][warp * 32 + i], bytes);
  }
  return b->live[parity][warp];
}

void rt_fail(const char* message) { record_failure(message); }

void rt_out_of_bounds(ThreadState* self, unsigned arg, long long index, long long count) {
  const std::vector<std::string>* names = g_launch ? g_launch->param_names : nullptr;
  std::string what = "argument " + std::to_string(arg);
  if (names && arg < names->size()) what += " ('" + (*names)[arg] + "')";
  record_failure(what + ": index " + std::to_string(index) + " is out of bounds for its " +
                     std::to_string(count) + " elements (thread " + coords(self->thread_idx) +
                     " of block " + coords(self->block_idx) + ")",
                 true);
}

const Runtime kRuntime = {&rt_sync, &rt_warp_exchange, &rt_fail, &rt_out_of_bounds};

// Per OS thread: the fibers' stacks and the dynamic shared memory, reused across launches.
struct WorkerState {
  FiberStacks stacks;
  std::unique_ptr<uint64_t[]> shared;  // 8-byte aligned (16 through the allocator)
  size_t shared_bytes = 0;
  Block block;
};
thread_local WorkerState t_worker;

char* dynamic_shared(size_t bytes) {
  WorkerState& w = t_worker;
  if (bytes > w.shared_bytes) {
    w.shared.reset(new uint64_t[(bytes + 7) / 8 + 2]);
    w.shared_bytes = bytes;
  }
  return reinterpret_cast<char*>(w.shared.get());
}

void run_block_fibers(const Launch& l, ThreadState proto, size_t nthreads) {
  WorkerState& w = t_worker;
  Block& b = w.block;
  w.stacks.reserve(nthreads);
  b.launch = &l;
  b.trapped = false;
  b.checked = l.checked;
  b.threads.assign(nthreads, proto);
  b.contexts.resize(nthreads);
  b.done.assign(nthreads, 0);
  b.waiting.assign(nthreads, 0);
  b.nwaiting = 0;
  b.barrier_line = -1;
  const size_t warps = (nthreads + 31) / 32;
  for (int p = 0; p < 2; ++p) {
    b.lanes[p].assign(warps * 32, 0);
    b.live[p].assign(warps, 0);
  }
  size_t i = 0;
  for (unsigned z = 0; z < l.block[2]; ++z) {
    for (unsigned y = 0; y < l.block[1]; ++y) {
      for (unsigned x = 0; x < l.block[0]; ++x, ++i) {
        ThreadState& t = b.threads[i];
        t.thread_idx = {x, y, z};
        t.linear = unsigned(i);
        t.block = &b;
        fiber_init(b.contexts[i], w.stacks.bottom(i), w.stacks.top(i), &fiber_main, &t);
      }
    }
  }
  // Each round starts at the first live thread; the threads pass control along (yield_from).
  // The barrier opens when every live thread waits at it.
  for (b.round = 0; !b.trapped; ++b.round) {
    const size_t live = size_t(std::count(b.done.begin(), b.done.end(), 0));
    if (live == 0) break;
    if (b.nwaiting == live) {
      std::fill(b.waiting.begin(), b.waiting.end(), 0);
      b.nwaiting = 0;
      b.barrier_line = -1;
    }
    size_t first = 0;
    while (first < nthreads && (b.done[first] || b.waiting[first])) ++first;
    if (first == nthreads) break;
    std::fill(b.live[b.round & 1].begin(), b.live[b.round & 1].end(), 0u);
    fiber_switch(b.scheduler, b.contexts[first]);
  }
}

}  // namespace

const Runtime& runtime() { return kRuntime; }

void run_grid(const Launch& l) {
  std::lock_guard<std::mutex> serial(g_launch_mu);
  Failure failure;
  g_failure = &failure;
  g_launch = &l;
  const int64_t gx = l.grid[0], gy = l.grid[1], gz = l.grid[2];
  const int64_t blocks = gx * gy * gz;
  const size_t nthreads = size_t(l.block[0]) * l.block[1] * l.block[2];
  // Blocks are handed out in runs from a shared counter rather than split in equal parts: on a
  // machine whose cores other processes also use (or for blocks of unequal work) a worker that
  // runs late takes fewer runs instead of holding up the launch. About 16 runs per worker.
  const int workers = int(std::max<int64_t>(1, std::min<int64_t>(blocks, num_threads())));
  const int64_t run = std::max<int64_t>(1, blocks / (int64_t(workers) * 16));
  std::atomic<int64_t> next{0};
  try {
    parallel_for(workers, 1, [&](int64_t, int64_t, int) {
      ThreadState t{};
      t.block_dim = {l.block[0], l.block[1], l.block[2]};
      t.grid_dim = {l.grid[0], l.grid[1], l.grid[2]};
      t.dyn_shared = dynamic_shared(l.shared_mem);
      t.bounds = l.bounds;
      for (;;) {
        const int64_t begin = next.fetch_add(run, std::memory_order_relaxed);
        if (begin >= blocks) break;
        const int64_t end = std::min(blocks, begin + run);
        for (int64_t id = begin; id < end && !failure.failed.load(std::memory_order_relaxed);
             ++id) {
          t.block_idx = {unsigned(id % gx), unsigned(id / gx % gy), unsigned(id / (gx * gy))};
          if (l.fibers) {
            run_block_fibers(l, t, nthreads);
          } else {
            t.block = nullptr;
            l.info->run_block(&t, l.args);
          }
        }
      }
    });
  } catch (...) {
    g_failure = nullptr;
    g_launch = nullptr;
    throw;
  }
  g_failure = nullptr;
  g_launch = nullptr;
  std::fflush(stdout);  // the kernel's printf, before the caller prints more
  if (failure.failed && failure.out_of_bounds) {
    throw IndexError("kernel '" + std::string(l.name) + "': " + failure.message);
  }
  if (failure.failed) {
    throw Error("kernel '" + std::string(l.name) + "' failed on the CPU: " + failure.message);
  }
}

}  // namespace accel::cpu::user_kernels
