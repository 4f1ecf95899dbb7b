#include "src/core/backend.hpp"

#include "accel/errors.hpp"
#include "src/cpu/cpu_backend.hpp"
#include "src/cuda/cuda_backend.hpp"

namespace accel {

Backend& backend_for(Device device) {
  if (device.is_cpu()) return cpu::cpu_backend();
  return cuda::cuda_backend(device.index);
}

void run_concatenate_as_copies(const Group& group,
                               const std::function<void(const Group&)>& run_copy) {
  const Node& node = *group.steps[0].node;
  const Array& out = group.outputs[0].dest;
  const int axis = node.params.axis;
  int64_t at = 0;
  for (const Operand& in : node.inputs) {
    const Array& src = in.array;
    // The slab of the output this input fills, written by a one-step copy group.
    const Array dest =
        out.view(out.dtype(), src.shape(), out.strides(), out.offset() + at * out.strides()[axis]);
    at += src.shape()[axis];
    if (src.size() == 0) continue;
    Node copy(OpKind::Cast, out.dtype(), out.device(), src.shape(), {Operand{src}});
    Group g;
    g.device = group.device;
    g.shape = src.shape();
    g.inputs = {src};
    g.steps = {Step{&copy, {StepArg{StepArg::Input, 0}}}};
    g.outputs = {GroupOutput{0, dest}};
    run_copy(g);
  }
}

void Backend::gemm(const Gemm&) {
  throw NotImplementedError("matmul is not implemented on this device");
}

}  // namespace accel
