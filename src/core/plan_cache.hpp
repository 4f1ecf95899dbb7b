// Plans cached by the structure of the pending graph: a loop body that builds the same graph
// again (the same ops, dtypes, shape classes, reference, aliasing and scalar-equality pattern)
// gets the groups planned the first time, without common-subexpression elimination or grouping.
//
// The key is everything the planner (cse.cpp, planner.cpp's form_groups) reads, so a hit yields
// exactly the groups planning would: per node in the plan's (topological) order its op, output
// and compute dtypes, device, parameters, shape class and whether it is referenced from outside
// (or is the evaluation's redirected target); per operand either "a scalar" with the index of
// the first equal scalar (CSE merges equal scalars, the planner never reads their values) or
// "an array" with its producer's plan index, dtype, shape class, whether it is laid out as its
// producer writes it (offset 0, row-major), whether it is broadcast from one element, and the
// index of the first operand viewing the same memory the same way. A shape class is the index of
// the first equal shape in the plan, with the number of dimensions: the planner compares shapes
// only with each other, so the same loop over other sizes reuses the plan. The key holds every
// fact CSE compares (shapes by class, views by equality, scalars by equal bits), so CSE merges
// the same nodes under the same key: a cached plan keeps its merges and replays them.
//
// The entry is the grouping only (which plan nodes form which group, which results are
// written); groups are built from the current nodes each time, since arrays, sizes and scalar
// values change between iterations. The entry also holds what the backend keeps for the plan
// (the CUDA backend's graph of its launches: src/cuda/graphs.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "src/core/backend.hpp"
#include "src/core/plan.hpp"

namespace accel::plan {

struct PlanKey {
  std::vector<uint64_t> words;  // the structure, word by word (compared on a hit)
  uint64_t hash = 0;
  bool cacheable = false;  // false for plans too large to key cheaply
};

// One group of a cached plan: its kind, the plan node that started it (whose shape and device
// it iterates over) and its members (plan indices).
struct CachedGroup {
  Group::Kind kind;
  int origin;  // the member whose shape is the group's (a reduction's input's, for reductions)
  std::vector<int> members;
  uint64_t row_axes = 0;                        // Rows: the reduced axes
  std::shared_ptr<BackendSlot> slot = nullptr;  // the backend's state (Group::slot)
};

struct CachedPlan {
  std::vector<CachedGroup> groups;          // in the order form_groups returned them
  std::vector<int> node_group;              // per plan node
  std::vector<char> materialize;            // per plan node
  std::vector<std::pair<int, int>> merges;  // CSE's (duplicate, representative), in order made
  // The backend's own state for this plan (a recorded CUDA graph), filled by the backend that
  // runs it (Backend::begin_cached_run); mutable: the grouping stays as planned.
  mutable std::unique_ptr<CachedPlanState> backend_state;
};

// analyze_references, and the key of the plan, in one walk over its operands. `keep`: the
// target the caller redirects (evaluate_into), or null.
void analyze_and_key(std::span<Storage* const> targets, Plan& plan, bool fusion,
                     const Storage* keep, PlanKey& key);

// The cached grouping for `key`, or null (counts a hit or a miss).
const CachedPlan* find_plan(const PlanKey& key);

// Remembers the merges CSE made in `plan` and the groups form_groups made, and gives the
// drafts the cached groups' backend slots.
void remember_plan(const PlanKey& key, const Plan& plan, std::vector<GroupDraft>& drafts);

// The cached plan's merges applied to this plan, and its drafts for this plan's nodes (setting
// their group and materialize marks, as form_groups would), written over `drafts` (whose
// vectors keep their capacity).
void replay(const CachedPlan& cached, Plan& plan, std::vector<GroupDraft>& drafts);

// Plans found in the cache and plans made (and offered to it) since the last reset.
uint64_t plan_cache_hits();
uint64_t plan_cache_misses();
// Forgets every cached plan (of every thread) and sets the counters to zero.
void reset_plan_cache();

}  // namespace accel::plan
