// CUDA code generation: one kernel per Group (the same Group the CPU backend runs).
//
// make_plan() analyses a group: it merges dimensions every operand walks alike, classifies each
// operand (contiguous, broadcast, strided), picks 32- or 64-bit indexing and, for reductions, the
// strategy; size_reduction() then splits a reduction's work for its loaded kernel. The plan's
// `key` holds only that structure (ops, dtypes, dimension counts, operand classes, ...), never
// sizes or scalar values, so it selects a compiled kernel; the plan's run-time values travel in
// one parameter struct passed by value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "accel/cuda.hpp"
#include "src/core/backend.hpp"
#include "src/core/group.hpp"

namespace accel::cuda {

enum class Cls : uint8_t { Contig, Bcast, Strided };
// Rows: a Rows group (codegen_rows.cpp), a team of threads per row.
enum class Strategy : uint8_t { Elementwise, Inner, Outer, Rows };

struct PlanOperand {
  const char* ptr = nullptr;  // element 0, on the device
  DType dtype = DType::Bool;
  Cls cls = Cls::Strided;
  Strides kst;    // over the kept dims (reductions)
  Strides rst;    // over the iteration dims (elementwise) or the reduced dims
  int step = -1;  // a reduction's prologue output: the step whose value it receives
};

struct KernelPlan {
  const Group* group = nullptr;
  Strategy strategy = Strategy::Elementwise;
  Shape kshape, rshape;
  std::vector<PlanOperand> inputs, outputs;
  // Reductions: values of the prologue written from the reduction's own pass (the referenced
  // intermediates of the group), over kept (kst) and reduced (rst) dimensions like inputs.
  std::vector<PlanOperand> prologue_outputs;
  PlanOperand index;  // the logical flat index, for generators
  bool needs_index = false;
  bool idx64 = false;
  bool byref = false;  // parameters too large to pass by value (> 4 KB)
  // Elementwise.
  bool contiguous = false;  // every operand contiguous or broadcast: the vector path exists
  int vec = 1, unroll = 1;  // elements per vector access, vectors per thread and tile
  int aligned = 0;          // run time: every contiguous operand is vec-aligned
  bool outlined = false;    // contiguous: the body is a function the unrolled elements call
  int64_t n = 0;
  // Reductions (run time).
  int64_t outputs_n = 0, reduced_n = 0, chunk = 0;
  int splits = 1, tpo = 1;
  const void* partial = nullptr;   // splits > 1: partial_bytes(plan) of scratch
  const void* counters = nullptr;  // splits > 1: grid[0] zeros the kernel leaves zero
  // Rows (compile time, in the key): `tpo` threads per row, along x (threadIdx.x's low bits)
  // or, by_column, along y with 32 neighbouring rows per block; ept > 0: each thread keeps its
  // at most ept elements of the row in registers (the row read once), 0: every pass loops over
  // the row re-reading it.
  bool by_column = false;
  int ept = 0;
  // Launch geometry.
  unsigned grid[3] = {1, 1, 1}, block[3] = {256, 1, 1};

  std::string key;  // structure only
};

inline constexpr int kBlockThreads = 256;
inline constexpr size_t kMaxParamBytes = 4000;  // the kernel parameter limit is 4 KB
// Steps of one group: a generated kernel's body (and NVRTC's time) grows with them.
inline constexpr size_t kMaxGroupSteps = 128;
// Rows groups: a row of at most kRowsInRegisters elements is held in registers by its team of
// threads; longer ones loop over global memory, a block per row, so the planner forms them only
// where there are at least kMinLongRows rows (two blocks for each of an H100's 132 SMs, about):
// fewer long rows run faster split, the reduction spread over the device.
inline constexpr int64_t kRowsInRegisters = 16384;
inline constexpr int64_t kMinLongRows = 256;

// Analyses the group for a device (its SM count sizes an elementwise launch).
KernelPlan make_plan(const Group& group, const DeviceProperties& props);
// The same into `plan`, reusing its buffers (the launch path keeps one plan per thread, so a
// dispatch allocates nothing here).
void make_plan(const Group& group, const DeviceProperties& props, KernelPlan& plan);
// Sizes a reduction plan's launch (splits, chunk, threads per output, grid) for its compiled
// kernel, of which `blocks_per_sm` blocks fit on a multiprocessor at once: the split counts
// depend on it, so this runs once the kernel is loaded, before every launch.
void size_reduction(KernelPlan& plan, const DeviceProperties& props, int blocks_per_sm);

// What an elementwise or row group's plan depends on besides addresses: the device, shapes,
// strides, dtypes and the steps' wiring (sizes and strides included, unlike the key).
using PlanSignature = SmallVector<int64_t, 64>;
// The plans one thread made last for elementwise and row groups, by signature. A loop body
// launches several groups in turn (a stencil, its boundary writes, a reduction): with one plan
// kept, each launch planned again; with a few, each of them is planned once. (A row group, layer
// norm's, was planned at each call: a quarter of its evaluation's host time.)
struct LaunchPlans {
  static constexpr size_t kEntries = 16;
  struct Entry {
    PlanSignature signature;  // empty: unused
    KernelPlan plan;
  };
  std::vector<Entry> entries;  // kEntries once used (on the heap: the owner is a thread-local)
  size_t next = 0;             // the entry a miss replaces (round robin)
  KernelPlan other;            // the plan of a reduction or single group (planned every time)
  uint64_t hits = 0;           // for tests
};
// The plan to launch `group` with, made into `plans` (which the launch path keeps per thread,
// so that a launch allocates nothing here). An elementwise or row group of a signature planned
// before gets that plan with only its addresses and alignment flag refreshed.
KernelPlan& make_plan_cached(const Group& group, const DeviceProperties& props, int device,
                             LaunchPlans& plans);

struct KernelSource {
  std::string code;                  // kernels only; compile with program_prelude() in front
  std::vector<std::string> entries;  // kernel names
};
// The CUDA C of a plan's kernel(s); a function of plan.key alone.
KernelSource generate(const KernelPlan& plan, const std::string& name);

// The parameter struct's bytes (and the alignment it needs).
std::vector<unsigned char> pack_params(const KernelPlan& plan);
// The same into `bytes` (cleared first; its capacity is reused).
void pack_params(const KernelPlan& plan, std::vector<unsigned char>& bytes);
// pack_params(plan).size(), computed without packing.
size_t param_bytes(const KernelPlan& plan);
// What each item of a group adds to pack_params at most (the planner's accounting, reported to
// the core through the backend's limits).
ParamLayout param_layout();

// The bytes the reduction's partial results need (splits > 1), and the reducer's Acc size.
size_t partial_bytes(const KernelPlan& plan);

// A readable summary of the group ("add(float32,float32)->sum"), for kernel names and errors.
std::string describe(const Group& group);

}  // namespace accel::cuda
