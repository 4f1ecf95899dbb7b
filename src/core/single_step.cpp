#include "src/core/single_step.hpp"

#include <utility>

namespace accel {

namespace {

struct KeptGroup {
  Group group;
  bool busy = false;
};
thread_local KeptGroup t_kept;

}  // namespace

SingleGroupLease::SingleGroupLease() {
  KeptGroup& kept = t_kept;
  busy_ = kept.busy ? nullptr : &kept.busy;
  g_ = busy_ ? &kept.group : &local_.emplace();
  kept.busy = true;
}

SingleGroupLease::~SingleGroupLease() {
  if (!busy_) return;
  Group& g = *g_;
  g.inputs.clear();
  g.steps.clear();
  g.outputs.clear();
  g.shape.clear();
  g.kind = Group::Kind::Elementwise;
  g.slot.reset();
  *busy_ = false;
}

void set_single_step(Group& g, const Node& n, Array dest) {
  Step step{&n, {}};
  for (const Operand& in : n.inputs) {
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
  g.outputs.push_back({0, std::move(dest)});
}

}  // namespace accel
