// Evaluation: plan the pending graph behind the targets (planner.cpp, cse.cpp; a structure
// planned before comes from plan_cache.cpp) and run its groups. What is recorded about each group
// run (counters, structures, the fusion debug log) lives in eval_instrumentation.hpp.
#include "src/core/eval.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <utility>

#include "accel/errors.hpp"
#include "accel/interrupt.hpp"
#include "accel/small_vector.hpp"
#include "src/core/backend.hpp"
#include "src/core/eval_instrumentation.hpp"
#include "src/core/fp_errors.hpp"
#include "src/core/graph.hpp"
#include "src/core/group.hpp"
#include "src/core/pending_memory.hpp"
#include "src/core/plan.hpp"
#include "src/core/plan_cache.hpp"
#include "src/core/single_step.hpp"
#include "src/core/view_overlap.hpp"

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
  } catch (...) {
    for (Storage* s : allocated) {
      backend.deallocate(s->data(), s->nbytes());
      s->set_data(nullptr);
    }
    throw;
  }
  fp_errors::note_group(g);
  instrumentation::note_group_run(backend, g);
  // Every pending storage written here is computed now: its producer (a step of the group, or
  // a duplicate that common-subexpression elimination merged into one) can go.
  // (The first few are held apart: most groups write one or two outputs, and then nothing is
  // allocated.)
  std::shared_ptr<Node> first_done[4];
  size_t num_done = 0;
  std::vector<std::shared_ptr<Node>> done;
  SmallVector<Storage*, 4> computed;
  for (GroupOutput& out : g.outputs) {
    Storage* s = out.dest.storage().get();
    if (s->is_pending() && s->data()) {
      computed.push_back(s);
      std::shared_ptr<Node> n = s->take_producer();
      n->output = nullptr;
      if (num_done < std::size(first_done)) {
        first_done[num_done++] = std::move(n);
      } else {
        done.push_back(std::move(n));
      }
    }
  }
  // What is computed now and still read by pending nodes outside the group counts toward the
  // bound on pending memory from here on.
  for (Storage* s : computed) pending::capture_computed(*s);
  g.steps.clear();  // raw node pointers die with `first_done` and `done`
}

// One node over computed inputs (a single op on arrays that exist: the common case in
// interactive use) needs no plan: its group is the node alone. This is the planner's result for
// such a graph, built without the plan's bookkeeping, which dominates dispatch cost.
bool evaluate_single(Storage* target, const Array* redirect_dest) {
  Node* n = target->producer();
  for (const Operand& in : n->inputs) {
    if (pending_producer(in)) return false;
  }
  SingleGroupLease lease;
  Group& g = lease.get();
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
  set_single_step(g, *n, redirect_dest ? *redirect_dest : plan::output_dest(n));
  run_group(g);
  return true;
}

// Announces the runs of an evaluation whose grouping came from the plan cache to the backend of
// its groups (when they share one device), so that it may queue them together (the CUDA
// backend's graphs); the destructor reports an evaluation cut short by an exception.
class CachedRun {
 public:
  CachedRun(const plan::CachedPlan* cached, const std::vector<Group>& groups) {
    if (!cached || groups.empty()) return;
    for (const Group& g : groups) {
      if (g.device != groups[0].device) return;
    }
    backend_ = &backend_for(groups[0].device);
    backend_->begin_cached_run(cached->backend_state);
  }
  ~CachedRun() {
    if (backend_) backend_->end_cached_run(false);
  }
  void completed() {
    if (Backend* b = std::exchange(backend_, nullptr)) b->end_cached_run(true);
  }
  CachedRun(const CachedRun&) = delete;
  CachedRun& operator=(const CachedRun&) = delete;

 private:
  Backend* backend_ = nullptr;
};

// The containers of an evaluation (the plan, the drafts, the groups), kept by the thread from one
// evaluation to the next: emptied after each, they keep their capacity, so that a loop body's
// evaluation allocates none of them (a dozen heap blocks for a five-node group). An evaluation
// that starts while the thread's are in use (nested in another) gets its own.
struct EvalBuffers {
  Plan plan;
  std::vector<plan::GroupDraft> drafts;
  std::vector<Group> groups;
  bool busy = false;
};
thread_local EvalBuffers t_buffers;

class BuffersLease {
 public:
  BuffersLease() : b_(t_buffers.busy ? local_.emplace() : t_buffers), leased_(!t_buffers.busy) {
    t_buffers.busy = true;
  }
  ~BuffersLease() {
    if (!leased_) return;
    // Nothing of one evaluation outlives it: the groups' arrays are released here, as the
    // evaluation's own vectors were when they went out of scope.
    for (Group& g : b_.groups) {
      g.inputs.clear();
      g.steps.clear();
      g.outputs.clear();
      g.row_inputs.clear();
      g.slot.reset();
    }
    for (plan::GroupDraft& d : b_.drafts) d.slot.reset();
    b_.plan.nodes.clear();
    b_.plan.keep_alive.clear();
    b_.plan.index.clear();
    t_buffers.busy = false;
  }
  EvalBuffers& get() { return b_; }
  BuffersLease(const BuffersLease&) = delete;
  BuffersLease& operator=(const BuffersLease&) = delete;

 private:
  std::optional<EvalBuffers> local_;
  EvalBuffers& b_;
  bool leased_;
};

void evaluate_groups(std::span<Storage* const> targets, const Array* redirect_dest) {
  if (targets.size() == 1 && targets[0]->producer() && evaluate_single(targets[0], redirect_dest)) {
    return;
  }
  BuffersLease lease;
  Plan& plan = lease.get().plan;
  plan::collect(targets, plan);
  if (plan.nodes.empty()) return;
  // A structure planned before (a loop body) is grouped as it was then (plan_cache.hpp).
  const Storage* keep = redirect_dest ? targets[0] : nullptr;
  thread_local plan::PlanKey key;  // reused: its words keep their capacity
  plan::analyze_and_key(targets, plan, g_fusion, keep, key);
  std::vector<plan::GroupDraft>& drafts = lease.get().drafts;
  const plan::CachedPlan* cached = plan::find_plan(key);
  if (cached) {
    plan::replay(*cached, plan, drafts);
  } else {
    if (g_fusion) plan::merge_common_subexpressions(plan, keep);
    drafts = plan::form_groups(plan, g_fusion);
    plan::remember_plan(key, plan, drafts);
  }
  // Build every group before running any: running releases nodes the plan still points at.
  std::vector<Group>& groups = lease.get().groups;
  groups.resize(drafts.size());
  for (size_t i = 0; i < drafts.size(); ++i) {
    plan::build_group(plan, drafts[drafts.size() - 1 - i], groups[i]);
  }
  if (redirect_dest) {
    // The target is written into the caller's view instead of its own storage.
    for (Group& g : groups) {
      for (GroupOutput& out : g.outputs) {
        if (out.dest.storage().get() == targets[0]) out.dest = *redirect_dest;
      }
    }
  }
  CachedRun cached_run(cached, groups);
  for (Group& g : groups) {
    interruption_point();  // a group not run yet stays pending, ready to be evaluated again
    run_group(g);
  }
  cached_run.completed();
}

// An evaluation, with the floating-point errors its groups raised reported once at its end.
void evaluate(std::span<Storage* const> targets, const Array* redirect_dest) {
  fp_errors::EvaluationScope scope;
  evaluate_groups(targets, redirect_dest);
  scope.finish();
}

}  // namespace

void evaluate_storages(const std::vector<Storage*>& targets) { evaluate(targets, nullptr); }

void evaluate_storage(Storage* target) { evaluate(std::span<Storage* const>(&target, 1), nullptr); }

namespace {
// Whether computing `value` (whose pending graph is `plan`) reads dst's memory through a layout
// other than dst's own: through another view of dst's storage over bytes dst spans, or through
// another storage over the same memory (NumPy memory wrapped twice).
bool reads_other_view(const Array& value, const Plan& plan, const Array& dst) {
  const auto aliases = [&](const Array& a) {
    if (a.storage() == dst.storage()) return !a.same_view(dst) && may_share_elements(a, dst);
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
  fp_errors::EvaluationScope scope;  // one report for all the evaluations of the write
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
  const Array copy = make_pending_lazy(OpKind::Cast, dst.dtype(), dst.shape(), dst.device(),
                                       {Operand{std::move(value)}});
  Storage* target = copy.storage().get();
  evaluate(std::span<Storage* const>(&target, 1), &dst);
  ds.bump_version();
  scope.finish();
}

bool fusion_enabled() { return g_fusion; }
void set_fusion_enabled(bool enabled) { g_fusion = enabled; }

}  // namespace accel
