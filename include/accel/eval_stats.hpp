// Counters of the work the evaluator has done.
//
// Laziness is a promise about cost as much as about results: a dropped pending array must cost
// nothing, a fused chain must run as one kernel, a shared intermediate must be computed once.
// These counters make those promises observable, for tests and benchmarks.
#pragma once

#include <cstdint>

namespace accel {

struct EvalStats {
  uint64_t groups_run = 0;       // groups (kernels) executed
  uint64_t nodes_run = 0;        // graph nodes computed, fused or not
  uint64_t outputs_written = 0;  // results written to memory; fused intermediates are not
  // Distinct group structures run (what compiled kernels depend on: ops, dtypes, wiring, ndim,
  // layout classes; never sizes or scalars), and runs of a structure seen before.
  uint64_t structures = 0;
  uint64_t structure_hits = 0;
  // Evaluations started early because pending work kept too much memory alive.
  uint64_t early_evaluations = 0;
  // Evaluations whose grouping came from the plan cache (the same pending-graph structure
  // planned before), and evaluations planned (a structure new to the cache, or not cacheable).
  uint64_t plan_cache_hits = 0;
  uint64_t plan_cache_misses = 0;
};

// The counts since the process started or since the last reset_eval_stats(), which also forgets
// the structures and plans seen.
EvalStats eval_stats();
void reset_eval_stats();

}  // namespace accel
