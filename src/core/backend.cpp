#include "src/core/backend.hpp"

#include <array>
#include <atomic>

#include "accel/errors.hpp"

namespace accel {

namespace {

// One factory per device type; written at registration, read on every dispatch.
std::array<std::atomic<BackendFactory>, 2> g_factories{};

}  // namespace

void register_backend(DeviceType type, BackendFactory factory) {
  g_factories[size_t(type)].store(factory, std::memory_order_release);
}

// Backends register themselves (each from its own translation unit: cpu_backend.cpp,
// cuda_backend.cpp), but not from static initializers: accel_core is a static library, and the
// linker leaves out an object file that nothing references, registrar and all. Instead the first
// lookup calls register_builtin_backends(), defined outside the core (src/builtin_backends.cpp),
// which calls each backend's registration function. That chain of calls is a chain of symbol
// references (backend.o -> builtin_backends.o -> cpu_backend.o, cuda_backend.o), so whatever
// links the core and looks a backend up (the Python extension, the C++ tests, examples/cpp)
// links the backends too.
Backend& backend_for(Device device) {
  static const bool registered = (register_builtin_backends(), true);
  (void)registered;
  const BackendFactory factory = g_factories[size_t(device.type)].load(std::memory_order_acquire);
  if (!factory) throw Error("no backend for " + device.str() + " in this build");
  return factory(device.index);
}

namespace {
BackendLimits g_default_limits;  // written once, before the first lookup returns
}  // namespace

void set_default_limits(const BackendLimits& limits) { g_default_limits = limits; }

const BackendLimits& Backend::limits() const { return g_default_limits; }

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
