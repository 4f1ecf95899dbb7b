// What the evaluator records about the groups it runs, kept apart from evaluation itself: the
// work counters (eval_stats), the group structures seen (eval_stats.cpp) and the fusion debug log
// (fusion_log.cpp). The evaluator calls note_group_run() once per group it has run.
#pragma once

#include <atomic>
#include <cstdint>

#include "accel/fusion.hpp"
#include "src/core/backend.hpp"
#include "src/core/group.hpp"

namespace accel::instrumentation {

// The work counters of one thread, which alone writes them: a count is a plain load and store
// (a locked read-modify-write per count, three per group, was a measurable share of a small
// operation computed at its call), and eval_stats() sums the threads' counters (eval_stats.cpp
// registers them on the thread's first count, until the thread ends). Plain data, constant
// initialized: reaching it needs no guard. Inline: counting is on every dispatch.
struct ThreadCounters {
  std::atomic<uint64_t> groups_run{0};
  std::atomic<uint64_t> nodes_run{0};
  std::atomic<uint64_t> outputs_written{0};
  bool registered = false;
};
inline thread_local ThreadCounters t_counters;
void register_thread_counters();

inline void add(std::atomic<uint64_t>& counter, uint64_t n) {
  counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

inline void count_group(const Group& g) {
  ThreadCounters& c = t_counters;
  if (!c.registered) [[unlikely]]
    register_thread_counters();
  add(c.groups_run, 1);
  add(c.nodes_run, g.steps.size());
  add(c.outputs_written, g.outputs.size());
}

// How an operand covers a group's iteration space: 0 contiguous, 1 broadcast from one element,
// 2 strided. Part of a group's structure, and of its line in the fusion log.
int layout_class(const Array& a, const Shape& space);

// Records the group's structure; returns whether it had run before.
bool note_structure(const Group& g);

// Sends the group (run by `backend`) to the fusion logger; called only while fusion_logging().
void log_group(Backend& backend, const Group& g, bool structure_seen);

// Everything the evaluator records about a group it has just run.
inline void note_group_run(Backend& backend, const Group& g) {
  count_group(g);
  const bool seen = note_structure(g);
  if (fusion_logging()) log_group(backend, g, seen);
}

}  // namespace accel::instrumentation
