// The evaluator's counters and the group structures it has run (accel/eval_stats.hpp).
//
// A group's structure is what a compiled kernel depends on: ops, dtypes, how steps are wired,
// the number of dimensions and each operand's layout class; never sizes, strides or scalar
// values. The CUDA backend keys its kernel cache by (a refinement of) it; the evaluator counts
// the distinct structures it has run, which on any backend bounds the kernels a program needs.
#include "accel/eval_stats.hpp"

#include <algorithm>
#include <iterator>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "src/core/eval_instrumentation.hpp"
#include "src/core/graph.hpp"
#include "src/core/pending_memory.hpp"
#include "src/core/plan_cache.hpp"
#include "src/core/word_hash.hpp"

namespace accel {
namespace instrumentation {

namespace {

// The threads' work counters (ThreadCounters): those of live threads, what ended threads counted,
// and the sums at the last reset, which eval_stats() subtracts (a reset writes no thread's
// counters, which only their threads write).
struct CounterRegistry {
  std::mutex mutex;
  std::vector<ThreadCounters*> live;
  uint64_t ended[3] = {};
  uint64_t at_reset[3] = {};

  // Every thread's counts, ended threads' included; under the mutex.
  void sums(uint64_t out[3]) const {
    for (int i = 0; i < 3; ++i) out[i] = ended[i];
    for (const ThreadCounters* c : live) {
      out[0] += c->groups_run.load(std::memory_order_relaxed);
      out[1] += c->nodes_run.load(std::memory_order_relaxed);
      out[2] += c->outputs_written.load(std::memory_order_relaxed);
    }
  }
};
CounterRegistry& counter_registry() {
  static auto* r = new CounterRegistry;  // outlives every thread
  return *r;
}

// Registered while its thread lives: made by the thread's first count, and at the thread's end
// adds its counts to the ended threads' and unregisters them.
struct CountersRegistration {
  CountersRegistration() {
    CounterRegistry& r = counter_registry();
    std::lock_guard lock(r.mutex);
    r.live.push_back(&t_counters);
  }
  ~CountersRegistration() {
    CounterRegistry& r = counter_registry();
    std::lock_guard lock(r.mutex);
    r.ended[0] += t_counters.groups_run.load(std::memory_order_relaxed);
    r.ended[1] += t_counters.nodes_run.load(std::memory_order_relaxed);
    r.ended[2] += t_counters.outputs_written.load(std::memory_order_relaxed);
    r.live.erase(std::find(r.live.begin(), r.live.end(), &t_counters));
  }
  CountersRegistration(const CountersRegistration&) = delete;
  CountersRegistration& operator=(const CountersRegistration&) = delete;
};

std::atomic<uint64_t> g_structure_hits{0};

struct StructureSet {
  std::mutex mutex;
  std::unordered_set<uint64_t> seen;
};
StructureSet& structures() {
  static auto* s = new StructureSet;
  return *s;
}

// Bumped when the set is cleared, so that a thread's remembered structure is forgotten.
std::atomic<uint64_t> g_structures_generation{0};

uint64_t structure_of(const Group& g) {
  WordHash f;
  f.add(uint64_t(g.kind));
  f.add(g.row_axes);
  f.add(uint64_t(g.device.type));
  f.add(g.shape.size());
  for (const Array& in : g.inputs) {
    f.add(uint64_t(in.dtype()));
    f.add(layout_class(in, g.shape));
  }
  for (const GroupOutput& o : g.outputs) {
    f.add(uint64_t(o.dest.dtype()));
    f.add(uint64_t(o.step));
    f.add(o.dest.shape() == g.shape ? layout_class(o.dest, g.shape) : 3);
  }
  for (const Step& st : g.steps) {
    f.add(uint64_t(st.node->op));
    f.add(uint64_t(st.node->dtype));
    f.add(st.node->params.axes);
    f.add(uint64_t(st.per_row));
    for (const StepArg& a : st.args) {
      f.add(uint64_t(a.kind));
      f.add(a.kind == StepArg::Scalar ? uint64_t(a.scalar->dtype) : uint64_t(a.index));
    }
    if (g.kind == Group::Kind::Single) {
      for (const Operand& in : st.node->inputs) f.add(in.is_scalar() ? 0 : in.array.ndim());
    }
  }
  return f.h;
}

}  // namespace

void register_thread_counters() {
  thread_local CountersRegistration registration;
  t_counters.registered = true;
}

int layout_class(const Array& a, const Shape& space) {
  const Strides& st = a.strides();
  if (std::all_of(st.begin(), st.end(), [](int64_t s) { return s == 0; })) return 1;
  return a.shape() == space && is_row_major(space, st) ? 0 : 2;
}

bool note_structure(const Group& g) {
  const uint64_t key = structure_of(g);
  // The structures this thread recorded last are known to be in the set (unless the set was
  // cleared since): a loop whose body runs a few groups in turn skips the lock and the lookup.
  thread_local uint64_t recent[4] = {};
  thread_local size_t next_recent = 0;
  thread_local uint64_t recent_generation = ~uint64_t(0);
  const uint64_t generation = g_structures_generation.load(std::memory_order_acquire);
  if (generation == recent_generation) {
    for (const uint64_t k : recent) {
      if (k == key) {
        g_structure_hits.fetch_add(1, std::memory_order_relaxed);
        return true;
      }
    }
  } else {
    std::fill(std::begin(recent), std::end(recent), key);
    recent_generation = generation;
  }
  StructureSet& s = structures();
  std::lock_guard lock(s.mutex);
  const bool seen = !s.seen.insert(key).second;
  if (seen) g_structure_hits.fetch_add(1, std::memory_order_relaxed);
  recent[next_recent++ % std::size(recent)] = key;
  return seen;
}

}  // namespace instrumentation

using namespace instrumentation;

EvalStats eval_stats() {
  EvalStats s;
  {
    CounterRegistry& r = counter_registry();
    std::lock_guard lock(r.mutex);
    uint64_t sums[3];
    r.sums(sums);
    s.groups_run = sums[0] - r.at_reset[0];
    s.nodes_run = sums[1] - r.at_reset[1];
    s.outputs_written = sums[2] - r.at_reset[2];
  }
  {
    StructureSet& st = structures();
    std::lock_guard lock(st.mutex);
    s.structures = st.seen.size();
  }
  s.structure_hits = g_structure_hits.load(std::memory_order_relaxed);
  s.early_evaluations = pending::early_evaluations();
  s.plan_cache_hits = plan::plan_cache_hits();
  s.plan_cache_misses = plan::plan_cache_misses();
  return s;
}

void reset_eval_stats() {
  {
    CounterRegistry& r = counter_registry();
    std::lock_guard lock(r.mutex);
    r.sums(r.at_reset);
  }
  g_structure_hits.store(0, std::memory_order_relaxed);
  {
    StructureSet& st = structures();
    std::lock_guard lock(st.mutex);
    st.seen.clear();
    g_structures_generation.fetch_add(1, std::memory_order_acq_rel);
  }
  pending::reset_early_evaluations();
  plan::reset_plan_cache();
}

}  // namespace accel
