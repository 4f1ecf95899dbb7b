// Rows groups on CUDA (group.hpp): softmax, layer norm and the rest of the normalisation family
// as one kernel, which reads the input once and writes the results, no intermediate in memory.
//
// A team of `tpo` threads owns a row (one index of the kept axes). The kernel runs the group's
// passes as the CPU's row runner does (src/cpu/row_group.cpp): pass q computes the reductions
// whose operands need the per-row values of passes before it (softmax: the max, then the sum of
// exp(x - max)), each thread folding its elements of the row with the reducers of the reduction
// kernels (reduce_ops.h) and the team combining them in a fixed tree (accel_row_allreduce,
// prelude.cuh); every thread then holds the row's value and computes the per-row steps it allows
// (mean = sum / n) in registers. A last pass computes and writes the per-element outputs.
// Per-element steps are recomputed in each pass that needs them (exp is cheaper than a store).
//
// Mapping, chosen per layout so that warps read memory coalesced:
//   - reduced axes fastest in memory (softmax over the last axis): a team is `tpo` neighbouring
//     lanes of threadIdx.x, thread `lane` reading r = lane, lane + tpo, ... of the row. When the
//     row fits (at most kMaxRowElementsPerThread elements per thread, kRowRegisterWords registers
//     for the inputs read by several passes; torch inductor's persistent reductions decide alike),
//     each thread loads its elements once into registers (`ept` per thread, unrolled) and every
//     pass reads them there: one read of the input. Such rows move 16-byte vectors where the
//     operand's row is contiguous and aligned: a thread's elements are then chunks of `vec`
//     neighbours, chunk c at (c * tpo + lane) * vec. Longer rows loop over the row in every
//     pass, re-reading the input from global memory: still one launch, no intermediate written.
//   - a kept axis fastest (x - x.max(0) on a C array): a 32 x 8 block holds 32 neighbouring rows,
//     threadIdx.x the row, the 8 threads of a column its team; each warp reads 32 neighbouring
//     elements of one reduced position. Every pass loops over the row.
// Results are identical run to run (fixed trees); float results differ from the unfused groups'
// in summation order only (integer results are exact either way).
#include <algorithm>

#include "accel/errors.hpp"
#include "src/cuda/jit/codegen_detail.hpp"

namespace accel::cuda::detail {

namespace {

// Elements of a row one thread keeps in registers, and the 32-bit registers those may take.
// Rows up to kRowThreads * kRowElementsPerThread get 16 elements per thread (4 vectors of
// float32); longer ones up to kMaxRowElementsPerThread on kRowThreads threads, as inductor's
// persistent reductions give such rows 8 warps: more loads in flight per thread, fewer warp
// partials per reduction.
constexpr int kRowElementsPerThread = 16;
constexpr int kMaxRowElementsPerThread = 32;
constexpr int kRowThreads = 256;
constexpr int kRowRegisterWords = 64;
constexpr int kMaxRowThreads = 1024;
constexpr int kColumnLanes = 8;  // by_column: threads per row (blockDim.y)
// Rows in registers of at most kCappedRowWords words per thread run kCappedThreadsPerSM threads
// per SM (a 64-register cap): enough rows in flight to keep loads going while others reduce.
constexpr int kCappedRowWords = 32;
constexpr int kCappedThreadsPerSM = 1024;
// Rows of at most kRowsInRegisters elements (the backend's long_row) are kept in registers.
static_assert(int64_t(kRowElementsPerThread) * kMaxRowThreads == kRowsInRegisters);

bool reduces(const Step& st) { return op_class(st.node->op) == OpClass::Reduction; }

// The group's passes: what each computes and reads.
struct RowSchedule {
  int passes = 0;            // reduction passes; pass `passes` writes the per-element outputs
  std::vector<int> avail;    // per per-row step: the first pass that can read it
  std::vector<int> pass_of;  // per reduction step: its pass
  std::vector<std::vector<char>> steps;   // per pass: the per-element steps it computes
  std::vector<std::vector<char>> inputs;  // per pass: the per-element inputs it reads
  std::vector<char> cached;  // per input: read by several passes (kept in registers if ept > 0)
};

void mark(const Group& g, int k, std::vector<char>& steps, std::vector<char>& inputs) {
  if (steps[k]) return;
  steps[k] = 1;
  for (const StepArg& a : g.steps[k].args) {
    if (a.kind == StepArg::Step && !g.steps[a.index].per_row) mark(g, a.index, steps, inputs);
    if (a.kind == StepArg::Input && !g.row_inputs[a.index]) inputs[a.index] = 1;
  }
}

RowSchedule schedule(const Group& g) {
  const int n = int(g.steps.size());
  RowSchedule s;
  std::vector<int> need(n, 0);  // per per-element step: the first pass that can compute it
  s.avail.assign(n, 0);
  s.pass_of.assign(n, -1);
  for (int k = 0; k < n; ++k) {
    const Step& st = g.steps[k];
    int level = 0;
    for (const StepArg& a : st.args) {
      if (a.kind == StepArg::Step) {
        level = std::max(level, g.steps[a.index].per_row ? s.avail[a.index] : need[a.index]);
      }
    }
    if (!st.per_row) {
      need[k] = level;
    } else if (reduces(st)) {
      s.pass_of[k] = level;
      s.avail[k] = level + 1;
      s.passes = std::max(s.passes, level + 1);
    } else {
      s.avail[k] = level;
    }
  }
  s.steps.assign(s.passes + 1, std::vector<char>(n, 0));
  s.inputs.assign(s.passes + 1, std::vector<char>(g.inputs.size(), 0));
  auto operand = [&](const StepArg& a, int q) {
    if (a.kind == StepArg::Step && !g.steps[a.index].per_row)
      mark(g, a.index, s.steps[q], s.inputs[q]);
    if (a.kind == StepArg::Input && !g.row_inputs[a.index]) s.inputs[q][a.index] = 1;
  };
  for (int k = 0; k < n; ++k) {
    if (s.pass_of[k] >= 0) operand(g.steps[k].args[0], s.pass_of[k]);
  }
  for (const GroupOutput& o : g.outputs) {
    if (!g.steps[o.step].per_row) operand({StepArg::Step, o.step, nullptr}, s.passes);
  }
  s.cached.assign(g.inputs.size(), 0);
  for (size_t j = 0; j < g.inputs.size(); ++j) {
    int uses = 0;
    for (const std::vector<char>& in : s.inputs) uses += in[j];
    s.cached[j] = uses >= 2;
  }
  return s;
}

std::string str(int64_t v) { return std::to_string(v); }

}  // namespace

void plan_rows(const Group& g, KernelPlan& p) {
  const int nd = int(g.shape.size());
  std::vector<int> kept, red;
  for (int d = 0; d < nd; ++d) ((g.row_axes >> d) & 1 ? red : kept).push_back(d);
  // An operand has the group's shape or a per-row one: the kept axes only, or every axis with
  // the reduced ones as 1s.
  auto kept_strides = [&](const Array& a) {
    if (a.ndim() != nd) return a.strides();
    Strides k;
    for (int d : kept) k.push_back(a.strides()[d]);
    return k;
  };
  auto red_strides = [&](const Array& a) {
    Strides r;
    for (int d : red) r.push_back(a.strides()[d]);
    return r;
  };
  StridesRefs kops, rops;
  for (size_t j = 0; j < g.inputs.size(); ++j) {
    const Array& in = g.inputs[j];
    p.inputs.push_back({base_of(in), in.dtype(), Cls::Strided, kept_strides(in), {}});
    if (!g.row_inputs[j]) p.inputs.back().rst = red_strides(in);
  }
  for (const GroupOutput& out : g.outputs) {
    p.outputs.push_back(
        {base_of(out.dest), out.dest.dtype(), Cls::Strided, kept_strides(out.dest), {}, out.step});
    if (!g.steps[out.step].per_row) p.outputs.back().rst = red_strides(out.dest);
  }
  for (size_t j = 0; j < g.inputs.size(); ++j) {
    kops.push_back(&p.inputs[j].kst);
    if (!g.row_inputs[j]) rops.push_back(&p.inputs[j].rst);
  }
  for (PlanOperand& o : p.outputs) {
    kops.push_back(&o.kst);
    if (!g.steps[o.step].per_row) rops.push_back(&o.rst);
  }
  for (int d : kept) p.kshape.push_back(g.shape[d]);
  for (int d : red) p.rshape.push_back(g.shape[d]);
  collapse(p.kshape, kops);
  collapse(p.rshape, rops);
  p.outputs_n = shape_size(p.kshape);
  p.reduced_n = shape_size(p.rshape);
  int64_t reach_max = std::max<int64_t>(p.outputs_n, 1) * std::max<int64_t>(p.reduced_n, 1);
  for (const std::vector<PlanOperand>* list : {&p.inputs, &p.outputs}) {
    for (const PlanOperand& o : *list) {
      reach_max = std::max(reach_max,
                           reach(p.kshape, o.kst) + (o.rst.empty() ? 0 : reach(p.rshape, o.rst)));
    }
  }
  p.idx64 = reach_max >= (int64_t(1) << 31) - (int64_t(1) << 22);

  // By column when the first per-element input's fastest axis in memory is a kept one.
  const Array* primary = nullptr;
  for (size_t j = 0; j < g.inputs.size() && !primary; ++j) {
    if (!g.row_inputs[j]) primary = &g.inputs[j];
  }
  const int64_t O = p.outputs_n, R = p.reduced_n;
  if (primary && O >= 16 && R > 1) {
    int fastest = -1;
    for (int d = 0; d < nd; ++d) {
      if (g.shape[d] <= 1) continue;
      if (fastest < 0 || std::abs(primary->strides()[d]) < std::abs(primary->strides()[fastest])) {
        fastest = d;
      }
    }
    p.by_column = fastest >= 0 && !((g.row_axes >> fastest) & 1);
  }
  if (p.by_column) {
    p.tpo = kColumnLanes;
    p.ept = 0;
    p.block[0] = 32;
    p.block[1] = kColumnLanes;
    p.grid[0] = unsigned((O + 31) / 32);
    return;
  }
  // Register words of the inputs several passes read, per element.
  const RowSchedule s = schedule(g);
  int64_t words = 0;
  for (size_t j = 0; j < g.inputs.size(); ++j) {
    if (s.cached[j]) words += (int64_t(itemsize(g.inputs[j].dtype())) + 3) / 4;
  }
  p.tpo = std::min(
      pow2_ceil((R + kRowElementsPerThread - 1) / kRowElementsPerThread, kMaxRowThreads),
      std::max(kRowThreads, pow2_ceil((R + kMaxRowElementsPerThread - 1) / kMaxRowElementsPerThread,
                                      kMaxRowThreads)));
  p.ept = 0;
  for (int tpo = p.tpo; tpo <= kMaxRowThreads; tpo *= 2) {
    const int64_t per_thread = (R + tpo - 1) / tpo;
    if (R <= kRowsInRegisters && per_thread <= kMaxRowElementsPerThread &&
        per_thread * words <= kRowRegisterWords) {
      p.tpo = tpo;
      p.ept = pow2_ceil(std::max<int64_t>(per_thread, 1), kMaxRowElementsPerThread);
      break;
    }
  }
  // 16-byte accesses of the per-element operands' rows, when they are in registers and one
  // dimension (rows_kernel checks contiguity and alignment per row).
  if (p.ept > 0 && p.rshape.size() == 1) {
    size_t max_item = 1;
    for (size_t j = 0; j < g.inputs.size(); ++j) {
      if (!g.row_inputs[j]) max_item = std::max(max_item, itemsize(g.inputs[j].dtype()));
    }
    for (const GroupOutput& out : g.outputs) {
      if (!g.steps[out.step].per_row) max_item = std::max(max_item, itemsize(out.dest.dtype()));
    }
    p.vec = std::min(int(16 / max_item), p.ept);
    if (p.vec < 2) p.vec = 1;
  }
  p.block[0] = unsigned(std::max(p.tpo, kBlockThreads));
  const int64_t rows_per_block = p.block[0] / p.tpo;
  p.grid[0] = unsigned((O + rows_per_block - 1) / rows_per_block);
}

std::string rows_kernel(const KernelPlan& p, const std::string& name) {
  const Group& g = *p.group;
  const RowSchedule s = schedule(g);
  const int n = int(g.steps.size());
  const int kd = int(p.kshape.size()), rd = int(p.rshape.size());
  const std::string ns = name + "_ns";
  const bool persistent = p.ept > 0;
  std::string out = "namespace " + ns + " {\n";
  emit_params(p, out);
  std::string accs;
  int scalars = 0;  // the scalar parameters of the steps before k
  std::vector<int> first_scalar(n, 0);
  for (int k = 0; k < n; ++k) {
    first_scalar[k] = scalars;
    for (const StepArg& a : g.steps[k].args) scalars += a.kind == StepArg::Scalar;
    if (s.pass_of[k] < 0) continue;
    out +=
        "typedef " + reducer(*g.steps[k].node, g.steps[k].node->compute) + " Red" + str(k) + ";\n";
    accs += " Red" + str(k) + "::Acc a" + str(k) + ";";
  }
  // Shared memory for any of the reductions' accumulators (a union is only measured).
  out += "union AccU {" + accs + " };\n";
  out += "enum : int { TPO = " + str(p.tpo) + ", EPT = " + str(std::max(p.ept, 1)) + " };\n";
  out += "}  // namespace\n";
  const unsigned threads = p.block[0] * p.block[1];
  // A row of 4-byte reals in registers, at most kCappedRowWords words of it per thread: a cap of
  // 64 registers holds it (ptxas spills none for softmax, log-softmax, layer and RMS norm; a few
  // bytes for standardisation), so ask for 1024 threads per SM (softmax 8192: 114 registers, 2
  // blocks of 256 per SM, 1.52x the copy floor; capped, 1.06x on an H100). Wider or complex
  // rows and float16's converted copies spilled up to 212 bytes under the cap: not capped.
  int row_words = 0;
  bool real32 = true;
  for (size_t j = 0; j < g.inputs.size(); ++j) {
    if (!s.cached[j]) continue;
    const DType t = g.inputs[j].dtype();
    row_words += 1;
    real32 = real32 && (t == DType::Float32 || t == DType::Int32 || t == DType::UInt32);
  }
  const bool capped = persistent && real32 && p.ept * row_words <= kCappedRowWords;
  const std::string bounds =
      str(threads) + (capped ? ", " + str(kCappedThreadsPerSM / threads) : std::string());
  const std::string sig =
      p.byref ? "(const " + ns + "::Params* pp) {\n  const " + ns + "::Params& p = *pp;\n"
              : "(const " + ns + "::Params p) {\n";
  out += "extern \"C\" __global__ void __launch_bounds__(" + bounds + ") " + name + sig;
  out += "  using namespace " + ns + ";\n";
  // by_column: accel_col_allreduce's 32 x kColumnLanes accumulators, reused by every reduction
  // (it synchronises before and after); else each reduction's own warp partials
  // (accel_row_allreduce), so that one block-wide sync per reduction suffices.
  int reductions = 0;
  for (int k = 0; k < n; ++k) reductions += s.pass_of[k] >= 0;
  const int warps = std::max(1, int(p.block[0]) / 32);
  const int slots = p.by_column ? 32 * kColumnLanes : std::max(1, reductions) * warps;
  out += "  __shared__ alignas(16) unsigned char smraw[" + str(slots) + " * sizeof(AccU)];\n";
  if (p.by_column) {
    out += "  const int lane = threadIdx.y;\n";
    out += "  const IDX row = (IDX)blockIdx.x * 32 + threadIdx.x;\n";
  } else {
    out += "  const int lane = threadIdx.x & (TPO - 1);\n";
    out += "  const IDX row = (IDX)blockIdx.x * (blockDim.x / TPO) + threadIdx.x / TPO;\n";
  }
  // Threads past the last row take part in the team reductions over an empty range.
  out += "  const bool live = row < p.O;\n  const IDX o = live ? row : 0;\n";
  out += "  const IDX R = live ? p.R : 0;\n";
  out += emit_coords("o", "kshape", kd, "k");
  for (size_t j = 0; j < p.inputs.size(); ++j) {
    out += "  const IDX ko" + str(j) + " = " + emit_dot("k", "ik" + str(j), kd) + ";\n";
    if (g.row_inputs[j]) {
      out += std::string("  const ") + ctype(p.inputs[j].dtype) + " x" + str(j) + " = p.in" +
             str(j) + "[ko" + str(j) + "];\n";
    }
  }
  for (size_t j = 0; j < p.outputs.size(); ++j) {
    out += "  const IDX oo" + str(j) + " = " + emit_dot("k", "ok" + str(j), kd) + ";\n";
  }
  auto load = [&](size_t j) {
    return "p.in" + str(j) + "[ko" + str(j) + " + " + emit_dot("c", "ir" + str(j), rd) + "]";
  };
  // Vector path (vec > 1, rows in registers, one reduced dimension): thread `lane` owns chunks
  // of V neighbouring elements, r = ((e / V) * TPO + lane) * V + e % V, so each chunk is one
  // 16-byte access where the operand's row is contiguous and 16-byte aligned (checked per
  // operand and row at run time; a chunk past the row's end or a strided or misaligned row takes
  // V scalar accesses in the same order).
  const int V = persistent ? p.vec : 1;
  const std::string Vs = str(V);
  auto vtype = [&](DType t) { return "accel_vec<" + std::string(ctype(t)) + ", " + Vs + ">"; };
  auto open_loop = [&] {
    std::string l;
    if (V > 1) {
      l = "#pragma unroll\n    for (int i = 0; i < V; ++i) {\n      const int e = e0 + i;\n"
          "      const IDX r = r0 + i;\n      if (r < R) {\n";
    } else {
      l = persistent ? "#pragma unroll\n  for (int e = 0; e < EPT; ++e) {\n"
                       "    const IDX r = lane + (IDX)e * TPO;\n    if (r < R) {\n"
                     : "  for (IDX r = lane; r < R; r += TPO) {\n";
    }
    return l + emit_coords("r", "rshape", rd, "c");
  };
  const std::string close_loop = V > 1 ? "      }\n    }\n" : persistent ? "    }\n  }\n" : "  }\n";
  const std::string open_chunk =
      "#pragma unroll\n  for (int e0 = 0; e0 < EPT; e0 += V) {\n"
      "    const IDX r0 = ((IDX)(e0 / V) * TPO + lane) * V;\n"
      "    const bool whole = r0 + V <= R;\n";
  // Loads input j's chunk into `dst` (an array of V).
  auto load_chunk = [&](size_t j, const std::string& dst) {
    const std::string js = str(j), VT = vtype(p.inputs[j].dtype);
    return "    if (whole && vi" + js + ") {\n      const " + VT + " t = *reinterpret_cast<const " +
           VT + "*>(p.in" + js + " + ko" + js + " + r0);\n#pragma unroll\n" +
           "      for (int i = 0; i < V; ++i) " + dst + "[i] = t.v[i];\n    } else {\n" +
           "#pragma unroll\n      for (int i = 0; i < V; ++i) {\n" + "        if (r0 + i < R) " +
           dst + "[i] = p.in" + js + "[ko" + js + " + (r0 + i) * p.ir" + js +
           "[0]];\n      }\n    }\n";
  };
  if (V > 1) {
    out += "  enum : int { V = " + Vs + " };\n";
    auto aligned = [&](const std::string& ptr, const std::string& stride, DType t) {
      return " = " + stride + " == 1 && reinterpret_cast<unsigned long long>(" + ptr +
             ") % sizeof(" + vtype(t) + ") == 0;\n";
    };
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      if (g.row_inputs[j]) continue;
      const std::string js = str(j);
      out += "  const bool vi" + js +
             aligned("p.in" + js + " + ko" + js, "p.ir" + js + "[0]", p.inputs[j].dtype);
    }
    for (size_t j = 0; j < p.outputs.size(); ++j) {
      if (g.steps[g.outputs[j].step].per_row) continue;
      const std::string js = str(j);
      out += "  const bool vo" + js +
             aligned("p.out" + js + " + oo" + js, "p.or" + js + "[0]", p.outputs[j].dtype);
    }
  }
  if (persistent) {
    std::string loads;
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      if (!s.cached[j]) continue;
      out += std::string("  ") + ctype(p.inputs[j].dtype) + " xc" + str(j) + "[EPT];\n";
      loads += V > 1 ? load_chunk(j, "(xc" + str(j) + " + e0)")
                     : "    xc" + str(j) + "[e] = " + load(j) + ";\n";
    }
    if (!loads.empty())
      out += V > 1 ? open_chunk + loads + "  }\n" : open_loop() + loads + close_loop;
  }
  // The per-row elementwise steps readable from pass q on.
  auto row_steps = [&](int q) {
    std::vector<char> only(n, 0);
    bool any = false;
    for (int k = 0; k < n; ++k) {
      if (g.steps[k].per_row && s.pass_of[k] < 0 && s.avail[k] == q) {
        only[k] = 1;
        any = true;
      }
    }
    return any ? emit_body(p, n, 0, "p.s", &only) : std::string();
  };
  // Pass q over the thread's elements, `tail` run for each; `chunk_end` after each chunk of V.
  auto element_loop = [&](int q, const std::string& tail, const std::string& chunk_end) {
    std::string l;
    if (V > 1) {
      l = open_chunk;
      for (size_t j = 0; j < p.inputs.size(); ++j) {
        if (!s.inputs[q][j] || s.cached[j]) continue;
        l += "    " + std::string(ctype(p.inputs[j].dtype)) + " xv" + str(j) + "[V];\n" +
             load_chunk(j, "xv" + str(j));
      }
      for (size_t j = 0; j < p.outputs.size(); ++j) {
        if (q == s.passes && !g.steps[g.outputs[j].step].per_row)
          l += "    " + vtype(p.outputs[j].dtype) + " yv" + str(j) + ";\n";
      }
    }
    l += open_loop();
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      if (!s.inputs[q][j]) continue;
      const std::string js = str(j);
      l += std::string("    const ") + ctype(p.inputs[j].dtype) + " x" + js + " = " +
           (persistent && s.cached[j] ? "xc" + js + "[e]"
            : V > 1                   ? "xv" + js + "[i]"
                                      : load(j)) +
           ";\n";
    }
    l += emit_body(p, n, 0, "p.s", &s.steps[q]) + tail + close_loop;
    return V > 1 ? l + chunk_end + "  }\n" : l;
  };
  out += row_steps(0);
  int reduction = 0;  // the reductions emitted so far: each one's region of smraw
  for (int q = 0; q < s.passes; ++q) {
    std::string fold;
    for (int k = 0; k < n; ++k) {
      if (s.pass_of[k] != q) continue;
      const Node& node = *g.steps[k].node;
      const std::string ks = str(k), red = "Red" + ks;
      out += "  " + red + "::Acc a" + ks + " = " + red + "::init();\n";
      fold += std::string("    {\n      const ") + ctype(node.compute) +
              " u = " + arg_expr(g, g.steps[k].args[0], first_scalar[k]) + ";\n      a" + ks +
              " = " + red + "::combine(a" + ks + ", " + red + "::lift(u, (long long)r));\n    }\n";
    }
    out += element_loop(q, fold, "");
    for (int k = 0; k < n; ++k) {
      if (s.pass_of[k] != q) continue;
      const std::string ks = str(k), red = "Red" + ks;
      const std::string all = p.by_column ? "accel_col_allreduce<" + red + ">"
                                          : "accel_row_allreduce<" + red + ", TPO>";
      const std::string region =
          p.by_column ? "smraw"
                      : "smraw + " + str(int64_t(reduction++) * warps) + " * sizeof(AccU)";
      out += std::string("  const ") + ctype(g.steps[k].node->dtype) + " v" + ks +
             " = accel::cast<" + ctype(g.steps[k].node->dtype) + ">(" + red + "::result(" + all +
             "(a" + ks + ", reinterpret_cast<" + red + "::Acc*>(" + region + "))));\n";
    }
    out += row_steps(q + 1);
  }
  std::string stores, vector_stores;
  for (size_t j = 0; j < p.outputs.size(); ++j) {
    const int k = g.outputs[j].step;
    if (g.steps[k].per_row) continue;
    const std::string js = str(j);
    if (V == 1) {
      stores += "    p.out" + js + "[oo" + js + " + " + emit_dot("c", "or" + js, rd) + "] = v" +
                str(k) + ";\n";
      continue;
    }
    stores += "    yv" + js + ".v[i] = v" + str(k) + ";\n";
    vector_stores +=
        "    if (whole && vo" + js + ") {\n      *reinterpret_cast<" + vtype(p.outputs[j].dtype) +
        "*>(p.out" + js + " + oo" + js + " + r0) = yv" + js + ";\n    } else {\n#pragma unroll\n" +
        "      for (int i = 0; i < V; ++i) {\n        if (r0 + i < R) p.out" + js + "[oo" + js +
        " + (r0 + i) * p.or" + js + "[0]] = yv" + js + ".v[i];\n      }\n    }\n";
  }
  if (!stores.empty()) out += element_loop(s.passes, stores, vector_stores);
  std::string row_stores;
  for (size_t j = 0; j < p.outputs.size(); ++j) {
    const int k = g.outputs[j].step;
    if (g.steps[k].per_row)
      row_stores += "    p.out" + str(j) + "[oo" + str(j) + "] = v" + str(k) + ";\n";
  }
  if (!row_stores.empty()) out += "  if (live && lane == 0) {\n" + row_stores + "  }\n";
  out += "}\n";
  return out;
}

}  // namespace accel::cuda::detail
