#include "src/cpu/copy_group.hpp"

#include "src/cpu/strided_copy.hpp"

namespace accel::cpu {

bool run_copy_group(const Group& group, const Layout& layout) {
  if (group.steps.size() != 1 || group.inputs.size() != 1 || group.outputs.size() != 1) {
    return false;
  }
  const Step& step = group.steps[0];
  const Array& in = group.inputs[0];
  const Array& dest = group.outputs[0].dest;
  if (step.node->op != OpKind::Cast || step.args.size() != 1 ||
      step.args[0].kind != StepArg::Input || in.dtype() != step.node->dtype ||
      dest.dtype() != step.node->dtype || dest.shape() != group.shape ||
      shape_size(group.shape) == 0) {
    return false;
  }
  const size_t item = itemsize(in.dtype());
  const char* src = static_cast<const char*>(in.storage()->data()) + in.offset() * int64_t(item);
  char* dst = static_cast<char*>(dest.storage()->data()) + dest.offset() * int64_t(item);
  const Shape& shape = layout.shape;
  const Strides& is = layout.inputs[0];
  const Strides& os = layout.outputs[0];
  return with_item_type(item, [&](auto t) {
    using T = decltype(t);
    constexpr auto isz = int64_t(sizeof(T));
    walk_runs<2>(shape, {&is, &os}, 0, shape_size(shape),
                 [&](const auto& off, const auto& stride, int64_t count, int64_t) {
                   copy_items<T>(src + off[0] * isz, stride[0], dst + off[1] * isz, stride[1],
                                 count);
                 });
  });
}

}  // namespace accel::cpu
