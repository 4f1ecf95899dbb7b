// Floating-point errors of accelpy's own arithmetic (NumPy's "floating point error handling"):
// the IEEE status flags that the CPU's loops raise (division by zero, overflow, underflow,
// invalid), gathered per evaluation and handed once to the host environment, which applies its
// error modes (the Python bindings: numpy.geterr()).
//
// Cost: the flags are sticky bits of each thread's floating-point environment, so loops do not
// test anything per element. The thread pool reads and clears its workers' flags once per task
// and hands them to the evaluating thread; the evaluator reads the evaluating thread's flags once
// per group (a register read, cleared only when set).
#pragma once

namespace accel {

// NumPy's NPY_FPE_* values, so that a mask is what numpy.seterrcall's callbacks receive.
enum FpError : unsigned {
  kFpDivideByZero = 1,
  kFpOverflow = 2,
  kFpUnderflow = 4,
  kFpInvalid = 8,
};
inline constexpr int kFpErrorKinds = 4;

// Errors raised: a mask of FpError, and for each error (by bit index) the name of the
// operation it is attributed to (op_name() of src/core/graph.hpp), or null while not known.
struct FpErrors {
  unsigned flags = 0;
  const char* ops[kFpErrorKinds] = {};

  // Adds `other`'s errors; an error already here keeps its operation unless that is not known.
  void merge(const FpErrors& other) {
    for (int bit = 0; bit < kFpErrorKinds; ++bit) {
      if (!(other.flags & (1u << bit))) continue;
      if (!(flags & (1u << bit)) || !ops[bit]) ops[bit] = other.ops[bit];
    }
    flags |= other.flags;
  }
};

// How the host environment reports an evaluation's errors: called once, on the evaluating
// thread, after the evaluation has completed, when `flags` is not 0. It may throw (numpy's
// 'raise' mode): the results are computed by then.
using FpErrorReport = void (*)(const FpErrors& errors);
void set_fp_error_report(FpErrorReport report);

// The calling thread's IEEE flags as a mask of FpError (cleared; read and written only when
// set), not attributed to any operation.
unsigned take_fp_flags();
// Sets these flags (a mask of FpError) in the calling thread's status register, as the
// arithmetic that raises them would.
void raise_fp_flags(unsigned flags);
// The errors noted on the calling thread (note_fp_errors) together with its flags
// (take_fp_flags); both are cleared.
FpErrors take_fp_errors();
// Adds errors to the calling thread's: a loop's attributed flags, or what a worker thread of the
// thread pool raised, handed to the thread that runs the parallel loop.
void note_fp_errors(const FpErrors& errors);

}  // namespace accel
