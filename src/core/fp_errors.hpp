// The evaluator's side of floating-point error reporting (accel/fp_errors.hpp): which operation
// of a group an IEEE flag is attributed to, and one report per outermost evaluation.
#pragma once

#include "accel/fp_errors.hpp"
#include "src/core/group.hpp"

namespace accel::fp_errors {

struct ThreadErrors;  // the thread's state (fp_errors.cpp)

// Marks an evaluation on this thread. The outermost one clears the thread's flags when it starts
// (what ran before is not its business) and reports what its groups raised at finish(), once:
// nested evaluations (inputs evaluated while an evaluation runs) add to the outer one's report.
// An evaluation that throws reports nothing.
class EvaluationScope {
 public:
  EvaluationScope();
  ~EvaluationScope();
  // Hands the errors gathered to the host's report (which may throw) when this is the outermost
  // scope; nothing otherwise.
  void finish();
  EvaluationScope(const EvaluationScope&) = delete;
  EvaluationScope& operator=(const EvaluationScope&) = delete;

 private:
  ThreadErrors* t_;  // kept: the library's thread-locals cost a __tls_get_addr call each
};

// Reports a library operation run eagerly outside the evaluator's groups (a backend's scan) as
// NumPy reports its ufunc method: the flags the operation `op` can raise, raised on the CPU
// between construction and finish() (on this thread and the thread pool's workers), are
// attributed to `name` ("accumulate", "reduce") and reported once, as an evaluation of its own
// (or added to the enclosing evaluation's). Flags raised before it are kept apart.
class LibraryOpScope {
 public:
  LibraryOpScope(OpKind op, const char* name, const Device& device);
  // Adds what was raised to the evaluation's errors and reports them (may throw: the result is
  // computed by then).
  void finish();
  LibraryOpScope(const LibraryOpScope&) = delete;
  LibraryOpScope& operator=(const LibraryOpScope&) = delete;

 private:
  EvaluationScope scope_;
  FpErrors before_;  // what this thread had noted and raised before the operation
  OpKind op_;
  const char* name_;
  bool cpu_;
};

// Reports errors of host arithmetic done at an operation's call, outside any evaluation (a
// Python number cast to the operation's dtype), attributed to `name`: reported at once, as an
// evaluation of their own (or added to the enclosing evaluation's).
void report_at_call(unsigned flags, const char* name);

// Attributes the flags raised since the last call to the step `node` whose loop just ran over a
// block (the CPU's block evaluator calls it after every step: one register read), as NumPy
// reports them for that operation; flags the operation does not report (a comparison's ordered
// test of a NaN, a maximum's) are dropped.
void note_step(const Node& node);
// Sets the flags raised since the last note_step apart, not attributed to any step (note_group
// attributes them).
void note_unattributed();

// Adds what group `g` raised (on this thread and, through the thread pool, on its workers) to
// the evaluation's errors; flags raised outside the block evaluator are attributed to the last
// step that can raise them.
void note_group(const Group& g);

}  // namespace accel::fp_errors
