// Evaluation: collect the pending graph behind the targets, cut it into groups, run them.
//
// Grouping rule (the planner): walking nodes consumers-first, an elementwise node joins the
// group of its consumers when all of them are in one group that iterates over the node's
// shape and reads the node's output as-is (not broadcast, sliced or transposed). Because a
// node joins only when every consumer is in the group, groups are convex (no path leaves a
// group and re-enters it), so running groups in the order their roots were created respects
// every dependency. A node whose result is still referenced from outside the plan (a live
// Python array, say) is written out even when fused, so it is never computed twice.
#include "src/core/eval.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <span>
#include <unordered_set>

#include "accel/errors.hpp"
#include "accel/eval_stats.hpp"
#include "src/core/backend.hpp"
#include "src/core/graph.hpp"
#include "src/core/group.hpp"

namespace accel {

namespace {

bool read_fusion_env() {
  const char* v = std::getenv("ACCELPY_FUSION");
  return !(v && std::strcmp(v, "0") == 0);
}
bool g_fusion = read_fusion_env();

// The largest number of steps one group may hold.
constexpr size_t kMaxGroupSteps = 128;

// Relaxed atomics: the counters order nothing, they only count.
std::atomic<uint64_t> g_groups_run{0};
std::atomic<uint64_t> g_nodes_run{0};
std::atomic<uint64_t> g_outputs_written{0};

struct PlanNode {
  explicit PlanNode(Node* n) : node(n) {}
  Node* node;
  bool external = false;     // referenced from outside the plan, or a target
  bool materialize = false;  // its result is written to memory
  int group = -1;
  SmallVector<int, 4> consumers;  // plan indices
};

struct Plan {
  std::vector<PlanNode> nodes;                      // topological order: producers first
  std::vector<std::pair<const Node*, int>> sorted;  // (node, index in `nodes`), by pointer

  int index_of(const Node* n) const {
    const auto it =
        std::lower_bound(sorted.begin(), sorted.end(), std::pair<const Node*, int>{n, -1});
    return (it != sorted.end() && it->first == n) ? it->second : -1;
  }
};

Node* pending_producer(const Operand& in) {
  if (in.is_scalar()) return nullptr;
  const Storage* s = in.array.storage().get();
  return s->is_pending() ? s->producer() : nullptr;
}

// Post-order DFS from the targets' producers, without recursion.
void collect(std::span<Storage* const> targets, Plan& plan) {
  // A hash set: a sorted vector costs O(n) per insertion, quadratic on wide or deep plans.
  std::unordered_set<const Node*> seen;
  auto mark = [&](const Node* n) { return seen.insert(n).second; };
  std::vector<std::pair<Node*, size_t>> stack;
  for (Storage* t : targets) {
    Node* root = t->producer();
    if (!root || !mark(root)) continue;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->inputs.size()) {
        Node* p = pending_producer(node->inputs[next++]);
        if (p && mark(p)) stack.push_back({p, 0});
        continue;
      }
      plan.nodes.emplace_back(node);
      stack.pop_back();
    }
  }
  plan.sorted.reserve(plan.nodes.size());
  for (size_t i = 0; i < plan.nodes.size(); ++i)
    plan.sorted.push_back({plan.nodes[i].node, int(i)});
  std::sort(plan.sorted.begin(), plan.sorted.end());
}

// Finds consumers, and which results are referenced from outside the plan: a result is
// internal when every Array::Impl pointing at its storage is held only by operands of plan
// nodes (the evaluator itself holds no handles while this runs).
void analyze_references(std::span<Storage* const> targets, Plan& plan) {
  struct Ref {
    const Array::Impl* impl;
    int producer;
    const Array* holder;
    bool operator<(const Ref& o) const { return impl < o.impl; }
  };
  std::vector<Ref> refs;
  for (size_t c = 0; c < plan.nodes.size(); ++c) {
    for (const Operand& in : plan.nodes[c].node->inputs) {
      const Node* p = pending_producer(in);
      if (!p) continue;
      const int pi = plan.index_of(p);
      refs.push_back({in.array.impl(), pi, &in.array});
      auto& cons = plan.nodes[pi].consumers;
      if (std::find(cons.begin(), cons.end(), int(c)) == cons.end()) cons.push_back(int(c));
    }
  }
  std::sort(refs.begin(), refs.end());
  std::vector<long> internal_impls(plan.nodes.size(), 0);
  for (size_t i = 0; i < refs.size();) {
    size_t j = i;
    while (j < refs.size() && refs[j].impl == refs[i].impl) ++j;
    if (refs[i].holder->use_count() == long(j - i)) {
      ++internal_impls[refs[i].producer];
    } else {
      plan.nodes[refs[i].producer].external = true;
    }
    i = j;
  }
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    // Storage handles are held only by impls; the temporary from shared_from_this adds one.
    const long holders = plan.nodes[i].node->output->shared_from_this().use_count() - 1;
    if (holders != internal_impls[i]) plan.nodes[i].external = true;
  }
  for (Storage* t : targets) {
    if (Node* n = t->producer()) plan.nodes[plan.index_of(n)].external = true;
  }
}

// Whether operand `in` of a consumer reads producer `p`'s output exactly as laid out.
bool reads_as_is(const Operand& in, const Node* p) {
  const Array& a = in.array;
  return a.dtype() == p->dtype && a.offset() == 0 && a.shape() == p->shape &&
         a.strides() == contiguous_strides(p->shape);
}

struct GroupDraft {
  Group::Kind kind;
  Device device;
  Shape shape;
  std::vector<int> members;
};

bool fusible(OpKind op) {
  const OpClass c = op_class(op);
  return c == OpClass::Elementwise || c == OpClass::Generator;
}

// Cuts the plan into groups, walking consumers first; drafts come out in reverse execution
// order.
std::vector<GroupDraft> form_groups(Plan& plan) {
  std::vector<GroupDraft> drafts;
  for (size_t ii = plan.nodes.size(); ii-- > 0;) {
    PlanNode& pn = plan.nodes[ii];
    Node* n = pn.node;
    int join = -1;
    if (g_fusion && fusible(n->op) && !pn.consumers.empty()) {
      join = plan.nodes[pn.consumers[0]].group;
      for (int c : pn.consumers) {
        if (plan.nodes[c].group != join) join = -1;
      }
      if (join >= 0) {
        const GroupDraft& g = drafts[join];
        // A Single group runs its one node by itself: concatenate([x + 1]) has the shape of
        // its input, but its producer cannot run inside it.
        bool ok = g.kind != Group::Kind::Single && g.device == n->device && g.shape == n->shape &&
                  g.members.size() < kMaxGroupSteps &&
                  !(pn.external && g.kind == Group::Kind::Reduction);
        for (int c : pn.consumers) {
          for (const Operand& in : plan.nodes[c].node->inputs) {
            if (pending_producer(in) == n && !reads_as_is(in, n)) ok = false;
          }
        }
        if (!ok) join = -1;
      }
    }
    if (join >= 0) {
      pn.group = join;
      pn.materialize = pn.external;
      drafts[join].members.push_back(int(ii));
      continue;
    }
    GroupDraft g{Group::Kind::Elementwise, n->device, n->shape, {int(ii)}};
    if (op_class(n->op) == OpClass::Reduction) {
      g.kind = Group::Kind::Reduction;
      g.shape = n->inputs[0].array.shape();
    } else if (op_class(n->op) == OpClass::Other) {
      g.kind = Group::Kind::Single;
    }
    pn.group = int(drafts.size());
    pn.materialize = true;
    drafts.push_back(std::move(g));
  }
  return drafts;
}

Array contiguous_dest(const Node* n) {
  return Array::from_storage(n->output->shared_from_this(), n->dtype, n->shape,
                             contiguous_strides(n->shape), 0);
}

Group build_group(const Plan& plan, GroupDraft& draft) {
  Group g;
  g.kind = draft.kind;
  g.device = draft.device;
  g.shape = draft.shape;
  std::sort(draft.members.begin(), draft.members.end());  // topological order
  const std::vector<int>& members = draft.members;
  const int group_id = plan.nodes[members[0]].group;
  std::vector<const Array::Impl*> input_impls;
  for (int m : members) {
    const PlanNode& pn = plan.nodes[m];
    Step step{pn.node, {}};
    for (const Operand& in : pn.node->inputs) {
      StepArg arg{StepArg::Scalar};
      const Node* p = pending_producer(in);
      if (in.is_scalar()) {
        arg.scalar = &in.scalar;
      } else if (p && plan.nodes[plan.index_of(p)].group == group_id) {
        arg.kind = StepArg::Step;
        arg.index =
            int(std::find(members.begin(), members.end(), plan.index_of(p)) - members.begin());
      } else {
        arg.kind = StepArg::Input;
        const auto it = std::find(input_impls.begin(), input_impls.end(), in.array.impl());
        arg.index = int(it - input_impls.begin());
        if (it == input_impls.end()) {
          input_impls.push_back(in.array.impl());
          g.inputs.push_back(in.array);
        }
      }
      step.args.push_back(arg);
    }
    g.steps.push_back(std::move(step));
    if (pn.materialize) g.outputs.push_back({int(g.steps.size() - 1), contiguous_dest(pn.node)});
  }
  return g;
}

// Gives every output storage of the group its memory (redirected outputs write into an
// existing view instead), runs the group, and releases the producers of what it computed.
void run_group(Group& g) {
  Backend& backend = backend_for(g.device);
  std::vector<Storage*> allocated;
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
  std::vector<std::shared_ptr<Node>> done;
  for (GroupOutput& out : g.outputs) {
    Storage* s = out.dest.storage().get();
    if (s->is_pending() && s->producer() == g.steps[out.step].node) {
      done.push_back(s->take_producer());
      done.back()->output = nullptr;
    }
  }
  g.steps.clear();  // raw node pointers die with `done`
}

// One node over computed inputs (a single op on arrays that exist: the common case in
// interactive use) needs no plan: its group is the node alone. This is the planner's result for
// such a graph, built without the plan's bookkeeping, which dominates dispatch cost.
bool evaluate_single(Storage* target, const Array* redirect_dest) {
  Node* n = target->producer();
  for (const Operand& in : n->inputs) {
    if (pending_producer(in)) return false;
  }
  Group g;
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
  g.outputs.push_back({0, redirect_dest ? *redirect_dest : contiguous_dest(n)});
  run_group(g);
  return true;
}

void evaluate(std::span<Storage* const> targets, const Array* redirect_dest) {
  if (targets.size() == 1 && targets[0]->producer() && evaluate_single(targets[0], redirect_dest)) {
    return;
  }
  Plan plan;
  collect(targets, plan);
  if (plan.nodes.empty()) return;
  analyze_references(targets, plan);
  std::vector<GroupDraft> drafts = form_groups(plan);
  // Build every group before running any: running releases nodes the plan still points at.
  std::vector<Group> groups;
  groups.reserve(drafts.size());
  for (size_t i = drafts.size(); i-- > 0;) groups.push_back(build_group(plan, drafts[i]));
  if (redirect_dest) {
    // The target (the last group's root) is written into the caller's view instead.
    Group& last = groups.back();
    for (GroupOutput& out : last.outputs) {
      if (out.dest.storage().get() == targets[0]) out.dest = *redirect_dest;
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
  if (value.is_pending()) collect(std::span<Storage* const>(&value_storage, 1), plan);
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
      if (value.is_pending()) collect(std::span<Storage* const>(&value_storage, 1), plan);
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
  return s;
}

void reset_eval_stats() {
  g_groups_run.store(0, std::memory_order_relaxed);
  g_nodes_run.store(0, std::memory_order_relaxed);
  g_outputs_written.store(0, std::memory_order_relaxed);
}

bool fusion_enabled() { return g_fusion; }
void set_fusion_enabled(bool enabled) { g_fusion = enabled; }

}  // namespace accel
