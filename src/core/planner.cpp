// The planner: collects the pending graph behind the targets and cuts it into groups.
//
// Grouping rule: walking nodes consumers-first, an elementwise node joins the group of its
// consumers when all of them are in one group that iterates over the node's shape and reads the
// node's output as-is (not broadcast, sliced or transposed), and the group stays within its
// backend's limits (steps, kernel parameter bytes: BackendLimits). When its consumers are in
// several elementwise groups over its shape, none of which depends on another, those groups are
// merged first (one kernel with several outputs: a shared subexpression stays in registers).
// Because a node joins only when every consumer is in the group, groups are convex (no path
// leaves a group and re-enters it), so running groups in the order their roots were created
// respects every dependency; after merges the groups are put in such an order again. A node whose
// result is still referenced from outside the plan (a live Python array, say) is written out even
// when fused, so it is never computed twice; in a reduction group too, where the backend writes
// such values (the CPU: the reduction's prologue runs block by block over the same elements).
//
// Row groups (row_groups.cpp) are formed from these groups afterwards: a reduction and the work
// that reads its result broadcast back over the same rows.
//
// Horizontal fusion: groups that nothing else in the plan reads (the arrays `eval` was given)
// can run in any order after their inputs; elementwise ones over the same iteration space are
// merged, so that `eval(a + b, a * b)` reads a and b once.
#include <algorithm>
#include <stdexcept>

#include "accel/storage.hpp"
#include "src/core/plan.hpp"

namespace accel::plan {

Node* pending_producer(const Operand& in) {
  if (in.is_scalar()) return nullptr;
  const Storage* s = in.array.storage().get();
  return s->is_pending() ? s->producer() : nullptr;
}

void collect(std::span<Storage* const> targets, Plan& plan) {
  // A node is marked on its first visit (index -1) and numbered once its inputs are.
  bool fresh = false;
  struct Frame {
    Node* node;
    size_t next;  // the next input to visit
  };
  SmallVector<Frame, 16> stack;
  for (Storage* t : targets) {
    Node* root = t->producer();
    if (!root) continue;
    plan.index.reserve(plan.index.size() + size_t(root->depth));
    plan.index.find_or_insert(root, -1, fresh);
    if (!fresh) continue;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->inputs.size()) {
        Node* p = pending_producer(node->inputs[next++]);
        if (!p) continue;
        plan.index.find_or_insert(p, -1, fresh);
        if (fresh) stack.push_back({p, 0});
        continue;
      }
      // (Slots move when the table grows: looked up again rather than kept.)
      plan.index.find_or_insert(node, -1, fresh) = int(plan.nodes.size());
      plan.nodes.emplace_back(node);
      stack.pop_back();
    }
  }
}

void analyze_references(std::span<Storage* const> targets, Plan& plan) {
  References refs;
  for (size_t c = 0; c < plan.nodes.size(); ++c) {
    for (const Operand& in : plan.nodes[c].node->inputs) {
      if (const Node* p = pending_producer(in)) refs.note(plan, int(c), in, plan.index_of(p));
    }
  }
  refs.resolve(targets, plan);
}

// A result is internal when every Array::Impl pointing at its storage is held only by operands
// of plan nodes (the evaluator itself holds no handles while this runs).
void References::resolve(std::span<Storage* const> targets, Plan& plan) {
  SmallVector<long, 128> internal_impls(plan.nodes.size(), 0);
  // An impl held once is held by its one operand here: internal, without the sort that groups
  // the operands sharing an impl (most of a fused expression's operands are read once).
  size_t shared = 0;
  for (size_t i = 0; i < refs_.size(); ++i) {
    if (refs_[i].holder->use_count() == 1) {
      ++internal_impls[refs_[i].producer];
    } else {
      refs_[shared++] = refs_[i];
    }
  }
  refs_.resize(shared);
  std::sort(refs_.begin(), refs_.end());
  for (size_t i = 0; i < refs_.size();) {
    size_t j = i;
    while (j < refs_.size() && refs_[j].impl == refs_[i].impl) ++j;
    if (refs_[i].holder->use_count() == long(j - i)) {
      ++internal_impls[refs_[i].producer];
    } else {
      plan.nodes[refs_[i].producer].external = true;
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

bool reads_as_is(const Operand& in, const Node* p) {
  const Array& a = in.array;
  return a.dtype() == p->dtype && a.offset() == 0 && a.shape() == p->shape &&
         a.strides() == p->strides;
}

bool fusible(OpKind op) {
  const OpClass c = op_class(op);
  return c == OpClass::Elementwise || c == OpClass::Generator;
}

namespace {

// Every backend writes values computed inside a reduction group (its prologue) to memory, so a
// referenced intermediate joins the reduction's group. Each element of the iteration space is
// computed exactly once (CPU: block by block; CUDA: by the one thread that reduces it) and written
// where the reduction consumes it. Measured on the 2-core machine (16M float32),
// `t = a - b; s = (t * t).sum()` with t kept: 8.1-10.0 ms in one group, 12.9-15.6 ms as two (t
// written, then read again by the reduction).

// The parameter bytes of one array operand over an iteration space of `ndim` dimensions, as the
// backend's kernels lay them out at most: its pointer and, unless it is contiguous over the
// space or broadcast from one element, one stride per dimension.
size_t operand_bytes(const ParamLayout& l, const Array& a, const Shape& space) {
  const Strides& st = a.strides();
  const bool contiguous = a.shape() == space && is_row_major(space, st);
  const bool scalar = std::all_of(st.begin(), st.end(), [](int64_t s) { return s == 0; });
  return l.operand + (contiguous || scalar ? 0 : l.operand_stride * space.size());
}

// Fields every kernel of a group has: sizes, the shape, launch values, the reduction's bookkeeping.
size_t fixed_bytes(const ParamLayout& l, Group::Kind kind, const Shape& space) {
  const bool reduces = kind == Group::Kind::Reduction || kind == Group::Kind::Rows;
  return (reduces ? l.fixed_reduction : l.fixed_elementwise) + l.per_dim * space.size();
}

size_t scalar_bytes(const ParamLayout& l, const Node& n) {
  size_t b = op_class(n.op) == OpClass::Generator ? l.generator : 0;
  for (const Operand& in : n.inputs) {
    if (in.is_scalar()) b += l.scalar;
  }
  return b;
}

size_t output_bytes(const ParamLayout& l, Group::Kind kind, const Shape& space) {
  const bool reduces = kind == Group::Kind::Reduction || kind == Group::Kind::Rows;
  return l.operand + (reduces ? l.reduction_output_stride * space.size() : 0);
}

}  // namespace

size_t draft_param_bytes(const Plan& plan, const GroupDraft& g, int group_id, int candidate,
                         bool candidate_writes) {
  const ParamLayout& l = g.limits->params;
  size_t bytes = fixed_bytes(l, g.kind, g.shape);
  std::vector<const Array*> seen;
  auto add_member = [&](int m, bool writes) {
    const PlanNode& pn = plan.nodes[m];
    bytes += scalar_bytes(l, *pn.node);
    if (writes) bytes += output_bytes(l, g.kind, g.shape) * (1 + pn.duplicates.size());
    // A Reduction group's reduction reads the group's values; a Rows group's may read an input.
    if (g.kind == Group::Kind::Reduction && op_class(pn.node->op) == OpClass::Reduction) return;
    for (const Operand& in : pn.node->inputs) {
      if (in.is_scalar()) continue;
      const Node* p = pending_producer(in);
      if (p) {
        const int pi = plan.index_of(p);
        if (pi == candidate || plan.nodes[pi].group == group_id) continue;
      }
      if (std::any_of(seen.begin(), seen.end(),
                      [&](const Array* s) { return s->same_view(in.array); }))
        continue;
      seen.push_back(&in.array);
      bytes += operand_bytes(l, in.array, g.shape);
    }
  };
  for (int m : g.members) add_member(m, plan.nodes[m].materialize);
  if (candidate >= 0) add_member(candidate, candidate_writes);
  return bytes;
}

namespace {

// An upper bound of what node `pn` adds to a group's parameters (every array operand an input).
size_t member_bound(const PlanNode& pn, const GroupDraft& g, bool writes) {
  const ParamLayout& l = g.limits->params;
  size_t b = scalar_bytes(l, *pn.node);
  if (writes) b += output_bytes(l, g.kind, g.shape) * (1 + pn.duplicates.size());
  for (const Operand& in : pn.node->inputs) {
    if (!in.is_scalar()) b += operand_bytes(l, in.array, g.shape);
  }
  return b;
}

// Whether draft `g` (index `id`) can take node `ii` as a member.
bool can_join(const Plan& plan, const GroupDraft& g, int id, int ii) {
  const PlanNode& pn = plan.nodes[ii];
  const Node* n = pn.node;
  // A Single group runs its one node by itself: concatenate([x + 1]) has the shape of its
  // input, but its producer cannot run inside it.
  if (g.kind == Group::Kind::Single || g.device != n->device || g.shape != n->shape ||
      g.members.size() >= g.limits->max_group_steps) {
    return false;
  }
  const bool writes = pn.external || !pn.duplicates.empty();
  for (int c : pn.consumers) {
    for (const Operand& in : plan.nodes[c].node->inputs) {
      if (pending_producer(in) == n && !reads_as_is(in, n)) return false;
    }
  }
  const size_t max_bytes = g.limits->param_block_bytes;
  if (g.param_bound + member_bound(pn, g, writes) <= max_bytes) return true;
  return draft_param_bytes(plan, g, id, ii, writes) <= max_bytes;
}

// Whether any member's result is read by a node of another group of the plan.
bool is_root(const Plan& plan, const GroupDraft& g, int id) {
  for (int m : g.members) {
    for (int c : plan.nodes[m].consumers) {
      if (plan.nodes[c].group != id) return false;
    }
  }
  return true;
}

// Merges independent elementwise root groups over the same iteration space (see the top).
// Roots have no dependents in the plan, so a merged group may run where the later of its parts
// ran: after the inputs of both.
void merge_roots(Plan& plan, std::vector<GroupDraft>& drafts) {
  std::vector<int> roots;
  for (size_t i = 0; i < drafts.size(); ++i) {
    if (drafts[i].kind == Group::Kind::Elementwise && is_root(plan, drafts[i], int(i))) {
      roots.push_back(int(i));
    }
  }
  if (roots.size() < 2) return;
  std::vector<char> gone(drafts.size(), 0);
  // Drafts are in reverse execution order: the first root of a set runs last.
  for (size_t a = 0; a < roots.size(); ++a) {
    GroupDraft& into = drafts[roots[a]];
    if (gone[roots[a]]) continue;
    for (size_t b = a + 1; b < roots.size(); ++b) {
      GroupDraft& from = drafts[roots[b]];
      if (gone[roots[b]] || from.device != into.device || from.shape != into.shape ||
          into.members.size() + from.members.size() > into.limits->max_group_steps) {
        continue;
      }
      GroupDraft merged = into;
      merged.members.insert(merged.members.end(), from.members.begin(), from.members.end());
      for (int m : from.members) plan.nodes[m].group = roots[a];
      if (draft_param_bytes(plan, merged, roots[a], -1, false) > into.limits->param_block_bytes) {
        for (int m : from.members) plan.nodes[m].group = roots[b];
        continue;
      }
      merged.param_bound = into.param_bound + from.param_bound;
      into = std::move(merged);
      gone[roots[b]] = 1;
    }
  }
  // Drop the merged-away drafts, renumbering the members' groups.
  std::vector<int> renumber(drafts.size(), -1);
  std::vector<GroupDraft> kept;
  for (size_t i = 0; i < drafts.size(); ++i) {
    if (gone[i]) continue;
    renumber[i] = int(kept.size());
    kept.push_back(std::move(drafts[i]));
  }
  for (PlanNode& pn : plan.nodes) {
    if (pn.group >= 0) pn.group = renumber[pn.group];
  }
  drafts = std::move(kept);
}

}  // namespace

SmallVector<int, 8> successors(const Plan& plan, const GroupDraft& g, int id) {
  SmallVector<int, 8> out;
  for (int m : g.members) {
    for (int c : plan.nodes[m].consumers) {
      const int h = plan.nodes[c].group;
      if (h != id && std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
    }
  }
  return out;
}

bool reaches(const Plan& plan, const std::vector<GroupDraft>& drafts, int from,
             std::span<const int> to) {
  SmallVector<int, 16> stack;
  std::vector<char> seen(drafts.size(), 0);
  stack.push_back(from);
  seen[from] = 1;
  while (!stack.empty()) {
    const int g = stack.back();
    stack.pop_back();
    for (int h : successors(plan, drafts[g], g)) {
      if (std::find(to.begin(), to.end(), h) != to.end()) return true;
      if (!seen[h]) {
        seen[h] = 1;
        stack.push_back(h);
      }
    }
  }
  return false;
}

namespace {

// Node `ii` feeds several elementwise groups over its own iteration space that do not depend on
// each other (Black-Scholes' call and put both read cnd(d1)): merges them into one, with several
// outputs, so that the node (and whatever it is computed from) can join it instead of being
// written to memory and read twice. Returns the merged group, or -1 when they cannot merge:
// another kind or space, the limits, or a path from one to another (merging would put a group
// between them both before and after the merged one). The merged-away drafts are left empty
// and marked in `gone`; form_groups puts the rest back in an order that runs producers first.
int merge_consumer_groups(Plan& plan, std::vector<GroupDraft>& drafts, std::vector<char>& gone,
                          int ii) {
  const Node* n = plan.nodes[ii].node;
  SmallVector<int, 8> ids;
  for (int c : plan.nodes[ii].consumers) {
    const int h = plan.nodes[c].group;
    if (std::find(ids.begin(), ids.end(), h) == ids.end()) ids.push_back(h);
  }
  size_t steps = 1;
  for (int h : ids) {
    const GroupDraft& g = drafts[h];
    if (g.kind != Group::Kind::Elementwise || g.device != n->device || g.shape != n->shape) {
      return -1;
    }
    steps += g.members.size();
  }
  const int into = ids[0];
  if (steps > drafts[into].limits->max_group_steps) return -1;
  for (int h : ids) {
    if (reaches(plan, drafts, h, ids)) return -1;
  }
  GroupDraft merged = drafts[into];
  for (size_t k = 1; k < ids.size(); ++k) {
    const GroupDraft& from = drafts[ids[k]];
    merged.members.insert(merged.members.end(), from.members.begin(), from.members.end());
    merged.param_bound += from.param_bound;
    for (int m : from.members) plan.nodes[m].group = into;
  }
  if (draft_param_bytes(plan, merged, into, -1, false) > merged.limits->param_block_bytes) {
    for (size_t k = 1; k < ids.size(); ++k) {
      for (int m : drafts[ids[k]].members) plan.nodes[m].group = ids[k];
    }
    return -1;
  }
  drafts[into] = std::move(merged);
  for (size_t k = 1; k < ids.size(); ++k) {
    drafts[ids[k]].members.clear();
    gone[ids[k]] = 1;
  }
  return into;
}

}  // namespace

void reorder_after_merges(Plan& plan, std::vector<GroupDraft>& drafts,
                          const std::vector<char>& gone) {
  const int count = int(drafts.size());
  std::vector<SmallVector<int, 8>> next(count);
  std::vector<int> pending(count, 0);
  for (int g = 0; g < count; ++g) {
    if (gone[g]) continue;
    next[g] = successors(plan, drafts[g], g);
    for (int h : next[g]) ++pending[h];
  }
  // Former execution order: higher draft indices ran first.
  std::vector<int> ready, order;
  for (int g = count; g-- > 0;) {
    if (!gone[g] && pending[g] == 0) ready.push_back(g);
  }
  while (!ready.empty()) {
    auto first = std::max_element(ready.begin(), ready.end());
    const int g = *first;
    ready.erase(first);
    order.push_back(g);
    for (int h : next[g]) {
      if (--pending[h] == 0) ready.push_back(h);
    }
  }
  const auto live = size_t(std::count(gone.begin(), gone.end(), 0));
  if (order.size() != live) throw std::logic_error("planner: merged groups form a cycle");
  std::vector<int> renumber(count, -1);
  std::vector<GroupDraft> kept;
  kept.reserve(order.size());
  for (size_t k = order.size(); k-- > 0;) {
    renumber[order[k]] = int(kept.size());
    kept.push_back(std::move(drafts[order[k]]));
  }
  for (PlanNode& pn : plan.nodes) {
    if (pn.group >= 0) pn.group = renumber[pn.group];
  }
  drafts = std::move(kept);
}

Array output_dest(const Node* n) {
  return Array::from_storage(n->output->shared_from_this(), n->dtype, n->shape, n->strides, 0);
}

std::vector<GroupDraft> form_groups(Plan& plan, bool fusion) {
  std::vector<GroupDraft> drafts;
  // The limits of the last device seen: a plan's nodes are mostly on one device.
  Device limits_device = plan.nodes.back().node->device;
  const BackendLimits* limits = &backend_for(limits_device).limits();
  std::vector<char> gone;  // drafts merged into another (merge_consumer_groups)
  bool merged = false;
  for (size_t ii = plan.nodes.size(); ii-- > 0;) {
    PlanNode& pn = plan.nodes[ii];
    if (pn.merged_into >= 0) continue;
    Node* n = pn.node;
    int join = -1;
    if (fusion && fusible(n->op) && !pn.consumers.empty()) {
      join = plan.nodes[pn.consumers[0]].group;
      for (int c : pn.consumers) {
        if (plan.nodes[c].group != join) join = -1;
      }
      if (join < 0) {
        gone.resize(drafts.size(), 0);
        join = merge_consumer_groups(plan, drafts, gone, int(ii));
        merged = merged || join >= 0;
      }
      if (join >= 0 && !can_join(plan, drafts[join], join, int(ii))) join = -1;
    }
    const bool writes = pn.external || !pn.duplicates.empty();
    if (join >= 0) {
      GroupDraft& g = drafts[join];
      pn.group = join;
      pn.materialize = writes;
      g.param_bound += member_bound(pn, g, writes);
      g.members.push_back(int(ii));
      continue;
    }
    GroupDraft g{Group::Kind::Elementwise, n->device, n->shape, {int(ii)}};
    if (n->device != limits_device) {
      limits_device = n->device;
      limits = &backend_for(n->device).limits();
    }
    g.limits = limits;
    if (op_class(n->op) == OpClass::Reduction) {
      g.kind = Group::Kind::Reduction;
      g.shape = n->inputs[0].array.shape();
    } else if (op_class(n->op) == OpClass::Other) {
      g.kind = Group::Kind::Single;
    }
    g.param_bound = fixed_bytes(limits->params, g.kind, g.shape) + member_bound(pn, g, true);
    pn.group = int(drafts.size());
    pn.materialize = true;
    drafts.push_back(std::move(g));
  }
  if (merged) {
    gone.resize(drafts.size(), 0);
    reorder_after_merges(plan, drafts, gone);
  }
  if (fusion) {
    form_row_groups(plan, drafts);
    merge_roots(plan, drafts);
  }
  return drafts;
}

void build_group(const Plan& plan, GroupDraft& draft, Group& g) {
  g.inputs.clear();
  g.steps.clear();
  g.outputs.clear();
  g.row_inputs.clear();
  g.kind = draft.kind;
  g.device = draft.device;
  g.shape = draft.shape;
  g.row_axes = draft.row_axes;
  g.slot = draft.slot;
  const bool rows = g.kind == Group::Kind::Rows;
  std::sort(draft.members.begin(), draft.members.end());  // topological order
  const std::vector<int>& members = draft.members;
  const int group_id = plan.nodes[members[0]].group;
  g.steps.reserve(members.size());
  for (int m : members) {
    const PlanNode& pn = plan.nodes[m];
    Step step{pn.node, {}};
    // Per-element steps have the group's shape (row_groups.cpp's rule).
    step.per_row =
        rows && (op_class(pn.node->op) == OpClass::Reduction || pn.node->shape != g.shape);
    for (const Operand& in : pn.node->inputs) {
      StepArg arg{StepArg::Scalar};
      const Node* p = pending_producer(in);
      if (in.is_scalar()) {
        arg.scalar = &in.scalar;
      } else if (p && plan.nodes[plan.index_of(p)].group == group_id) {
        arg.kind = StepArg::Step;
        // members is sorted: the producer's step by binary search, not a scan per operand.
        arg.index = int(std::lower_bound(members.begin(), members.end(), plan.index_of(p)) -
                        members.begin());
      } else {
        // Inputs are distinct views: a view read by several steps is read once.
        arg.kind = StepArg::Input;
        arg.index = int(g.inputs.size());
        for (size_t i = 0; i < g.inputs.size(); ++i) {
          if (g.inputs[i].same_view(in.array)) arg.index = int(i);
        }
        if (arg.index == int(g.inputs.size())) {
          g.inputs.push_back(in.array);
          if (rows) g.row_inputs.push_back(in.array.shape() != g.shape);
        }
      }
      step.args.push_back(arg);
    }
    g.steps.push_back(std::move(step));
    const int k = int(g.steps.size() - 1);
    if (pn.materialize) g.outputs.push_back({k, output_dest(pn.node)});
    for (int d : pn.duplicates) g.outputs.push_back({k, output_dest(plan.nodes[d].node)});
  }
  if (g.kind == Group::Kind::Reduction) {
    // The reduction's own result first: backends find it as the output of the last step.
    std::stable_partition(g.outputs.begin(), g.outputs.end(),
                          [&](const GroupOutput& o) { return o.step == int(g.steps.size()) - 1; });
  }
}

size_t param_bytes(const Group& g) {
  const ParamLayout& l = backend_for(g.device).limits().params;
  size_t bytes = fixed_bytes(l, g.kind, g.shape);
  for (const Array& in : g.inputs) bytes += operand_bytes(l, in, g.shape);
  bytes += g.outputs.size() * output_bytes(l, g.kind, g.shape);
  for (const Step& st : g.steps) bytes += scalar_bytes(l, *st.node);
  return bytes;
}

}  // namespace accel::plan
