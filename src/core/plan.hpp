// The planner's view of the pending graph behind an evaluation: nodes in topological order,
// their consumers, which results are referenced from outside, and what common-subexpression
// elimination merged. Shared by the evaluator (eval.cpp), CSE (cse.cpp) and the grouping rules
// (planner.cpp); nothing here outlives one evaluation.
#pragma once

#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "accel/small_vector.hpp"
#include "src/core/backend.hpp"
#include "src/core/graph.hpp"
#include "src/core/group.hpp"
#include "src/core/node_index.hpp"

namespace accel::plan {

struct PlanNode {
  explicit PlanNode(Node* n) : node(n) {}
  Node* node;
  bool external = false;     // referenced from outside the plan, or a target
  bool materialize = false;  // its result is written to memory
  int group = -1;
  int merged_into = -1;            // CSE: this node is a duplicate of that one; it is not run
  SmallVector<int, 4> consumers;   // plan indices
  SmallVector<int, 1> duplicates;  // CSE: referenced duplicates written from this node's value
};

struct Plan {
  std::vector<PlanNode> nodes;  // topological order: producers first
  // Storages of merged duplicates, kept alive (with their nodes) until the plan is dropped.
  std::vector<std::shared_ptr<Storage>> keep_alive;

  // Each node's index in `nodes` (set by collect; a hash table of the plan's own, so that
  // plans over shared nodes on several threads never write the nodes).
  NodeIndex index;

  // The node's index in `nodes`, or -1.
  int index_of(const Node* n) const { return index.find(n); }
};

// The pending producer of an operand (null for scalars and computed arrays).
Node* pending_producer(const Operand& in);

// Post-order DFS from the targets' producers, without recursion.
void collect(std::span<Storage* const> targets, Plan& plan);

// Finds consumers, and which results are referenced from outside the plan.
void analyze_references(std::span<Storage* const> targets, Plan& plan);

// analyze_references in two parts, so that a walk over the plan's operands made for another
// reason (the plan cache's key) gathers the references on the way instead of walking again:
// note() for every operand of every node with a pending producer, then resolve().
class References {
 public:
  // Operand `in` of node `consumer` reads the output of node `producer` (plan indices);
  // called in plan order of the consumers.
  void note(Plan& plan, int consumer, const Operand& in, int producer) {
    refs_.push_back({in.array.impl(), producer, &in.array});
    // Consumers come in plan order, so a node reading the producer twice is the last added.
    auto& cons = plan.nodes[producer].consumers;
    if (cons.empty() || cons.back() != consumer) cons.push_back(consumer);
  }
  // Marks the results referenced from outside the plan (and the targets) external.
  void resolve(std::span<Storage* const> targets, Plan& plan);

 private:
  struct Ref {
    const Array::Impl* impl;
    int producer;
    const Array* holder;
    bool operator<(const Ref& o) const { return impl < o.impl; }
  };
  SmallVector<Ref, 128> refs_;  // a loop body's chain, or a 60-op expression, needs no heap block
};

// Merges identical nodes (same op, dtype, shape, parameters, scalar values and operands): their
// consumers read one of them, and a duplicate still referenced from outside is written from its
// representative's value. `keep` (may be null) is never merged away: the caller writes it
// somewhere else.
void merge_common_subexpressions(Plan& plan, const Storage* keep);

// One merge of merge_common_subexpressions: node `dup`'s consumers read node `rep` instead
// (`rep` < `dup`). The plan cache replays a cached plan's merges with it, in the order made.
void merge_duplicate(Plan& plan, int dup, int rep);

struct GroupDraft {
  Group::Kind kind;
  Device device;
  Shape shape;
  std::vector<int> members;
  size_t param_bound = 0;  // an upper bound of the kernel parameter bytes (see planner.cpp)
  const BackendLimits* limits = nullptr;        // of the device's backend
  uint64_t row_axes = 0;                        // Rows: the reduced axes (Group::row_axes)
  std::shared_ptr<BackendSlot> slot = nullptr;  // from the plan cache (Group::slot)
};

// Cuts the plan into groups, walking consumers first; drafts come out in reverse execution
// order. Independent elementwise groups over the same iteration space that nothing in the plan
// reads (the results `eval(a + b, a * b)` asks for) are merged into one.
// `fusion` false: every node is a group of its own (ACCELPY_FUSION=0).
std::vector<GroupDraft> form_groups(Plan& plan, bool fusion);

// Grouping rules shared by the planner's files (planner.cpp, row_groups.cpp).

// Whether operand `in` of a consumer reads producer `p`'s output exactly as laid out.
bool reads_as_is(const Operand& in, const Node* p);
// Elementwise ops and generators: what joins its consumers' group.
bool fusible(OpKind op);
// The groups that read the results of group `g`'s members (other than g).
SmallVector<int, 8> successors(const Plan& plan, const GroupDraft& g, int id);
// Whether a path of plan edges leads from group `from` to any of `to` (groups are formed
// consumers first, so every consumer already has its group).
bool reaches(const Plan& plan, const std::vector<GroupDraft>& drafts, int from,
             std::span<const int> to);
// The exact parameter count for a draft plus a candidate member (-1: none): distinct views read
// from outside, outputs, scalars (the same accounting as param_bytes(Group)).
size_t draft_param_bytes(const Plan& plan, const GroupDraft& g, int group_id, int candidate,
                         bool candidate_writes);
// Drops the drafts marked in `gone` and orders the rest so that, run from the last draft to the
// first (as the evaluator does), every group runs after the groups it reads: a merged group may
// have to run earlier or later than either of its parts did. Kahn's algorithm over the group
// graph, taking ready groups in their former order where the graph leaves a choice.
void reorder_after_merges(Plan& plan, std::vector<GroupDraft>& drafts,
                          const std::vector<char>& gone);
// Merges reductions over the same axes with the elementwise work that reads their results
// broadcast back over the rows into Rows groups, where the backend runs them (row_groups.cpp).
void form_row_groups(Plan& plan, std::vector<GroupDraft>& drafts);
// Whether a reduction over `axes` of `shape` may seed a Rows group on a backend of these limits
// (its rows' length and count; the plan cache's key records the answer).
bool row_space_allowed(const BackendLimits& limits, const Shape& shape, uint64_t axes);

// The node's own output storage, laid out as the node's result: where its group writes it.
Array output_dest(const Node* n);

// The group of a draft, with its inputs, steps and outputs (duplicates included), written over
// `g` (a group of an earlier evaluation, emptied: its vectors keep their capacity).
void build_group(const Plan& plan, GroupDraft& draft, Group& g);

// The kernel parameter bytes a group needs at most, counted by its backend's ParamLayout:
// operand pointers, strides of strided operands, the shape, scalars, generator fields.
size_t param_bytes(const Group& group);

}  // namespace accel::plan
