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

// Relaxed atomics: the counters order nothing, they only count. Inline (defined in
// eval_stats.cpp): counting is on every dispatch, a call per count would be measurable.
extern std::atomic<uint64_t> g_groups_run;
extern std::atomic<uint64_t> g_nodes_run;
extern std::atomic<uint64_t> g_outputs_written;

inline void count_group(const Group& g) {
  g_groups_run.fetch_add(1, std::memory_order_relaxed);
  g_nodes_run.fetch_add(g.steps.size(), std::memory_order_relaxed);
  g_outputs_written.fetch_add(g.outputs.size(), std::memory_order_relaxed);
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
