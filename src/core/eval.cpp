// Evaluation: plan the pending graph behind the targets (planner.cpp, cse.cpp), run its groups,
// and keep the books: counters, the structures seen, the fusion debug log.
#include "src/core/eval.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <span>
#include <unordered_set>

#include "accel/errors.hpp"
#include "accel/eval_stats.hpp"
#include "accel/fusion.hpp"
#include "accel/small_vector.hpp"
#include "src/core/backend.hpp"
#include "src/core/graph.hpp"
#include "src/core/group.hpp"
#include "src/core/pending_memory.hpp"
#include "src/core/plan.hpp"
#include "src/core/word_hash.hpp"

namespace accel {

using plan::pending_producer;
using plan::Plan;
using plan::PlanNode;

namespace {

bool read_fusion_env() {
  const char* v = std::getenv("ACCELPY_FUSION");
  return !(v && std::strcmp(v, "0") == 0);
}
bool g_fusion = read_fusion_env();

// Relaxed atomics: the counters order nothing, they only count.
std::atomic<uint64_t> g_groups_run{0};
std::atomic<uint64_t> g_nodes_run{0};
std::atomic<uint64_t> g_outputs_written{0};
std::atomic<uint64_t> g_structure_hits{0};

// ---- group structures -----------------------------------------------------------------------
// A group's structure is what a compiled kernel depends on: ops, dtypes, how steps are wired,
// the number of dimensions and each operand's layout class; never sizes, strides or scalar
// values. The CUDA backend keys its kernel cache by (a refinement of) it; the planner counts
// the distinct structures it has run, which on any backend bounds the kernels a program needs.

struct StructureSet {
  std::mutex mutex;
  std::unordered_set<uint64_t> seen;
};
StructureSet& structures() {
  static auto* s = new StructureSet;
  return *s;
}

int layout_class(const Array& a, const Shape& space) {
  const Strides& st = a.strides();
  if (std::all_of(st.begin(), st.end(), [](int64_t s) { return s == 0; })) return 1;
  return a.shape() == space && is_row_major(space, st) ? 0 : 2;
}
const char* class_name(int c) { return c == 0 ? "contiguous" : c == 1 ? "broadcast" : "strided"; }

uint64_t structure_of(const Group& g) {
  WordHash f;
  f.add(uint64_t(g.kind));
  f.add(uint64_t(g.device.type));
  f.add(g.shape.size());
  for (const Array& in : g.inputs) {
    f.add(uint64_t(in.dtype()));
    f.add(layout_class(in, g.shape));
  }
  for (const GroupOutput& o : g.outputs) {
    f.add(uint64_t(o.dest.dtype()));
    f.add(uint64_t(o.step));
    f.add(o.dest.shape() == g.shape ? layout_class(o.dest, g.shape) : 3);
  }
  for (const Step& st : g.steps) {
    f.add(uint64_t(st.node->op));
    f.add(uint64_t(st.node->dtype));
    f.add(st.node->params.axes);
    for (const StepArg& a : st.args) {
      f.add(uint64_t(a.kind));
      f.add(a.kind == StepArg::Scalar ? uint64_t(a.scalar->dtype) : uint64_t(a.index));
    }
    if (g.kind == Group::Kind::Single) {
      for (const Operand& in : st.node->inputs) f.add(in.is_scalar() ? 0 : in.array.ndim());
    }
  }
  return f.h;
}

// Bumped when the set is cleared, so that a thread's remembered structure is forgotten.
std::atomic<uint64_t> g_structures_generation{0};

// Records the group's structure; returns whether it had run before.
bool note_structure(const Group& g) {
  const uint64_t key = structure_of(g);
  // The structure this thread recorded last is known to be in the set (unless the set was
  // cleared since): a loop of one operation skips the lock and the lookup.
  thread_local uint64_t last_key = 0, last_generation = ~uint64_t(0);
  const uint64_t generation = g_structures_generation.load(std::memory_order_acquire);
  if (key == last_key && generation == last_generation) {
    g_structure_hits.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  StructureSet& s = structures();
  std::lock_guard lock(s.mutex);
  const bool seen = !s.seen.insert(key).second;
  if (seen) g_structure_hits.fetch_add(1, std::memory_order_relaxed);
  last_key = key;
  last_generation = generation;
  return seen;
}

// ---- the fusion debug log -------------------------------------------------------------------

FusionLogger& logger() {
  static FusionLogger* l = [] {
    auto* f = new FusionLogger;
    const char* v = std::getenv("ACCELPY_DEBUG_FUSION");
    if (v && *v && std::strcmp(v, "0") != 0) {
      *f = [](const FusionRecord& r) {
        std::fprintf(stderr, "%s\n", format_fusion_record(r).c_str());
      };
    }
    return f;
  }();
  return *l;
}

std::string describe_array(const Array& a, const Shape& space) {
  std::string s(dtype_name(a.dtype()));
  s += "[";
  for (size_t d = 0; d < a.shape().size(); ++d) s += (d ? "," : "") + std::to_string(a.shape()[d]);
  s += "]";
  if (a.shape() == space) s += std::string(" ") + class_name(layout_class(a, space));
  return s;
}

void log_group(Backend& backend, const Group& g, bool seen) {
  FusionRecord r;
  r.kind = g.kind == Group::Kind::Elementwise ? "elementwise"
           : g.kind == Group::Kind::Reduction ? "reduction"
                                              : "single";
  r.device = g.device.str();
  for (const Step& st : g.steps) {
    r.ops.push_back(std::string(op_name(st.node->op)) + "<" +
                    std::string(dtype_name(st.node->dtype)) + ">");
  }
  for (const Array& in : g.inputs) r.inputs.push_back(describe_array(in, g.shape));
  for (const GroupOutput& o : g.outputs) {
    r.outputs.push_back(describe_array(o.dest, g.shape) + " <- step " + std::to_string(o.step));
  }
  r.structure_seen = seen;
  r.param_bytes = plan::param_bytes(g);
  backend.describe_last_run(r.kernel, r.cache);
  if (r.kernel.empty()) {
    r.kernel = g.device.is_cpu() ? "cpu" : "-";
    r.cache = seen ? "hit" : "miss";
  }
  logger()(r);
}

// Gives every output storage of the group its memory (redirected outputs write into an
// existing view instead), runs the group, and releases the producers of what it computed.
void run_group(Group& g) {
  Backend& backend = backend_for(g.device);
  SmallVector<Storage*, 4> allocated;
  try {
    for (GroupOutput& out : g.outputs) {
      Storage* s = out.dest.storage().get();
      if (s->is_pending() && !s->data()) {
        s->set_data(backend.allocate(s->nbytes()));
        allocated.push_back(s);
      }
    }
    backend.run(g);
    g_groups_run.fetch_add(1, std::memory_order_relaxed);
    g_nodes_run.fetch_add(g.steps.size(), std::memory_order_relaxed);
    g_outputs_written.fetch_add(g.outputs.size(), std::memory_order_relaxed);
  } catch (...) {
    for (Storage* s : allocated) {
      backend.deallocate(s->data(), s->nbytes());
      s->set_data(nullptr);
    }
    throw;
  }
  const bool seen = note_structure(g);
  if (fusion_logging()) log_group(backend, g, seen);
  // Every pending storage written here is computed now: its producer (a step of the group, or
  // a duplicate that common-subexpression elimination merged into one) can go.
  // (The first one is held apart: most groups write one output, and then nothing is allocated.)
  std::shared_ptr<Node> first_done;
  std::vector<std::shared_ptr<Node>> done;
  for (GroupOutput& out : g.outputs) {
    Storage* s = out.dest.storage().get();
    if (s->is_pending() && s->data()) {
      std::shared_ptr<Node> n = s->take_producer();
      n->output = nullptr;
      if (!first_done) {
        first_done = std::move(n);
      } else {
        done.push_back(std::move(n));
      }
    }
  }
  g.steps.clear();  // raw node pointers die with `first_done` and `done`
}

// One node over computed inputs (a single op on arrays that exist: the common case in
// interactive use) needs no plan: its group is the node alone. This is the planner's result for
// such a graph, built without the plan's bookkeeping, which dominates dispatch cost.
// The group of evaluate_single, reused by the thread (its vectors keep their capacity, so a
// dispatch allocates none of them); emptied after every use, so it holds no array in between.
struct ReusedGroup {
  Group group;
  bool busy = false;
};
thread_local ReusedGroup t_single;

struct GroupLease {
  Group local;
  Group* g;
  bool leased;
  GroupLease() : g(t_single.busy ? &local : &t_single.group), leased(!t_single.busy) {
    t_single.busy = true;
  }
  ~GroupLease() {
    if (!leased) return;
    g->inputs.clear();
    g->steps.clear();
    g->outputs.clear();
    g->shape.clear();
    g->kind = Group::Kind::Elementwise;
    t_single.busy = false;
  }
  GroupLease(const GroupLease&) = delete;
  GroupLease& operator=(const GroupLease&) = delete;
};

bool evaluate_single(Storage* target, const Array* redirect_dest) {
  Node* n = target->producer();
  for (const Operand& in : n->inputs) {
    if (pending_producer(in)) return false;
  }
  GroupLease lease;
  Group& g = *lease.g;
  g.device = n->device;
  switch (op_class(n->op)) {
    case OpClass::Reduction:
      g.kind = Group::Kind::Reduction;
      g.shape = n->inputs[0].array.shape();
      break;
    case OpClass::Other:
      g.kind = Group::Kind::Single;
      break;
    default:
      g.shape = n->shape;
      break;
  }
  Step step{n, {}};
  for (const Operand& in : n->inputs) {
    StepArg arg{StepArg::Scalar};
    if (in.is_scalar()) {
      arg.scalar = &in.scalar;
    } else {
      arg.kind = StepArg::Input;
      arg.index = int(g.inputs.size());
      for (size_t i = 0; i < g.inputs.size(); ++i) {
        if (g.inputs[i].impl() == in.array.impl()) arg.index = int(i);
      }
      if (arg.index == int(g.inputs.size())) g.inputs.push_back(in.array);
    }
    step.args.push_back(arg);
  }
  g.steps.push_back(std::move(step));
  g.outputs.push_back({0, redirect_dest ? *redirect_dest : plan::contiguous_dest(n)});
  run_group(g);
  return true;
}

void evaluate(std::span<Storage* const> targets, const Array* redirect_dest) {
  if (targets.size() == 1 && targets[0]->producer() && evaluate_single(targets[0], redirect_dest)) {
    return;
  }
  Plan plan;
  plan::collect(targets, plan);
  if (plan.nodes.empty()) return;
  plan::analyze_references(targets, plan);
  if (g_fusion) plan::merge_common_subexpressions(plan, redirect_dest ? targets[0] : nullptr);
  std::vector<plan::GroupDraft> drafts = plan::form_groups(plan, g_fusion);
  // Build every group before running any: running releases nodes the plan still points at.
  std::vector<Group> groups;
  groups.reserve(drafts.size());
  for (size_t i = drafts.size(); i-- > 0;) groups.push_back(plan::build_group(plan, drafts[i]));
  if (redirect_dest) {
    // The target is written into the caller's view instead of its own storage.
    for (Group& g : groups) {
      for (GroupOutput& out : g.outputs) {
        if (out.dest.storage().get() == targets[0]) out.dest = *redirect_dest;
      }
    }
  }
  for (Group& g : groups) run_group(g);
}

}  // namespace

void evaluate_storages(const std::vector<Storage*>& targets) { evaluate(targets, nullptr); }

void evaluate_storage(Storage* target) { evaluate(std::span<Storage* const>(&target, 1), nullptr); }

namespace {
// Whether computing `value` (whose pending graph is `plan`) reads dst's memory through a layout
// other than dst's own: through another view of dst's storage, or through another storage over
// the same memory (NumPy memory wrapped twice).
bool reads_other_view(const Array& value, const Plan& plan, const Array& dst) {
  const auto aliases = [&](const Array& a) {
    if (a.storage() == dst.storage()) return !a.same_view(dst);
    return a.storage()->overlaps(*dst.storage());
  };
  if (aliases(value)) return true;
  for (const PlanNode& pn : plan.nodes) {
    for (const Operand& in : pn.node->inputs) {
      if (!in.is_scalar() && aliases(in.array)) return true;
    }
  }
  return false;
}
}  // namespace

void evaluate_into(const Array& dst, Array value) {
  Storage& ds = *dst.storage();
  if (ds.is_pending()) evaluate_storage(&ds);
  // The write barrier, except for readers that this write computes itself: `a += 1` reads each
  // element of a before writing it, in the same kernel.
  Plan plan;
  Storage* value_storage = value.storage().get();
  if (value.is_pending()) plan::collect(std::span<Storage* const>(&value_storage, 1), plan);
  {
    // `readers` keeps the nodes alive while their outputs are computed.
    const std::vector<std::shared_ptr<Node>> readers = take_pending_readers(ds);
    std::vector<Storage*> others;
    for (const std::shared_ptr<Node>& n : readers) {
      if (plan.index_of(n.get()) < 0) others.push_back(n->output);
    }
    if (!others.empty()) {
      evaluate(others, nullptr);
      // That may have computed, and freed, nodes of the value's plan.
      plan = Plan();
      if (value.is_pending()) plan::collect(std::span<Storage* const>(&value_storage, 1), plan);
    }
  }
  // Writing the final group straight into dst is safe when it reads dst's memory only through
  // dst's own layout. Otherwise (a[1:] = a[:-1]) compute into fresh memory first.
  // `value` is moved into the copy node, so that a value only the write holds counts as internal
  // to the plan and fuses into the copy.
  const bool other_view = reads_other_view(value, plan, dst);
  plan = Plan();  // raw node pointers: not kept across evaluation
  if (other_view) {
    const DType dt = value.dtype();
    const Shape shape = value.shape();
    const Device device = value.device();
    Array tmp = make_pending(OpKind::Cast, dt, shape, device, {Operand{std::move(value)}});
    tmp.eval();
    value = std::move(tmp);
  }
  const Array copy = make_pending(OpKind::Cast, dst.dtype(), dst.shape(), dst.device(),
                                  {Operand{std::move(value)}});
  Storage* target = copy.storage().get();
  evaluate(std::span<Storage* const>(&target, 1), &dst);
  ds.bump_version();
}

EvalStats eval_stats() {
  EvalStats s;
  s.groups_run = g_groups_run.load(std::memory_order_relaxed);
  s.nodes_run = g_nodes_run.load(std::memory_order_relaxed);
  s.outputs_written = g_outputs_written.load(std::memory_order_relaxed);
  {
    StructureSet& st = structures();
    std::lock_guard lock(st.mutex);
    s.structures = st.seen.size();
  }
  s.structure_hits = g_structure_hits.load(std::memory_order_relaxed);
  s.early_evaluations = pending::early_evaluations();
  return s;
}

void reset_eval_stats() {
  g_groups_run.store(0, std::memory_order_relaxed);
  g_nodes_run.store(0, std::memory_order_relaxed);
  g_outputs_written.store(0, std::memory_order_relaxed);
  g_structure_hits.store(0, std::memory_order_relaxed);
  {
    StructureSet& st = structures();
    std::lock_guard lock(st.mutex);
    st.seen.clear();
    g_structures_generation.fetch_add(1, std::memory_order_acq_rel);
  }
  pending::reset_early_evaluations();
}

void set_fusion_logger(FusionLogger l) { logger() = std::move(l); }
bool fusion_logging() { return static_cast<bool>(logger()); }

std::string format_fusion_record(const FusionRecord& r) {
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  return "[accelpy fusion] " + r.kind + " on " + r.device + ": " + std::to_string(r.ops.size()) +
         " ops [" + join(r.ops) + "] inputs [" + join(r.inputs) + "] outputs [" + join(r.outputs) +
         "] kernel " + r.kernel + " (" + r.cache + ", structure " +
         (r.structure_seen ? "seen" : "new") + ", " + std::to_string(r.param_bytes) +
         " param bytes)";
}

bool fusion_enabled() { return g_fusion; }
void set_fusion_enabled(bool enabled) { g_fusion = enabled; }

}  // namespace accel
