#include "src/core/eager.hpp"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <utility>

#include "accel/pool_allocator.hpp"
#include "src/core/backend.hpp"
#include "src/core/eval_instrumentation.hpp"
#include "src/core/fp_errors.hpp"
#include "src/core/group.hpp"
#include "src/core/single_step.hpp"

namespace accel::eager {

namespace {

int64_t read_env() {
  const char* v = std::getenv("ACCELPY_EAGER_ELEMENTS");
  if (!v || !*v) return kDefaultMaxElements;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  return end && *end == '\0' && n >= 0 ? n : kDefaultMaxElements;
}
std::atomic<int64_t> g_max_elements{read_env()};

// A reduction over every axis (a 0-d result, what a host read such as float(y.sum()) takes) of one
// computed array: its size is the input's.
bool full_reduction(OpKind op, const Shape& shape, const std::vector<Operand>& inputs) {
  return op_class(op) == OpClass::Reduction && shape.empty() && inputs.size() == 1 &&
         inputs[0].array.defined();
}

// Operands and results may have any layout: the CPU's step interpreter (cpu/small_group.cpp)
// gathers views that are not dense (a grid's interior, a broadcast column) by rows, as the block
// executor would, without the executor's setup per evaluation that computing at the call saves.
bool eligible(OpKind op, const Shape& shape, Device device, const std::vector<Operand>& inputs) {
  if (!device.is_cpu()) return false;
  int64_t n = 0;
  if (op_class(op) == OpClass::Elementwise) {
    n = shape_size(shape);
  } else if (full_reduction(op, shape, inputs)) {
    n = inputs[0].array.size();
  } else {
    return false;
  }
  if (n == 0 || n > g_max_elements.load(std::memory_order_relaxed)) return false;
  bool reads_array = false;
  for (const Operand& in : inputs) {
    if (!in.array.defined()) continue;
    if (in.array.is_pending() || !in.array.device().is_cpu()) return false;
    reads_array = true;
  }
  // A node without array operands (full, arange) is a generator or a constant: left to fuse.
  return reads_array;
}

}  // namespace

int64_t max_elements() { return g_max_elements.load(std::memory_order_relaxed); }
void set_max_elements(int64_t n) { g_max_elements.store(n < 0 ? 0 : n); }

std::optional<Array> try_compute(OpKind op, DType dtype, const Shape& shape, const Strides* strides,
                                 Device device, std::vector<Operand>& inputs,
                                 const NodeParams& params) {
  if (!eligible(op, shape, device, inputs)) return std::nullopt;
  // The node lives on this frame: nothing pending is made, nothing reads it afterwards.
  Node node(op, dtype, device, shape, std::move(inputs), params, strides);
  Backend& backend = backend_for(device);
  const size_t nbytes = size_t(shape_size(shape)) * itemsize(dtype);
  Array out = Array::from_storage(std::allocate_shared<Storage>(pool::Allocator<Storage>(), device,
                                                                nbytes, backend.allocate(nbytes)),
                                  dtype, shape, node.strides, 0);
  // One evaluation, as evaluate_single runs a node over computed inputs: the same group, the
  // same loops, the same floating-point error report (at the call, where NumPy makes it).
  fp_errors::EvaluationScope scope;
  {
    SingleGroupLease lease;
    Group& g = lease.get();
    g.device = device;
    if (op_class(op) == OpClass::Reduction) {
      g.kind = Group::Kind::Reduction;  // its space is the input's
      g.shape = node.inputs[0].array.shape();
    } else {
      g.kind = Group::Kind::Elementwise;
      g.shape = shape;
    }
    set_single_step(g, node, std::move(out));  // taken back below: no reference count traffic
    backend.run(g);
    fp_errors::note_group(g);
    // Counted as the group it is; its structure (a hash of the group, for the bound on compiled
    // kernels, which the CPU does not compile) is recorded only for the debug log.
    instrumentation::count_group(g);
    if (fusion_logging()) {
      instrumentation::log_group(backend, g, instrumentation::note_structure(g));
    }
    out = std::move(g.outputs[0].dest);
  }
  scope.finish();
  return out;
}

}  // namespace accel::eager
