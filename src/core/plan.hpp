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
  std::vector<PlanNode> nodes;                      // topological order: producers first
  std::vector<std::pair<const Node*, int>> sorted;  // (node, index in `nodes`), by pointer
  // Storages of merged duplicates, kept alive (with their nodes) until the plan is dropped.
  std::vector<std::shared_ptr<Storage>> keep_alive;

  int index_of(const Node* n) const;
};

// The pending producer of an operand (null for scalars and computed arrays).
Node* pending_producer(const Operand& in);

// Post-order DFS from the targets' producers, without recursion.
void collect(std::span<Storage* const> targets, Plan& plan);

// Finds consumers, and which results are referenced from outside the plan.
void analyze_references(std::span<Storage* const> targets, Plan& plan);

// Merges identical nodes (same op, dtype, shape, parameters, scalar values and operands): their
// consumers read one of them, and a duplicate still referenced from outside is written from its
// representative's value. `keep` (may be null) is never merged away: the caller writes it
// somewhere else.
void merge_common_subexpressions(Plan& plan, const Storage* keep);

struct GroupDraft {
  Group::Kind kind;
  Device device;
  Shape shape;
  std::vector<int> members;
  size_t param_bound = 0;  // an upper bound of the kernel parameter bytes (see planner.cpp)
  const BackendLimits* limits = nullptr;  // of the device's backend
};

// Cuts the plan into groups, walking consumers first; drafts come out in reverse execution
// order. Independent elementwise groups over the same iteration space that nothing in the plan
// reads (the results `eval(a + b, a * b)` asks for) are merged into one.
// `fusion` false: every node is a group of its own (ACCELPY_FUSION=0).
std::vector<GroupDraft> form_groups(Plan& plan, bool fusion);

// The node's own output storage, laid out as the node's result: where its group writes it.
Array output_dest(const Node* n);

// The group of a draft, with its inputs, steps and outputs (duplicates included).
Group build_group(const Plan& plan, GroupDraft& draft);

// The kernel parameter bytes a group needs at most, counted by its backend's ParamLayout:
// operand pointers, strides of strided operands, the shape, scalars, generator fields.
size_t param_bytes(const Group& group);

}  // namespace accel::plan
