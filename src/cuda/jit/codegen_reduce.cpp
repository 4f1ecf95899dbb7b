// Reduction kernels over any set of axes, reading their fused elementwise prologue in
// registers. Kept and reduced dimensions are merged separately; an output's elements are the
// reduced range r in [0, R) at the output's kept offsets.
//
// Inner strategy: `tpo` threads (a power of two up to a block) reduce one output, reading r,
// r + tpo, ...; small ranges give one thread per output, long ones a block per output.
// Outer strategy (the kept axis is the fastest in memory): a 32 x 8 block covers 32 neighbouring
// outputs, each warp reading one coalesced row at a time, and 8 lanes of rows per output.
// Each thread keeps 4 interleaved accumulators, folded every 16 steps, so sums are trees of
// short runs; threads combine in a fixed tree (shuffles, then shared memory). Too few outputs
// to fill the device: the reduced range is split over blockIdx.y, each block writes its partial
// accumulators (padding bytes included: accel_store_partial), and the last block of a column
// to finish (one atomic count per column) combines them in a fixed order. The order never
// depends on which block came last, so results are identical run to run.
#include "accel/errors.hpp"
#include "src/cuda/jit/codegen_detail.hpp"

namespace accel::cuda::detail {

std::string reducer(const Node& node, DType in) {
  const std::string T = ctype(in);
  switch (node.op) {
    case OpKind::Sum:
      return "accel::reduce::Sum<" + T + ">";
    case OpKind::Prod:
      return "accel::reduce::Prod<" + T + ">";
    case OpKind::Max:
      return "accel::reduce::Max<" + T + ">";
    case OpKind::Min:
      return "accel::reduce::Min<" + T + ">";
    case OpKind::ArgMax:
      return "accel::reduce::ArgMax<" + T + ">";
    case OpKind::ArgMin:
      return "accel::reduce::ArgMin<" + T + ">";
    case OpKind::Any:
      return "accel::reduce::Any";
    case OpKind::All:
      return "accel::reduce::All";
    default:
      throw NotImplementedError(std::string("no CUDA reduction for ") + op_name(node.op));
  }
}

namespace {

// vaccumulate(p, koff, r, r1, vstep): the vector path of the inner strategy (plan.vec > 1: one
// contiguous reduced dimension, light prologue). The thread reads VEC elements at r, r + vstep,
// ... below r1, four vectors per step into four accumulators folded every 16 steps, like
// accumulate(); the caller ends the vector range at a multiple of 4 * vstep past the row's start,
// so every step is whole (a one-vector remainder loop cost ~15% more NVRTC time), and the rest
// goes through accumulate(). aligned(): every input's row start is 16-byte aligned.
std::string vector_accumulate(const KernelPlan& p) {
  const Group& g = *p.group;
  const int ni = int(p.inputs.size());
  const std::string V = std::to_string(p.vec);
  std::string out = "enum : int { VEC = " + V + " };\n";
  out += "__device__ __forceinline__ bool aligned(const Params& p, const IDX* koff, IDX r0) {\n";
  out += "  return true";
  for (int j = 0; j < ni; ++j) {
    const std::string js = std::to_string(j);
    out += " && (reinterpret_cast<unsigned long long>(p.in" + js + " + koff[" + js +
           "] + r0) & 15) == 0";
  }
  out += ";\n}\n";
  // One vector's elements folded into accumulator A: inputs from X<j>_<u>, prologue in registers.
  int scalars = 0;
  for (size_t k = 0; k + 1 < g.steps.size(); ++k) {
    for (const StepArg& a : g.steps[k].args) scalars += a.kind == StepArg::Scalar;
  }
  const std::string body = emit_body(p, int(g.steps.size()) - 1);
  const std::string operand = arg_expr(g, g.steps.back().args[0], scalars);
  const int nw = int(p.prologue_outputs.size());
  const int wbase = ni;  // no generator index on this path
  auto fold = [&](int u) {
    const std::string us = std::to_string(u);
    std::string f = "#pragma unroll\n      for (int e = 0; e < VEC; ++e) {\n";
    f += "    const IDX re = r + " + us + " * vstep + e;\n";
    for (int j = 0; j < ni; ++j) {
      const std::string js = std::to_string(j);
      f += std::string("    const ") + ctype(p.inputs[j].dtype) + " x" + js + " = X" + js + "_" +
           us + ".v[e];\n";
    }
    f += body;
    for (int j = 0; j < nw; ++j) {
      const std::string js = std::to_string(j);
      f += "    p.w" + js + "[koff[" + std::to_string(wbase + j) + "] + re * p.wr" + js +
           "[0]] = v" + std::to_string(p.prologue_outputs[j].step) + ";\n";
    }
    f += "    a" + us + " = Red::combine(a" + us + ", Red::lift(" + operand +
         ", (long long)re));\n      }\n";
    return f;
  };
  auto loads = [&](int u) {
    std::string l;
    for (int j = 0; j < ni; ++j) {
      const std::string js = std::to_string(j), us = std::to_string(u);
      const std::string VT = std::string("accel_vec<") + ctype(p.inputs[j].dtype) + ", VEC>";
      l += "      const " + VT + " X" + js + "_" + us + " = *reinterpret_cast<const " + VT +
           "*>(p.in" + js + " + koff[" + js + "] + r + " + us + " * vstep);\n";
    }
    return l;
  };
  out +=
      "__device__ __forceinline__ Acc vaccumulate(const Params& p, const IDX* koff, IDX r, IDX "
      "r1, IDX vstep) {\n  Acc total = Red::init();\n  while (r < r1) {\n"
      "    Acc a0 = Red::init(), a1 = Red::init(), a2 = Red::init(), a3 = Red::init();\n"
      "    int k = 0;\n    for (; k < 16 && r + 3 * vstep < r1; ++k, r += 4 * vstep) {\n";
  for (int u = 0; u < 4; ++u) out += loads(u);  // all loads first: 4 x 16 bytes in flight
  for (int u = 0; u < 4; ++u) out += fold(u);
  out += "    }\n";
  out +=
      "    total = Red::combine(total, Red::combine(Red::combine(a0, a1), Red::combine(a2, "
      "a3)));\n  }\n  return total;\n}\n";
  return out;
}

}  // namespace

std::string reduction_kernel(const KernelPlan& p, const std::string& name) {
  const Group& g = *p.group;
  const int kd = int(p.kshape.size()), rd = int(p.rshape.size());
  const int ni = int(p.inputs.size());
  const int nw = int(p.prologue_outputs.size());
  const int no = int(p.outputs.size());
  const int wbase = ni + (p.needs_index ? 1 : 0);  // koff[wbase + j]: prologue output j
  const int nk = wbase + nw;
  // The reduced values, in the dtype type_rules decided for the reduction (Node::compute).
  const DType vt = g.steps.back().node->compute;
  const std::string VT = ctype(vt);
  const std::string ns = name + "_ns";
  std::string out = "namespace " + ns + " {\n";
  emit_params(p, out);
  out += "typedef " + reducer(*g.steps.back().node, vt) + " Red;\n";
  out += "typedef Red::Acc Acc;\n";
  // Enumerators: a constexpr variable would be a device global in the cubin (platform.h).
  out += "enum : int { NK = " + std::to_string(nk > 0 ? nk : 1) +
         ", NO = " + std::to_string(no > 0 ? no : 1) + " };\n";

  // The value at reduced position r of the output whose kept offsets are koff.
  out += "__device__ __forceinline__ " + VT + " value(const Params& p, const IDX* koff, IDX r) {\n";
  out += "    (void)koff;\n";
  out += emit_coords("r", "rshape", rd, "c");
  for (int j = 0; j < ni; ++j) {
    const std::string js = std::to_string(j);
    out += std::string("    const ") + ctype(p.inputs[j].dtype) + " x" + js + " = p.in" + js +
           "[koff[" + js + "] + " + emit_dot("c", "ir" + js, rd) + "];\n";
  }
  if (p.needs_index) {
    out += "    const long long idx = (long long)(koff[" + std::to_string(ni) + "] + " +
           emit_dot("c", "xr", rd) + ");\n";
  }
  out += emit_body(p, int(g.steps.size()) - 1);
  // Referenced intermediates: each (output, r) pair is visited by exactly one thread, once.
  for (int j = 0; j < nw; ++j) {
    const std::string js = std::to_string(j);
    out += "    p.w" + js + "[koff[" + std::to_string(wbase + j) + "] + " +
           emit_dot("c", "wr" + js, rd) + "] = v" + std::to_string(p.prologue_outputs[j].step) +
           ";\n";
  }
  // The reduction's operand: an input, a step, or (reducing a scalar) a parameter.
  int scalars = 0;
  for (size_t k = 0; k + 1 < g.steps.size(); ++k) {
    for (const StepArg& a : g.steps[k].args) scalars += a.kind == StepArg::Scalar;
  }
  out += "    return " + arg_expr(g, g.steps.back().args[0], scalars) + ";\n}\n";

  // Offsets of an output's kept coordinates, for every input (and the index) and the output.
  out +=
      "__device__ __forceinline__ void kept_offsets(const Params& p, IDX o, IDX* koff, IDX* "
      "ooff) {\n";
  out += emit_coords("o", "kshape", kd, "k");
  for (int j = 0; j < ni; ++j) {
    out += "    koff[" + std::to_string(j) + "] = " + emit_dot("k", "ik" + std::to_string(j), kd) +
           ";\n";
  }
  if (p.needs_index)
    out += "    koff[" + std::to_string(ni) + "] = " + emit_dot("k", "xk", kd) + ";\n";
  for (int j = 0; j < nw; ++j) {
    out += "    koff[" + std::to_string(wbase + j) +
           "] = " + emit_dot("k", "wk" + std::to_string(j), kd) + ";\n";
  }
  // Every output of the reduction (duplicates merged by CSE are written too).
  for (int j = 0; j < no; ++j) {
    out += "    ooff[" + std::to_string(j) + "] = " + emit_dot("k", "ok" + std::to_string(j), kd) +
           ";\n";
  }
  out += "    (void)koff;\n}\n";
  std::string store_result;  // "p.outJ[ooff[J]] = Red::result(a);" for each output
  for (int j = 0; j < no; ++j) {
    const std::string js = std::to_string(j);
    store_result += "    p.out" + js + "[ooff[" + js + "]] = Red::result(a);\n";
  }

  out +=
      R"(__device__ __forceinline__ Acc accumulate(const Params& p, const IDX* koff, IDX r, IDX r1, IDX step) {
  Acc total = Red::init();
  while (r < r1) {
    Acc a0 = Red::init(), a1 = Red::init(), a2 = Red::init(), a3 = Red::init();
    int k = 0;
    for (; k < 16 && r + 3 * step < r1; ++k, r += 4 * step) {
      const auto v0 = value(p, koff, r);
      const auto v1 = value(p, koff, r + step);
      const auto v2 = value(p, koff, r + 2 * step);
      const auto v3 = value(p, koff, r + 3 * step);
      a0 = Red::combine(a0, Red::lift(v0, (long long)r));
      a1 = Red::combine(a1, Red::lift(v1, (long long)(r + step)));
      a2 = Red::combine(a2, Red::lift(v2, (long long)(r + 2 * step)));
      a3 = Red::combine(a3, Red::lift(v3, (long long)(r + 3 * step)));
    }
    if (k < 16) {
      for (; r < r1; r += step) a0 = Red::combine(a0, Red::lift(value(p, koff, r), (long long)r));
    }
    total = Red::combine(total, Red::combine(Red::combine(a0, a1), Red::combine(a2, a3)));
  }
  return total;
}
__device__ __forceinline__ void store(const Params& p, const IDX* ooff, Acc a) {
)" + store_result +
      R"(}
)";
  if (p.vec > 1) out += vector_accumulate(p);
  out += "}  // namespace\n";
  const std::string sig =
      p.byref ? "(const " + ns + "::Params* pp) {\n  const " + ns + "::Params& p = *pp;\n"
              : "(const " + ns + "::Params p) {\n";
  const std::string head = "extern \"C\" __global__ void __launch_bounds__(256) ";
  // The inner strategy's range [r0, r1) of one output: 16-byte vectors from r0 when every
  // input's row is aligned there (then the few elements past the last vector), else scalars.
  const std::string inner_range =
      p.vec > 1 ? "if (aligned(p, koff, r0)) {\n"
                  "      const IDX rv = r0 + (r1 - r0) / (4 * VEC * tpo) * (4 * VEC * tpo);\n"
                  "      acc = vaccumulate(p, koff, r0 + (IDX)lane * VEC, rv, (IDX)tpo * VEC);\n"
                  "      acc = Red::combine(acc, accumulate(p, koff, rv + lane, r1, (IDX)tpo));\n"
                  "    } else {\n"
                  "      acc = accumulate(p, koff, r0 + lane, r1, (IDX)tpo);\n"
                  "    }"
                : "acc = accumulate(p, koff, r0 + lane, r1, (IDX)tpo);";
  // Both strategies start alike: output o's kept offsets and its chunk [r0, r1) of split s.
  const std::string chunk_start = R"(  Acc acc = Red::init();
  IDX koff[NK];
  IDX ooff[NO];
  if (o < p.O) {
    kept_offsets(p, o, koff, ooff);
    const IDX r0 = (IDX)s * p.chunk;
    const IDX r1 = r0 + p.chunk < p.R ? r0 + p.chunk : p.R;
    )";
  if (p.strategy == Strategy::Inner) {
    out += head + name + sig + "  using namespace " + ns + ";\n";
    out += R"(  __shared__ alignas(16) unsigned char smraw[8 * sizeof(Acc)];
  const int tpo = p.tpo;
  const int lane = threadIdx.x & (tpo - 1);
  const IDX o = (IDX)blockIdx.x * (blockDim.x / tpo) + threadIdx.x / tpo;
  const int s = blockIdx.y;
)" + chunk_start +
           inner_range +
           R"(
  }
  acc = accel_group_reduce<Red>(acc, tpo, reinterpret_cast<Acc*>(smraw));
  if (p.splits == 1) {
    if (lane == 0 && o < p.O) store(p, ooff, acc);
    return;
  }
  if (lane == 0 && o < p.O) {
    accel_store_partial(static_cast<Acc*>(p.part) + o * p.splits + s, acc);
  }
  if (!accel_last_block(p.count + blockIdx.x)) return;
  acc = Red::init();
  if (o < p.O) {
    const Acc* part = static_cast<const Acc*>(p.part) + o * p.splits;
    for (int k = lane; k < p.splits; k += tpo) acc = Red::combine(acc, accel_load_cg(part + k));
  }
  acc = accel_group_reduce<Red>(acc, tpo, reinterpret_cast<Acc*>(smraw));
  if (lane == 0 && o < p.O) store(p, ooff, acc);
}
)";
  } else {
    out += head + name + sig + "  using namespace " + ns + ";\n";
    out += R"(  __shared__ alignas(16) unsigned char smraw[256 * sizeof(Acc)];
  Acc* sm = reinterpret_cast<Acc*>(smraw);
  const IDX o = (IDX)blockIdx.x * 32 + threadIdx.x;
  const int s = blockIdx.y;
)" + chunk_start +
           R"(acc = accumulate(p, koff, r0 + threadIdx.y, r1, (IDX)blockDim.y);
  }
  acc = accel_fold_rows<Red>(sm, acc);
  if (p.splits == 1) {
    if (threadIdx.y == 0 && o < p.O) store(p, ooff, acc);
    return;
  }
  if (threadIdx.y == 0 && o < p.O) {
    accel_store_partial(static_cast<Acc*>(p.part) + o * p.splits + s, acc);
  }
  if (!accel_last_block(p.count + blockIdx.x)) return;
  acc = Red::init();
  if (o < p.O) {
    const Acc* part = static_cast<const Acc*>(p.part) + o * p.splits;
    for (int k = threadIdx.y; k < p.splits; k += blockDim.y) {
      acc = Red::combine(acc, accel_load_cg(part + k));
    }
  }
  acc = accel_fold_rows<Red>(sm, acc);
  if (threadIdx.y == 0 && o < p.O) store(p, ooff, acc);
}
)";
  }
  return out;
}

}  // namespace accel::cuda::detail
