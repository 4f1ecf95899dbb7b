// The CPU's block evaluator for the elementwise steps of a group.
//
// A group's iteration space is walked in blocks of at most kBlock elements along a linear
// index. For each block, array inputs that are contiguous along that index are read in place;
// others (strided, broadcast, transposed) are gathered into a small buffer, except an input
// broadcast from one element (a 0-d array's value), whose buffer of copies is filled once per
// thread and evaluation, not per block; then every step
// runs its precompiled loop over the whole block, and results that the group writes out go
// straight to their destination when it is contiguous, else are scattered. A step's buffer is
// reused once its last reader has run, so a chain of any length works in a few buffers that
// stay in L1/L2; a binary step with a scalar operand takes it by value (no buffer of copies).
// What depends only on the group's structure (each step's loop, where its operands come from,
// the buffers' places) is compiled once and kept in the group's plan-cache slot (Group::slot):
// a loop body that replays its plan binds the compiled program to the new arrays and scalars.
// Reductions (reduce.cpp) use the same evaluator to produce the values they consume, so a
// chain of elementwise ops feeding a reduction never touches memory in between.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/core/group.hpp"
#include "src/cpu/layout.hpp"
#include "src/cpu/loops.hpp"

namespace accel::cpu {

inline constexpr int64_t kBlock = 2048;
// Groups writing at least this many bytes store their results with non-temporal stores.
inline constexpr int64_t kStreamBytes = int64_t(32) << 20;

class Program {
 public:
  // Runs steps [0, num_steps) of `group`; pass group.steps.size() for a pure elementwise group
  // and one less for a reduction group (whose last step reduces). Reuses the compiled program
  // in the group's slot when it was compiled for the same structure, else compiles (and keeps
  // the result there).
  Program(const Group& group, int num_steps, Layout layout);

  // Per-thread working memory for one program; its buffers live in thread-local memory.
  struct Scratch {
    char* memory = nullptr;
    SmallVector<const char*, 8> values;  // per step: its results for the current block
    SmallVector<const char*, 8> inputs;  // per input: its values for the current block
  };

  // Evaluates linear indices [start, start + n), n <= kBlock, writing the group's outputs that
  // belong to these steps.
  void run(int64_t start, int64_t n, Scratch& scratch) const;

  // The values of a step argument for the block last run (contiguous, n elements).
  const char* values(const StepArg& arg, Scratch& scratch) const;

  int64_t size() const { return size_; }

  // The compiled part: what the steps read and write, and where, independent of the arrays,
  // sizes and scalar values of one evaluation (program.cpp).
  struct Compiled;

 private:
  struct Operand {
    const char* base;
    size_t itemsize;
    Strides strides;         // in elements
    bool contiguous;         // strides are the C-order strides of the layout's shape
    bool broadcast = false;  // every stride is 0: one element, its block filled once
  };

  void prepare(Scratch& scratch) const;

  const Group& group_;
  Shape shape_;
  int64_t size_;
  std::vector<Operand> inputs_;
  std::vector<Operand> outputs_;
  Operand index_;
  bool stream_ = false;  // results go out with non-temporal stores
  std::shared_ptr<const Compiled> compiled_;
};

}  // namespace accel::cpu
