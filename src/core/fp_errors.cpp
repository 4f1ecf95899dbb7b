#include "src/core/fp_errors.hpp"

#include <atomic>

#include "accel/fp_errors.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define ACCEL_FP_MXCSR 1
#else
#include <cfenv>
#define ACCEL_FP_MXCSR 0
#endif

namespace accel {

namespace fp_errors {
// One thread-local (plain data: no guard), reached once per function: the library is dlopen'ed,
// so each thread-local reached costs a call to __tls_get_addr.
struct ThreadErrors {
  FpErrors noted;   // errors noted on this thread (attributed, or from workers)
  int depth = 0;    // evaluations running on this thread
  FpErrors errors;  // what the outermost of them has gathered
};
}  // namespace fp_errors

namespace {

using fp_errors::ThreadErrors;
thread_local ThreadErrors t_state;

std::atomic<FpErrorReport> g_report{nullptr};

#if ACCEL_FP_MXCSR
// The SSE control/status register: the loops' arithmetic (scalar and vector) is SSE/AVX on
// x86-64, and its sticky flags are IE (0x01), ZE (0x04), OE (0x08), UE (0x10); DE and PE (denormal
// operand, inexact) are not NumPy errors. Reading it is one instruction; it is written (the flags
// cleared, the rounding mode and masks kept) only when a flag is set. glibc's fetestexcept and
// feclearexcept also save and reload the x87 environment, which no loop here uses.
unsigned hardware_flags() {
  const unsigned csr = _mm_getcsr();
  const unsigned set = csr & 0x1du;
  if (!set) return 0;
  _mm_setcsr(csr & ~0x3fu);
  return ((set & 0x04u) ? kFpDivideByZero : 0u) | ((set & 0x08u) ? kFpOverflow : 0u) |
         ((set & 0x10u) ? kFpUnderflow : 0u) | ((set & 0x01u) ? kFpInvalid : 0u);
}
void set_hardware_flags(unsigned flags) {
  _mm_setcsr(_mm_getcsr() | ((flags & kFpDivideByZero) ? 0x04u : 0u) |
             ((flags & kFpOverflow) ? 0x08u : 0u) | ((flags & kFpUnderflow) ? 0x10u : 0u) |
             ((flags & kFpInvalid) ? 0x01u : 0u));
}
#else
void set_hardware_flags(unsigned flags) {
  std::feraiseexcept(
      ((flags & kFpDivideByZero) ? FE_DIVBYZERO : 0) | ((flags & kFpOverflow) ? FE_OVERFLOW : 0) |
      ((flags & kFpUnderflow) ? FE_UNDERFLOW : 0) | ((flags & kFpInvalid) ? FE_INVALID : 0));
}
unsigned hardware_flags() {
  const int set = std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  if (!set) return 0;
  std::feclearexcept(FE_ALL_EXCEPT);
  return ((set & FE_DIVBYZERO) ? kFpDivideByZero : 0u) | ((set & FE_OVERFLOW) ? kFpOverflow : 0u) |
         ((set & FE_UNDERFLOW) ? kFpUnderflow : 0u) | ((set & FE_INVALID) ? kFpInvalid : 0u);
}
#endif

// The flags NumPy reports for an operation: the op table's fp column.
unsigned reportable(OpKind op) {
  switch (op_info(op).fp) {
    case FpReport::NoFpe:
      return 0;
    case FpReport::Fpe:
      return kFpOverflow | kFpUnderflow | kFpInvalid;
    case FpReport::FpeDiv:
      return kFpDivideByZero | kFpOverflow | kFpUnderflow | kFpInvalid;
  }
  return 0;
}

// A cast to the same dtype: a copy, which raises nothing.
bool is_copy(const Node& node) {
  return node.op == OpKind::Cast && !node.inputs.empty() && !node.inputs[0].is_scalar() &&
         node.inputs[0].array.dtype() == node.dtype;
}

}  // namespace

void set_fp_error_report(FpErrorReport report) { g_report.store(report); }

unsigned take_fp_flags() { return hardware_flags(); }

void raise_fp_flags(unsigned flags) {
  if (flags) set_hardware_flags(flags);
}

FpErrors take_fp_errors() {
  ThreadErrors& t = t_state;
  FpErrors errors = t.noted;
  t.noted = FpErrors();
  FpErrors raised;
  raised.flags = hardware_flags();
  errors.merge(raised);
  return errors;
}

void note_fp_errors(const FpErrors& errors) { t_state.noted.merge(errors); }

namespace fp_errors {

// Every small operation computed at its call opens a scope and notes its group: when nothing was
// raised (almost always), each reads the hardware flags once and copies no FpErrors.
EvaluationScope::EvaluationScope() : t_(&t_state) {
  ThreadErrors& t = *t_;
  if (t.depth++ == 0) {
    // What ran before is not this evaluation's business: dropped.
    if (t.noted.flags) t.noted = FpErrors();
    hardware_flags();
    if (t.errors.flags) t.errors = FpErrors();
  }
}

EvaluationScope::~EvaluationScope() { --t_->depth; }

void EvaluationScope::finish() {
  ThreadErrors& t = *t_;
  if (t.depth != 1 || !t.errors.flags) return;
  const FpErrors errors = t.errors;
  t.errors = FpErrors();
  if (const FpErrorReport report = g_report.load()) report(errors);
}

void note_step(const Node& node) {
  const unsigned raised = hardware_flags();
  if (!raised) return;
  FpErrors errors;
  // A copy raises nothing itself: what was raised before it (a reduction's loop between two
  // blocks) is left for note_group to attribute.
  if (is_copy(node)) {
    errors.flags = raised;
    t_state.noted.merge(errors);
    return;
  }
  errors.flags = raised & reportable(node.op);
  for (int bit = 0; bit < kFpErrorKinds; ++bit) {
    if (errors.flags & (1u << bit)) errors.ops[bit] = op_name(node.op);
  }
  t_state.noted.merge(errors);
}

void note_unattributed() {
  FpErrors errors;
  errors.flags = hardware_flags();
  if (errors.flags) t_state.noted.merge(errors);
}

void note_group(const Group& g) {
  ThreadErrors& t = t_state;
  const unsigned hardware = hardware_flags();
  if (!hardware && !t.noted.flags) return;
  FpErrors raised = t.noted;
  t.noted = FpErrors();
  FpErrors from_hardware;
  from_hardware.flags = hardware;
  raised.merge(from_hardware);
  // A GPU's kernels raise no host flags; what its host code raised is not the ops' doing.
  if (!raised.flags || t.depth == 0 || !g.device.is_cpu()) return;
  // Flags no step took (raised outside the block evaluator: a reduction's loop, a row group's
  // per-row steps) go to the last step that can raise them, copies aside (a reduction
  // group's reduction; a row group's copy of its reduction's result is not the culprit); none:
  // dropped (a maximum's comparisons of NaN).
  for (int bit = 0; bit < kFpErrorKinds; ++bit) {
    const unsigned mask = 1u << bit;
    if (!(raised.flags & mask) || raised.ops[bit]) continue;
    raised.flags &= ~mask;
    for (auto step = g.steps.rbegin(); step != g.steps.rend(); ++step) {
      if (is_copy(*step->node)) continue;
      if (reportable(step->node->op) & mask) {
        raised.flags |= mask;
        raised.ops[bit] = op_name(step->node->op);
        break;
      }
    }
  }
  t.errors.merge(raised);
}

LibraryOpScope::LibraryOpScope(OpKind op, const char* name, const Device& device)
    : before_(take_fp_errors()), op_(op), name_(name), cpu_(device.is_cpu()) {}

void LibraryOpScope::finish() {
  FpErrors raised;
  // A GPU's kernels raise no host flags; what its host code raised is not the op's doing.
  raised.flags = take_fp_errors().flags & (cpu_ ? reportable(op_) : 0u);
  for (int bit = 0; bit < kFpErrorKinds; ++bit) {
    if (raised.flags & (1u << bit)) raised.ops[bit] = name_;
  }
  ThreadErrors& t = t_state;
  t.noted.merge(before_);
  t.errors.merge(raised);
  scope_.finish();
}

void report_at_call(unsigned flags, const char* name) {
  EvaluationScope scope;
  FpErrors errors;
  errors.flags = flags;
  for (int bit = 0; bit < kFpErrorKinds; ++bit) {
    if (flags & (1u << bit)) errors.ops[bit] = name;
  }
  t_state.errors.merge(errors);
  scope.finish();
}

}  // namespace fp_errors

}  // namespace accel
