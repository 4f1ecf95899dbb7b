// Group analysis: dimensions, operand classes, index width, strategy, launch geometry, and the
// structural key that names the kernel.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <limits>

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "accel/kernels/reduce_ops.h"
#include "accel/small_vector.hpp"
#include "accel/storage.hpp"
#include "src/cuda/jit/codegen.hpp"
#include "src/cuda/jit/codegen_detail.hpp"

namespace accel::cuda {

namespace detail {

const char* base_of(const Array& a) {
  return static_cast<const char*>(a.storage()->data()) +
         a.offset() * static_cast<int64_t>(itemsize(a.dtype()));
}

// Reorders the dimensions into the memory order of `out` (slowest first), the same in every
// operand's strides (the logical index's too, so generators see their own index): a result laid
// out in another order than C's (NumPy's order='K' of a.T + 1) is then written, and its
// like-ordered inputs read, sequentially.
void to_memory_order(Shape& shape, const StridesRefs& ops, const Strides& out) {
  if (out.size() != shape.size() || is_row_major(shape, out)) return;
  SmallVector<int, 6> perm(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) perm[d] = int(d);
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int a, int b) { return std::abs(out[a]) > std::abs(out[b]); });
  const Shape old = shape;
  for (size_t d = 0; d < perm.size(); ++d) shape[d] = old[perm[d]];
  for (Strides* s : ops) {
    const Strides st = *s;
    for (size_t d = 0; d < perm.size(); ++d) (*s)[d] = st[perm[d]];
  }
}

void collapse(Shape& shape, const StridesRefs& ops) {
  if (shape.size() == 1 && shape[0] != 1) return;  // nothing to drop or merge (the 1-D case)
  Shape s;
  std::vector<Strides> kept(ops.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    s.push_back(shape[d]);
    for (size_t j = 0; j < ops.size(); ++j) kept[j].push_back((*ops[j])[d]);
  }
  for (size_t d = s.size(); d-- > 1;) {
    bool ok = true;
    for (const Strides& st : kept) ok = ok && st[d - 1] == st[d] * s[d];
    if (!ok) continue;
    s[d - 1] *= s[d];
    s.erase(s.begin() + d);
    for (Strides& st : kept) st.erase(st.begin() + d - 1);
  }
  shape = s;
  for (size_t j = 0; j < ops.size(); ++j) *ops[j] = kept[j];
}

// The largest |element offset| an operand reaches.
int64_t reach(const Shape& shape, const Strides& st) {
  int64_t r = 0;
  for (size_t d = 0; d < shape.size(); ++d) r += (shape[d] - 1) * std::abs(st[d]);
  return r;
}

int pow2_ceil(int64_t v, int cap) {
  int p = 1;
  while (p < cap && p < v) p *= 2;
  return p;
}

}  // namespace detail

namespace {

using detail::base_of;
using detail::collapse;
using detail::pow2_ceil;
using detail::reach;
using detail::StridesRefs;
using detail::to_memory_order;

bool all_zero(const Strides& st) {
  return std::all_of(st.begin(), st.end(), [](int64_t v) { return v == 0; });
}

Cls classify(const Shape& shape, const Strides& st) {
  if (all_zero(st)) return Cls::Bcast;
  return is_row_major(shape, st) ? Cls::Contig : Cls::Strided;
}

// Writes the key into an inline buffer first (copied into the plan's string once at the end):
// appending to a std::string byte by byte was a visible part of the dispatch cost.
struct KeyWriter {
  SmallVector<char, 256> s;
  void u8(int v) { s.push_back(static_cast<char>(v)); }
  void u16(int v) {
    u8(v & 0xff);
    u8((v >> 8) & 0xff);
  }
};

void key_steps(const Group& g, KeyWriter& k) {
  k.u16(int(g.steps.size()));
  for (const Step& st : g.steps) {
    k.u16(int(st.node->op));
    k.u8(int(st.node->dtype));
    k.u8(int(st.args.size()));
    for (const StepArg& a : st.args) {
      k.u8(int(a.kind));
      if (a.kind == StepArg::Scalar) {
        k.u8(int(a.scalar->dtype));
      } else {
        k.u16(a.index);
        k.u8(int(detail::arg_dtype(g, a)));
      }
    }
  }
}

void key_operand(const PlanOperand& op, KeyWriter& k) {
  k.u8(int(op.dtype));
  k.u8(int(op.cls));
}

// The run-time flag of the vector path: every contiguous operand starts on a vector boundary.
int vectors_aligned(const KernelPlan& p) {
  for (const std::vector<PlanOperand>* list : {&p.inputs, &p.outputs}) {
    for (const PlanOperand& o : *list) {
      const uintptr_t a = reinterpret_cast<uintptr_t>(o.ptr);
      if (o.cls == Cls::Contig && a % (uintptr_t(p.vec) * itemsize(o.dtype)) != 0) return 0;
    }
  }
  return 1;
}

void plan_elementwise(const Group& g, const DeviceProperties& props, KernelPlan& p) {
  Shape shape = g.shape;
  for (const GroupOutput& out : g.outputs) {
    if (out.dest.shape() != g.shape) throw Error("internal: output shape differs from its group's");
  }
  // The common case, every input contiguous or broadcast (all strides 0) and every output
  // contiguous, collapses to one dimension of n elements with strides 1 or 0 (all 1 when n is 1):
  // set that directly instead of merging dimension by dimension (dispatch cost).
  const int64_t n_all = shape_size(shape);
  bool flat = n_all > 0;
  for (const Array& in : g.inputs) {
    flat = flat && (all_zero(in.strides()) || is_row_major(shape, in.strides()));
  }
  for (const GroupOutput& out : g.outputs) flat = flat && is_row_major(shape, out.dest.strides());
  p.inputs.resize(g.inputs.size());
  p.outputs.resize(g.outputs.size());
  p.index.dtype = DType::Int64;
  for (size_t j = 0; j < g.inputs.size(); ++j) {
    const Array& in = g.inputs[j];
    PlanOperand& o = p.inputs[j];
    o.ptr = base_of(in);
    o.dtype = in.dtype();
    if (flat) {
      o.rst = {n_all == 1 || !all_zero(in.strides()) ? 1 : 0};
    } else {
      o.rst = in.strides();
    }
  }
  for (size_t j = 0; j < g.outputs.size(); ++j) {
    const Array& dest = g.outputs[j].dest;
    PlanOperand& o = p.outputs[j];
    o.ptr = base_of(dest);
    o.dtype = dest.dtype();
    if (flat) {
      o.rst = {1};
    } else {
      o.rst = dest.strides();
    }
  }
  StridesRefs ops;
  for (PlanOperand& o : p.inputs) ops.push_back(&o.rst);
  for (PlanOperand& o : p.outputs) ops.push_back(&o.rst);
  ops.push_back(&p.index.rst);
  if (flat) {
    shape = {n_all};
    p.index.rst = {1};
  } else {
    p.index.rst = contiguous_strides(g.shape);
    if (!g.outputs.empty()) to_memory_order(shape, ops, g.outputs[0].dest.strides());
    collapse(shape, ops);
  }
  if (shape.empty()) {  // 0-d, or all unit dims: one element
    shape = {1};
    for (Strides* s : ops) *s = {1};
  }
  p.rshape = shape;
  p.n = shape_size(shape);
  int64_t reach_max = p.n;
  bool contiguous = true;
  int max_item = 1;
  for (std::vector<PlanOperand>* list : {&p.inputs, &p.outputs}) {
    for (PlanOperand& o : *list) {
      o.cls = classify(shape, o.rst);
      // Only inputs may broadcast; an output is contiguous or written element by element.
      if (o.cls == Cls::Bcast && list == &p.outputs) o.cls = Cls::Strided;
      reach_max = std::max(reach_max, reach(shape, o.rst));
      if (o.cls == Cls::Strided) contiguous = false;
      if (o.cls == Cls::Contig) max_item = std::max(max_item, int(itemsize(o.dtype)));
    }
  }
  p.index.cls = classify(shape, p.index.rst);
  if (p.needs_index && p.index.cls != Cls::Contig) contiguous = false;
  p.contiguous = contiguous;
  p.idx64 = reach_max >= (int64_t(1) << 31) - (int64_t(1) << 22);
  if (contiguous) {
    p.vec = std::max(1, 16 / max_item);
    p.unroll = std::max(1, 8 / p.vec);
    p.outlined = detail::outlines_body(g);
    // A heavy body over few operands computes long between its loads: at least four vectors
    // (64 bytes) per operand keep enough bytes in flight. sqrt(x*x + y*y) * sin(x) + exp(-y)
    // over 2^26 float32 on the H200: two vectors 0.213 ms, four 0.204 (one: 0.236). Six
    // operands at four vectors would hold 96 registers of loads per thread.
    if (p.outlined && p.inputs.size() + p.outputs.size() <= 3) p.unroll = std::max(p.unroll, 4);
    p.aligned = vectors_aligned(p);
  }
  const int64_t per_block = int64_t(kBlockThreads) * (contiguous ? p.vec * p.unroll : 1);
  // One tile per block, as PyTorch launches (the loop strides the grid only past 2^30 blocks):
  // the block scheduler balances many short blocks, where a grid of 32 blocks per SM ran whole
  // rounds of tiles and left a partial last one (2^28 float32: 31.03 rounds). Add on the H200:
  // 4048 -> 4298 GB/s (PyTorch 4266); see docs/decisions.md (D17) for the case that got slower.
  const int64_t cap = int64_t(1) << 30;
  p.grid[0] = unsigned(std::clamp<int64_t>((p.n + per_block - 1) / per_block, 1, cap));
  // Random draws are compute-bound: there a grid of 32 blocks per SM looping over tiles ran
  // faster (H200, 2^28 float32 normals: 0.754 -> 0.708 ms; memory-bound bodies lost 3%).
  for (const Step& st : g.steps) {
    if (st.node->op >= OpKind::RandomUniform && st.node->op <= OpKind::RandomIntegers) {
      const int64_t waves = 32 * int64_t(std::max(props.multiprocessor_count, 1));
      p.grid[0] = unsigned(std::min<int64_t>(p.grid[0], waves));
      break;
    }
  }
}

void plan_reduction(const Group& g, KernelPlan& p) {
  const Node& node = *g.steps.back().node;
  const int nd = int(g.shape.size());
  std::vector<int> kept, red;
  for (int d = 0; d < nd; ++d) ((node.params.axes >> d) & 1 ? red : kept).push_back(d);
  auto split = [&](const Strides& st, Strides& k, Strides& r) {
    for (int d : kept) k.push_back(st[d]);
    for (int d : red) r.push_back(st[d]);
  };
  for (const Array& in : g.inputs) {
    PlanOperand o{base_of(in), in.dtype(), Cls::Strided, {}, {}};
    split(in.strides(), o.kst, o.rst);
    p.inputs.push_back(std::move(o));
  }
  p.index.dtype = DType::Int64;
  split(contiguous_strides(g.shape), p.index.kst, p.index.rst);
  for (const GroupOutput& out : g.outputs) {
    if (out.step == int(g.steps.size()) - 1) {
      PlanOperand o{base_of(out.dest), out.dest.dtype(), Cls::Strided, out.dest.strides(), {}};
      p.outputs.push_back(std::move(o));
      continue;
    }
    if (out.dest.shape() != g.shape) throw Error("internal: a prologue output's shape differs");
    PlanOperand o{base_of(out.dest), out.dest.dtype(), Cls::Strided, {}, {}};
    o.step = out.step;
    split(out.dest.strides(), o.kst, o.rst);
    p.prologue_outputs.push_back(std::move(o));
  }
  for (int d : kept) p.kshape.push_back(g.shape[d]);
  for (int d : red) p.rshape.push_back(g.shape[d]);
  StridesRefs kops, rops;
  for (PlanOperand& o : p.inputs) {
    kops.push_back(&o.kst);
    rops.push_back(&o.rst);
  }
  kops.push_back(&p.index.kst);
  rops.push_back(&p.index.rst);
  for (PlanOperand& o : p.prologue_outputs) {
    kops.push_back(&o.kst);
    rops.push_back(&o.rst);
  }
  for (PlanOperand& o : p.outputs) kops.push_back(&o.kst);
  collapse(p.kshape, kops);
  collapse(p.rshape, rops);
  p.outputs_n = shape_size(p.kshape);
  p.reduced_n = shape_size(p.rshape);
  int64_t reach_max = std::max(p.outputs_n, p.reduced_n);
  for (const PlanOperand& o : p.inputs) {
    reach_max = std::max(reach_max, reach(p.kshape, o.kst) + reach(p.rshape, o.rst));
  }
  for (const PlanOperand& o : p.prologue_outputs) {
    reach_max = std::max(reach_max, reach(p.kshape, o.kst) + reach(p.rshape, o.rst));
  }
  for (const PlanOperand& o : p.outputs) reach_max = std::max(reach_max, reach(p.kshape, o.kst));
  reach_max = std::max(reach_max, p.outputs_n * p.reduced_n);  // the logical index
  p.idx64 = reach_max >= (int64_t(1) << 31) - (int64_t(1) << 22);

  // Outer when the input's fastest-moving memory axis is kept: threads then walk outputs that
  // are neighbours in memory and every warp access is coalesced.
  const StepArg& arg = g.steps.back().args[0];
  const Array* primary = arg.kind == StepArg::Input ? &g.inputs[arg.index]
                         : g.inputs.empty()         ? nullptr
                                                    : &g.inputs[0];
  p.strategy = Strategy::Inner;
  if (primary && p.outputs_n >= 16 && p.reduced_n > 1) {
    int fastest = -1;
    for (int d = 0; d < nd; ++d) {
      if (g.shape[d] <= 1) continue;
      if (fastest < 0 || std::abs(primary->strides()[d]) < std::abs(primary->strides()[fastest])) {
        fastest = d;
      }
    }
    if (fastest >= 0 && !((node.params.axes >> fastest) & 1)) p.strategy = Strategy::Outer;
  }
  // 16-byte loads along one contiguous reduced dimension (inner strategy): each thread reads
  // `vec` elements per load, four loads per step, so a block keeps 16 KB in flight (HBM needs
  // ~32-64 KB per SM). Light prologues only (the body is unrolled 4 x vec times). Splits start
  // at multiples of vec; whether a row's start is 16-byte aligned is checked per output in the
  // kernel.
  bool vectors =
      p.strategy == Strategy::Inner && p.rshape.size() == 1 && !p.needs_index && !p.inputs.empty();
  int max_item = 1;
  for (const PlanOperand& o : p.inputs) {
    vectors = vectors && o.rst.size() == 1 && o.rst[0] == 1;
    max_item = std::max(max_item, int(itemsize(o.dtype)));
  }
  for (size_t k = 0; vectors && k + 1 < g.steps.size(); ++k) {
    vectors = detail::is_light(*g.steps[k].node);
  }
  if (vectors && 16 / max_item >= 2) p.vec = 16 / max_item;
}

}  // namespace

KernelPlan make_plan(const Group& g, const DeviceProperties& props) {
  KernelPlan p;
  make_plan(g, props, p);
  return p;
}

void size_reduction(KernelPlan& p, const DeviceProperties& props, int blocks_per_sm) {
  // Enough threads to fill the device twice over; a reduction too narrow for that is split
  // along its reduced range, and the last block of each column combines the partial results.
  const int64_t sms = std::max(props.multiprocessor_count, 1);
  const int64_t target = 2 * sms * std::max(props.max_threads_per_multiprocessor, 256);
  // Blocks the device runs at once, for this kernel's registers.
  const int64_t resident = sms * std::max(blocks_per_sm, 1);
  const int64_t O = std::max<int64_t>(p.outputs_n, 1), R = p.reduced_n;
  int64_t s = 1;
  if (p.strategy == Strategy::Outer) {
    const int64_t blocks = (O + 31) / 32;
    if (blocks * kBlockThreads < target / 2) {
      s = std::min<int64_t>({65535,
                             (target + blocks * kBlockThreads - 1) / (blocks * kBlockThreads),
                             std::max<int64_t>(R / 256, 1)});
      // Whole waves: a grid just past a multiple of the resident blocks leaves the device
      // mostly idle for a last wave, since split blocks all run equally long (16384 columns:
      // 512 x 5 blocks were 2.4 waves of 1056 on the H200, 0.95x PyTorch).
      const int64_t waves = std::max<int64_t>(blocks * s / resident, 1);
      s = std::max<int64_t>(std::min(s, waves * resident / blocks), 1);
    }
    p.splits = int(s);
    p.chunk = (R + s - 1) / s;
    p.grid[0] = unsigned(blocks);
    p.block[0] = 32;
    p.block[1] = kBlockThreads / 32;
  } else {
    if (O * pow2_ceil((R + 15) / 16, kBlockThreads) < target / 2) {
      // One wave of resident blocks when that gives each thread at most 4 KB to move: no block
      // waits for a slot and none is left for a last, partial wave. Longer blocks drift apart
      // (one wave of 2^28 float32 was 3% slower), and twice the device's threads balance them.
      // H200, 2026-12-02, ms queued for a single wave / twice the threads: sum of 2^26 float32
      // 0.067 / 0.073, ((a-b)**2).sum() 0.128 / 0.135, sum of 2^28 0.251 / 0.243, the
      // kept-intermediate sum 0.249 / 0.230.
      int64_t bytes = 0;  // moved per reduced element
      for (const PlanOperand& o : p.inputs) bytes += int64_t(itemsize(o.dtype));
      for (const PlanOperand& o : p.prologue_outputs) bytes += int64_t(itemsize(o.dtype));
      const int64_t one_wave = std::max<int64_t>(resident / O, 1);
      s = R * bytes <= one_wave * kBlockThreads * 4096
              ? one_wave
              : (target + O * kBlockThreads - 1) / (O * kBlockThreads);
      s = std::min<int64_t>({65535, s, std::max<int64_t>(R / 8192, 1)});
    }
    p.splits = int(s);
    p.chunk = (R + s - 1) / s;
    if (p.vec > 1) p.chunk = (p.chunk + p.vec - 1) / p.vec * p.vec;
    // Threads per output: ~16 scalar steps each, or at least one 4-vector step each.
    p.tpo = p.vec > 1 ? pow2_ceil((p.chunk / p.vec + 3) / 4, kBlockThreads)
                      : pow2_ceil((p.chunk + 15) / 16, kBlockThreads);
    const int64_t per_block = kBlockThreads / p.tpo;
    p.grid[0] = unsigned((O + per_block - 1) / per_block);
  }
  p.grid[1] = unsigned(p.splits);
}

void make_plan(const Group& g, const DeviceProperties& props, KernelPlan& p) {
  {
    // A fresh plan that keeps the old one's buffers.
    std::string key = std::move(p.key);
    std::vector<PlanOperand> inputs = std::move(p.inputs), outputs = std::move(p.outputs);
    key.clear();
    inputs.clear();
    outputs.clear();
    p = KernelPlan();
    p.key = std::move(key);
    p.inputs = std::move(inputs);
    p.outputs = std::move(outputs);
  }
  p.group = &g;
  for (const Step& st : g.steps) {
    if (op_class(st.node->op) == OpClass::Generator) p.needs_index = true;
  }
  if (g.kind == Group::Kind::Reduction) {
    plan_reduction(g, p);
  } else if (g.kind == Group::Kind::Rows) {
    p.strategy = Strategy::Rows;
    detail::plan_rows(g, p);
  } else {
    p.strategy = Strategy::Elementwise;
    plan_elementwise(g, props, p);
  }
  p.byref = param_bytes(p) > kMaxParamBytes;

  KeyWriter k;
  k.u8(int(p.strategy));
  k.u8((p.idx64 ? 1 : 0) | (p.byref ? 2 : 0) | (p.contiguous ? 4 : 0) | (p.needs_index ? 8 : 0));
  k.u8(p.vec);
  k.u8(p.unroll);
  k.u8(int(p.kshape.size()));
  k.u8(int(p.rshape.size()));
  k.u8(int(p.index.cls));
  k.u16(int(p.inputs.size()));
  for (const PlanOperand& o : p.inputs) key_operand(o, k);
  k.u16(int(p.outputs.size()));
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    key_operand(p.outputs[i], k);
    k.u16(p.strategy == Strategy::Elementwise || p.strategy == Strategy::Rows ? g.outputs[i].step
                                                                              : 0);
  }
  k.u16(int(p.prologue_outputs.size()));
  for (const PlanOperand& o : p.prologue_outputs) {
    key_operand(o, k);
    k.u16(o.step);
  }
  key_steps(g, k);
  if (p.strategy == Strategy::Rows) {
    k.u16(p.tpo);
    k.u8(p.ept);
    k.u8(p.by_column ? 1 : 0);
    for (const Step& st : g.steps) k.u8(st.per_row ? 1 : 0);
    for (const char r : g.row_inputs) k.u8(r);
  }
  p.key.assign(k.s.data(), k.s.size());
}

namespace {

// Everything make_plan reads from an elementwise or row group except addresses (see
// make_plan_cached). The kind comes first: a row group's plan is not an elementwise one.
void signature(const Group& g, int device, PlanSignature& sig) {
  sig.clear();
  const auto put = [&](int64_t v) { sig.push_back(v); };
  put(int64_t(g.kind));
  put(device);
  put(int64_t(g.shape.size()));
  for (int64_t d : g.shape) put(d);
  put(int64_t(g.inputs.size()));
  for (const Array& in : g.inputs) {
    put(int64_t(in.dtype()));
    for (int64_t st : in.strides()) put(st);
  }
  put(int64_t(g.outputs.size()));
  for (const GroupOutput& out : g.outputs) {
    put(int64_t(out.dest.dtype()));
    put(out.step);
    put(out.dest.shape() == g.shape ? 1 : 0);
    for (int64_t st : out.dest.strides()) put(st);
  }
  put(int64_t(g.steps.size()));
  const bool rows = g.kind == Group::Kind::Rows;
  for (const Step& st : g.steps) {
    put(int64_t(st.node->op));
    put(int64_t(st.node->dtype));
    if (rows) {
      // A row kernel's reductions read their compute dtype and parameters, and its passes
      // which steps are per row.
      put(int64_t(st.node->compute));
      put(int64_t(st.node->params.axes));
      put(std::bit_cast<int64_t>(st.node->params.ddof));
      put(int64_t(st.per_row));
    }
    put(int64_t(st.args.size()));
    for (const StepArg& a : st.args) {
      put(int64_t(a.kind));
      put(a.kind == StepArg::Scalar ? int64_t(a.scalar->dtype) : int64_t(a.index));
    }
  }
  if (rows) {
    put(int64_t(g.row_axes));
    for (const char r : g.row_inputs) put(r);
  }
}

}  // namespace

KernelPlan& make_plan_cached(const Group& g, const DeviceProperties& props, int device,
                             LaunchPlans& plans) {
  if (g.kind != Group::Kind::Elementwise && g.kind != Group::Kind::Rows) {
    make_plan(g, props, plans.other);
    return plans.other;
  }
  PlanSignature sig;
  signature(g, device, sig);
  if (plans.entries.empty()) plans.entries.resize(LaunchPlans::kEntries);
  for (LaunchPlans::Entry& e : plans.entries) {
    if (e.signature.empty() || e.signature != sig) continue;
    // Same signature, so the same plan up to the addresses it carries.
    KernelPlan& p = e.plan;
    p.group = &g;
    for (size_t j = 0; j < g.inputs.size(); ++j) p.inputs[j].ptr = base_of(g.inputs[j]);
    for (size_t j = 0; j < g.outputs.size(); ++j) p.outputs[j].ptr = base_of(g.outputs[j].dest);
    if (p.contiguous) p.aligned = vectors_aligned(p);
    ++plans.hits;
    return p;
  }
  LaunchPlans::Entry& e = plans.entries[plans.next++ % LaunchPlans::kEntries];
  e.signature.clear();  // unused until the plan below is made: make_plan may throw
  make_plan(g, props, e.plan);
  e.signature = sig;
  return e.plan;
}

size_t partial_bytes(const KernelPlan& p) {
  if (p.strategy == Strategy::Elementwise || p.splits <= 1) return 0;
  const Node& node = *p.group->steps.back().node;
  const size_t acc = dispatch_dtype(node.compute, [&](auto tag) -> size_t {
    using T = typename decltype(tag)::type;
    switch (node.op) {
      case OpKind::Sum:
      case OpKind::Prod:
        return sizeof(reduce::acc_t<T>);
      case OpKind::Max:
      case OpKind::Min:
        return sizeof(typename reduce::Max<T>::Acc);
      case OpKind::ArgMax:
      case OpKind::ArgMin:
        return sizeof(typename reduce::ArgMax<T>::Acc);
      default:
        return sizeof(bool);
    }
  });
  return acc * size_t(std::max<int64_t>(p.outputs_n, 1)) * size_t(p.splits);
}

std::string describe(const Group& g) {
  std::string s;
  for (const Step& st : g.steps) {
    if (!s.empty()) s += ",";
    s += op_name(st.node->op);
    s += "<";
    s += dtype_name(st.node->dtype);
    s += ">";
    if (s.size() > 120) {
      s += ",...";
      break;
    }
  }
  return s;
}

}  // namespace accel::cuda
