// Common-subexpression elimination over the plan, before grouping.
//
// Two pending nodes are the same computation when they have the same op, output dtype, device,
// shape, output layout (their consumers read them through it) and parameters, equal scalar operands
// (bit for bit, in their dtype), and read the same views (storage, dtype, shape, strides, offset)
// of the same data (the storage's write version). Walking producers first, a node identical to an
// earlier one is a duplicate: its consumers in the plan get operands reading the representative's
// storage instead (new Array handles, so no live array changes what it views), and, when something
// outside the plan still holds the duplicate (a Python variable), its storage becomes one more
// output of the representative's step. Each array keeps its own memory: merging storages would make
// `x = a * b; y = a * b` alias, and a later `x[0] = 5` would show through y.
#include <algorithm>
#include <cstring>

#include "src/core/plan.hpp"
#include "src/core/word_hash.hpp"

namespace accel::plan {

namespace {

// A node's identity: its op, dtype, device, shape and parameters, and for each operand either
// the scalar (dtype and bits) or the view (storage and its version, dtype, offset, shape,
// strides). Hashed and compared field by field: built as a byte string for a standard hash
// map, it cost a quarter of evaluating the 20-operation benchmark's plan (an allocation per
// node and a map node each, on the host path before the one launch).
uint64_t identity_hash(const Node& n) {
  WordHash f;
  f.add(uint64_t(n.op));
  f.add(uint64_t(n.dtype));
  f.add(uint64_t(n.device.type));
  f.add(uint64_t(n.device.index));
  f.add(n.shape.size());
  for (int64_t d : n.shape) f.add(uint64_t(d));
  f.add(n.params.axes);
  f.add_bits(n.params.ddof);
  f.add(uint64_t(n.params.axis));
  f.add(uint64_t(n.params.k));
  for (const Operand& in : n.inputs) {
    if (in.is_scalar()) {
      f.add(uint64_t(in.scalar.dtype));
      for (size_t i = 0; i < itemsize(in.scalar.dtype); ++i) f.add(in.scalar.bytes[i]);
      continue;
    }
    const Array& a = in.array;
    f.add(reinterpret_cast<uintptr_t>(a.storage().get()));
    f.add(a.storage()->version());
    f.add(uint64_t(a.dtype()));
    f.add(uint64_t(a.offset()));
    f.add(a.shape().size());
    for (int64_t d : a.shape()) f.add(uint64_t(d));
    for (int64_t st : a.strides()) f.add(uint64_t(st));
  }
  return f.h;
}

bool same_identity(const Node& a, const Node& b) {
  if (a.op != b.op || a.dtype != b.dtype || a.device != b.device || a.shape != b.shape ||
      a.strides != b.strides || a.params.axes != b.params.axes ||
      std::memcmp(&a.params.ddof, &b.params.ddof, sizeof(double)) != 0 ||
      a.params.axis != b.params.axis || a.params.k != b.params.k ||
      a.inputs.size() != b.inputs.size()) {
    return false;
  }
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    const Operand &x = a.inputs[i], &y = b.inputs[i];
    if (x.is_scalar() != y.is_scalar()) return false;
    if (x.is_scalar()) {
      if (x.scalar.dtype != y.scalar.dtype ||
          std::memcmp(x.scalar.bytes, y.scalar.bytes, itemsize(x.scalar.dtype)) != 0) {
        return false;
      }
      continue;
    }
    const Array &u = x.array, &v = y.array;
    if (u.storage() != v.storage() || u.storage()->version() != v.storage()->version() ||
        u.dtype() != v.dtype() || u.offset() != v.offset() || u.shape() != v.shape() ||
        u.strides() != v.strides()) {
      return false;
    }
  }
  return true;
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
  // Each node is compared with the first node of its identity (open addressing over node
  // indices; identities are final when visited, since a node's inputs are rewritten only while
  // its producers, earlier in the plan, are visited).
  size_t capacity = 16;
  while (capacity < 2 * plan.nodes.size()) capacity *= 2;
  std::vector<int> slots(capacity, -1);
  std::vector<uint64_t> hashes(plan.nodes.size());
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    PlanNode& dup = plan.nodes[i];
    const uint64_t h = hashes[i] = identity_hash(*dup.node);
    size_t slot = h & (capacity - 1);
    while (slots[slot] >= 0 &&
           (hashes[slots[slot]] != h || !same_identity(*plan.nodes[slots[slot]].node, *dup.node))) {
      slot = (slot + 1) & (capacity - 1);
    }
    if (slots[slot] < 0) {
      slots[slot] = int(i);
      continue;
    }
    const int rep = slots[slot];
    if (!mergeable(dup, keep) || !mergeable(plan.nodes[rep], keep)) continue;
    // A reduction's result is written only by its own group's last step: a referenced
    // duplicate reduction (the same sum kept twice) is left alone.
    if (dup.external && op_class(dup.node->op) == OpClass::Reduction) continue;
    merge_duplicate(plan, int(i), rep);
  }
}

void merge_duplicate(Plan& plan, int i, int rep) {
  PlanNode& dup = plan.nodes[i];
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
    const int* at = std::find(cons.begin(), cons.end(), i);
    if (at != cons.end()) cons.erase(at);
  }
  dup.merged_into = rep;
  if (dup.external) r.duplicates.push_back(i);
}

}  // namespace accel::plan
