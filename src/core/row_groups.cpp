// Row groups: the normalisation family (softmax, log-softmax, logsumexp, layer and RMS norm,
// standardisation, `x / x.sum(axis, keepdims=True)`, `x - x.max(axis)`) as one group.
//
// The rule, in one place: after the groups are formed (planner.cpp), each reduction group seeds a
// row space, its input's shape S and its reduced axes M. A row is one index of the kept axes.
// Neighbouring groups (consumers and producers) join the seed while every node of them is
//   - per element: elementwise over S (generators excepted: their values depend on the
//     position, which a backend running a block of rows does not see);
//   - a reduction of S over exactly M;
//   - per row: elementwise over the reductions' result shape, with or without M as 1s;
// and every edge inside the merged group reads its producer in a way a row-wise kernel can
// serve: per-element values as laid out, per-row values as laid out by per-row steps, and
// per-row values broadcast over M by per-element steps (the keepdims result broadcast back,
// or `x - x.max(0)` broadcasting by itself). The merged group stays convex (no path of plan
// edges leaves it and comes back) and within the backend's limits; a backend without Rows
// groups (BackendLimits::row_groups) keeps the groups as they were.
//
// Values that only feed the merged group are no longer written: softmax reads x once and writes
// its result, where four groups wrote and re-read exp(x - max) and two row vectors.
#include <algorithm>

#include "src/core/plan.hpp"

namespace accel::plan {

namespace {

struct RowSpace {
  Shape shape;        // S
  uint64_t axes = 0;  // M
  Shape kept;         // S without M: the shape of a reduction's result
  Shape keep;         // S with M as 1s: the keepdims shape
  Strides broadcast;  // a per-row value (C order over the rows) broadcast over S
};

RowSpace row_space(const Shape& shape, uint64_t axes) {
  RowSpace rs{shape, axes, {}, {}, Strides(shape.size(), 0)};
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = (axes >> d) & 1;
    rs.keep.push_back(reduced ? 1 : shape[d]);
    if (!reduced) rs.kept.push_back(shape[d]);
  }
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if ((axes >> d) & 1) continue;
    rs.broadcast[d] = stride;
    stride *= shape[d];
  }
  return rs;
}

enum class Space : uint8_t { None, Element, Row };

// Where node n computes in the row space: per element, per row, or not at all.
Space space_of(const Node* n, const RowSpace& rs) {
  if (op_class(n->op) == OpClass::Reduction) {
    return n->inputs[0].array.shape() == rs.shape && n->params.axes == rs.axes ? Space::Row
                                                                               : Space::None;
  }
  if (op_class(n->op) != OpClass::Elementwise) return Space::None;
  if (n->shape == rs.shape) return Space::Element;
  return n->shape == rs.kept || n->shape == rs.keep ? Space::Row : Space::None;
}

// Whether consumer `c` can read producer `p` through operand `in` inside a row group.
bool edge_ok(const Operand& in, const Node* p, const Node* c, const RowSpace& rs) {
  const Space ps = space_of(p, rs);
  // A reduction reads per-element values; other nodes read in their own space.
  const Space reads = op_class(c->op) == OpClass::Reduction ? Space::Element : space_of(c, rs);
  if (ps == Space::None || reads == Space::None) return false;
  if (ps == Space::Element) return reads == Space::Element && reads_as_is(in, p);
  const Array& a = in.array;
  if (a.dtype() != p->dtype || a.offset() != 0) return false;
  if (reads == Space::Row) return is_row_major(a.shape(), a.strides());
  if (a.shape() != rs.shape) return false;
  for (size_t d = 0; d < rs.shape.size(); ++d) {
    if (rs.shape[d] != 1 && a.strides()[d] != rs.broadcast[d]) return false;
  }
  return true;
}

// Whether every node of draft g has a place in the row space.
bool fits(const Plan& plan, const GroupDraft& g, const RowSpace& rs) {
  if (g.kind == Group::Kind::Single) return false;
  return std::all_of(g.members.begin(), g.members.end(),
                     [&](int m) { return space_of(plan.nodes[m].node, rs) != Space::None; });
}

// Whether every edge between members of group `id` that touches a member of `added` is one a
// row group can serve.
bool edges_ok(const Plan& plan, int id, std::span<const int> added, const RowSpace& rs) {
  auto in_added = [&](int m) { return std::find(added.begin(), added.end(), m) != added.end(); };
  for (const int m : added) {
    const Node* c = plan.nodes[m].node;
    for (const Operand& in : c->inputs) {
      const Node* p = pending_producer(in);
      if (!p) continue;
      const int pi = plan.index_of(p);
      if (plan.nodes[pi].group == id && !edge_ok(in, p, c, rs)) return false;
    }
    for (const int ci : plan.nodes[m].consumers) {
      if (plan.nodes[ci].group != id || in_added(ci)) continue;
      const Node* cn = plan.nodes[ci].node;
      for (const Operand& in : cn->inputs) {
        if (pending_producer(in) == c && !edge_ok(in, c, cn, rs)) return false;
      }
    }
  }
  return true;
}

// Whether a member of group `id` reads a per-row value of the group: what makes it a row group.
bool reads_row_values(const Plan& plan, const GroupDraft& g, int id, const RowSpace& rs) {
  for (const int m : g.members) {
    for (const Operand& in : plan.nodes[m].node->inputs) {
      const Node* p = pending_producer(in);
      if (p && plan.nodes[plan.index_of(p)].group == id && space_of(p, rs) == Space::Row) {
        return true;
      }
    }
  }
  return false;
}

// The groups that read members of draft `id` or that its members read.
SmallVector<int, 8> neighbours(const Plan& plan, const std::vector<GroupDraft>& drafts, int id) {
  SmallVector<int, 8> out = successors(plan, drafts[id], id);
  for (const int m : drafts[id].members) {
    for (const Operand& in : plan.nodes[m].node->inputs) {
      const Node* p = pending_producer(in);
      if (!p) continue;
      const int h = plan.nodes[plan.index_of(p)].group;
      if (h >= 0 && h != id && std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
    }
  }
  return out;
}

// Moves draft h's members into draft `into` when the result is a valid row group; else leaves
// both as they were.
bool try_join(Plan& plan, std::vector<GroupDraft>& drafts, int into, int h, const RowSpace& rs) {
  GroupDraft& g = drafts[into];
  GroupDraft& from = drafts[h];
  if (from.device != g.device || from.limits != g.limits || !fits(plan, from, rs) ||
      g.members.size() + from.members.size() > g.limits->max_group_steps) {
    return false;
  }
  for (const int m : from.members) plan.nodes[m].group = into;
  const size_t before = g.members.size();
  g.members.insert(g.members.end(), from.members.begin(), from.members.end());
  bool ok = edges_ok(plan, into, from.members, rs) &&
            draft_param_bytes(plan, g, into, -1, false) <= g.limits->param_block_bytes;
  if (ok) {
    // Convex: no group that reads the merged one leads back into it.
    const int self[1] = {into};
    for (const int x : successors(plan, g, into)) {
      if (reaches(plan, drafts, x, self)) ok = false;
    }
  }
  if (!ok) {
    g.members.resize(before);
    for (const int m : from.members) plan.nodes[m].group = h;
    return false;
  }
  from.members.clear();
  return true;
}

}  // namespace

bool row_space_allowed(const BackendLimits& limits, const Shape& shape, uint64_t axes) {
  if (limits.long_row <= 0) return true;
  int64_t row = 1, rows = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    // Capped products: the sizes only need comparing with the limits.
    int64_t& p = (axes >> d) & 1 ? row : rows;
    p = shape[d] > 0 && p > (int64_t(1) << 40) / shape[d] ? int64_t(1) << 40 : p * shape[d];
  }
  return row <= limits.long_row || rows >= limits.long_row_min_rows;
}

void form_row_groups(Plan& plan, std::vector<GroupDraft>& drafts) {
  std::vector<char> gone(drafts.size(), 0);
  bool merged = false;
  // In execution order (producers first), so that a seed gathers what follows it.
  for (size_t seed = drafts.size(); seed-- > 0;) {
    GroupDraft& g = drafts[seed];
    if (gone[seed] || g.kind != Group::Kind::Reduction || !g.limits->row_groups) continue;
    const Node* reduction = nullptr;
    for (const int m : g.members) {
      if (op_class(plan.nodes[m].node->op) == OpClass::Reduction) reduction = plan.nodes[m].node;
    }
    if (!reduction || reduction->params.axes == 0 || g.shape.size() >= 64 ||
        !row_space_allowed(*g.limits, g.shape, reduction->params.axes)) {
      continue;
    }
    const RowSpace rs = row_space(g.shape, reduction->params.axes);
    if (!fits(plan, g, rs)) continue;
    g.kind = Group::Kind::Rows;  // counted as one while others join
    g.row_axes = rs.axes;
    const size_t own = g.members.size();
    std::vector<std::pair<int, std::vector<int>>> joined;  // drafts taken, with their members
    for (bool grew = true; grew;) {
      grew = false;
      for (const int h : neighbours(plan, drafts, int(seed))) {
        if (gone[h]) continue;
        std::vector<int> members = drafts[h].members;
        if (!try_join(plan, drafts, int(seed), h, rs)) continue;
        gone[h] = 1;
        joined.emplace_back(h, std::move(members));
        grew = true;
        break;  // the neighbours changed
      }
    }
    if (!reads_row_values(plan, g, int(seed), rs)) {
      // Only producers joined: a reduction group with its inputs, which the other rules
      // already fuse where they can; left as it was.
      for (auto& [h, members] : joined) {
        for (const int m : members) plan.nodes[m].group = h;
        drafts[h].members = std::move(members);
        gone[h] = 0;
      }
      g.members.resize(own);
      g.kind = Group::Kind::Reduction;
      g.row_axes = 0;
      continue;
    }
    merged = true;
  }
  if (!merged) return;
  // A value all of whose readers joined its group is no longer written.
  for (PlanNode& pn : plan.nodes) {
    if (pn.group < 0 || pn.merged_into >= 0 || drafts[pn.group].kind != Group::Kind::Rows) continue;
    bool read_outside = false;
    for (const int c : pn.consumers) read_outside = read_outside || plan.nodes[c].group != pn.group;
    pn.materialize = pn.external || !pn.duplicates.empty() || read_outside;
  }
  reorder_after_merges(plan, drafts, gone);
}

}  // namespace accel::plan
