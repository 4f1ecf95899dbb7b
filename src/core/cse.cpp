// Common-subexpression elimination over the plan, before grouping.
//
// Two pending nodes are the same computation when they have the same op, output dtype, device,
// shape and parameters, equal scalar operands (bit for bit, in their dtype), and read the same
// views (storage, dtype, shape, strides, offset) of the same data (the storage's write version).
// Walking producers first, a node identical to an earlier one is a duplicate: its consumers in
// the plan get operands reading the representative's storage instead (new Array handles, so no
// live array changes what it views), and, when something outside the plan still holds the
// duplicate (a Python variable), its storage becomes one more output of the representative's
// step. Each array keeps its own memory: merging storages would make `x = a * b; y = a * b`
// alias, and a later `x[0] = 5` would show through y.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "src/core/plan.hpp"

namespace accel::plan {

namespace {

// A node's identity as a byte string (hashed by the standard library's string hash).
std::string identity_of(const Node& n) {
  std::string k;
  k.reserve(64 + 64 * n.inputs.size());
  auto put = [&](const void* p, size_t size) { k.append(static_cast<const char*>(p), size); };
  auto put_v = [&](auto v) { put(&v, sizeof(v)); };
  put_v(n.op);
  put_v(n.dtype);
  put_v(n.device.type);
  put_v(n.device.index);
  put_v(n.shape.size());
  for (int64_t d : n.shape) put_v(d);
  put_v(n.params.axes);
  put_v(n.params.ddof);
  put_v(n.params.axis);
  put_v(n.params.k);
  for (const Operand& in : n.inputs) {
    if (in.is_scalar()) {
      put_v(uint8_t{0});
      put_v(in.scalar.dtype);
      put(in.scalar.bytes, itemsize(in.scalar.dtype));
      continue;
    }
    const Array& a = in.array;
    put_v(uint8_t{1});
    put_v(a.storage().get());
    put_v(a.storage()->version());
    put_v(a.dtype());
    put_v(a.offset());
    put_v(a.shape().size());
    for (int64_t d : a.shape()) put_v(d);
    for (int64_t s : a.strides()) put_v(s);
  }
  return k;
}

// Whether a node may take part in a merge: not `keep` (whose value goes to the caller's view,
// not to its own storage) and not a structural node.
bool mergeable(const PlanNode& pn, const Storage* keep) {
  return op_class(pn.node->op) != OpClass::Other && pn.node->output != keep;
}

}  // namespace

namespace {

// Whether two nodes of the plan have the same op, dtype and shape: identical nodes must. Most
// plans (a chain of distinct ops) have no such pair, and then no identity is built at all.
bool may_have_duplicates(const Plan& plan) {
  if (plan.nodes.size() > 32) return true;  // not worth the quadratic scan
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& a = *plan.nodes[i].node;
    for (size_t j = i + 1; j < plan.nodes.size(); ++j) {
      const Node& b = *plan.nodes[j].node;
      if (a.op == b.op && a.dtype == b.dtype && a.shape == b.shape) return true;
    }
  }
  return false;
}

}  // namespace

void merge_common_subexpressions(Plan& plan, const Storage* keep) {
  if (plan.nodes.size() < 2 || !may_have_duplicates(plan)) return;
  std::unordered_map<std::string, int> seen;
  seen.reserve(plan.nodes.size());
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    PlanNode& dup = plan.nodes[i];
    const auto [it, fresh] = seen.emplace(identity_of(*dup.node), int(i));
    if (fresh || !mergeable(dup, keep) || !mergeable(plan.nodes[it->second], keep)) continue;
    // A reduction's result is written only by its own group's last step: a referenced
    // duplicate reduction (the same sum kept twice) is left alone.
    if (dup.external && op_class(dup.node->op) == OpClass::Reduction) continue;
    const int rep = it->second;
    PlanNode& r = plan.nodes[rep];
    Storage* from = dup.node->output;
    const std::shared_ptr<Storage> to = r.node->output->shared_from_this();
    plan.keep_alive.push_back(from->shared_from_this());
    for (int c : dup.consumers) {
      for (Operand& in : plan.nodes[c].node->inputs) {
        if (in.is_scalar() || in.array.storage().get() != from) continue;
        const Array& a = in.array;
        in.array =
            Array::from_storage(to, a.dtype(), a.shape(), a.strides(), a.offset(), a.writeable());
      }
      bool listed = false;
      for (int rc : r.consumers) listed = listed || rc == c;
      if (!listed) r.consumers.push_back(c);
    }
    dup.consumers.clear();
    // The duplicate no longer reads anything: its producers lose it as a consumer (else it
    // would keep them out of their other consumers' groups).
    for (const Operand& in : dup.node->inputs) {
      const Node* p = pending_producer(in);
      if (!p) continue;
      auto& cons = plan.nodes[plan.index_of(p)].consumers;
      const int* at = std::find(cons.begin(), cons.end(), int(i));
      if (at != cons.end()) cons.erase(at);
    }
    dup.merged_into = rep;
    if (dup.external) r.duplicates.push_back(int(i));
  }
}

}  // namespace accel::plan
