// The one-step group of a node whose operands are all computed: what the planner makes of such
// a graph, built without a plan. evaluate_single (eval.cpp) and the operations computed at their
// call (eager.cpp) run it.
#pragma once

#include <optional>

#include "src/core/group.hpp"

namespace accel {

// A group kept by the thread for one-step runs: its vectors keep their capacity, so that a run
// allocates none of them. Emptied when the lease ends, so that it holds no array between runs;
// a lease taken while the thread's group is in use (not today: a step's loop makes no nodes)
// gets a group of its own.
class SingleGroupLease {
 public:
  SingleGroupLease();
  ~SingleGroupLease();
  Group& get() { return *g_; }
  SingleGroupLease(const SingleGroupLease&) = delete;
  SingleGroupLease& operator=(const SingleGroupLease&) = delete;

 private:
  std::optional<Group> local_;
  Group* g_;
  bool* busy_;  // the thread's group's flag, when it is leased (null otherwise)
};

// Adds node `n` to the empty group `g` as its one step, writing `dest`: each distinct array
// operand one input (an array read twice, as in x * x, is one input), scalars read in place.
// The caller sets the group's kind, device and shape.
void set_single_step(Group& g, const Node& n, Array dest);

}  // namespace accel
