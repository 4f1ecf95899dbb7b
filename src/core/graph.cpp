#include "src/core/graph.hpp"
#include "src/core/result_layout.hpp"
#include "src/core/type_rules.hpp"

#include <algorithm>

#include "accel/pool_allocator.hpp"
#include "src/core/backend.hpp"
#include "src/core/eager.hpp"
#include "src/core/eval.hpp"
#include "src/core/pending_memory.hpp"

namespace accel {

namespace {
// Indexed by OpKind: the rows of both tables, in the order OpKind enumerates them.
constexpr OpInfo kOpInfo[] = {
#define ACCEL_ELEMENTWISE(Name, name, arity, inputs, result, flags, fp, cost) \
  {#name, OpClass::Elementwise, FpReport::fp, OpCost::cost},
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
#define ACCEL_GRAPH_OP(Name, name, cls, fp, cost) {#name, OpClass::cls, FpReport::fp, OpCost::cost},
#include "src/core/graph_ops.def"
#undef ACCEL_GRAPH_OP
};
}  // namespace

const OpInfo& op_info(OpKind op) { return kOpInfo[size_t(op)]; }

ScalarArg ScalarArg::of(const Scalar& value, DType dtype) {
  ScalarArg s;
  s.dtype = dtype;
  value.store(dtype, s.bytes);
  return s;
}

Node::Node(OpKind op_, DType dtype_, Device device_, Shape shape_, std::vector<Operand> inputs_,
           NodeParams params_, const Strides* strides_)
    : op(op_),
      dtype(dtype_),
      compute(compute_dtype(op_, dtype_, inputs_)),
      device(device_),
      shape(std::move(shape_)),
      strides(strides_ ? *strides_ : new_array_strides(shape)),
      inputs(std::move(inputs_)),
      params(params_) {}

namespace {
// Arrays released by dying nodes wait here, so that tearing down a long chain (node -> input
// array -> storage -> node -> ...) runs as a loop instead of a recursion as deep as the chain.
thread_local std::vector<Array>* g_graveyard = nullptr;
}  // namespace

Node::~Node() {
  pending::release(*this);
  // Releasing computed inputs frees no node (only a pending storage owns one): the members'
  // destructors do it, without the graveyard (a node evaluated at once, the dispatch path).
  bool reads_pending = false;
  for (const Operand& in : inputs) {
    reads_pending = reads_pending || (in.array.defined() && in.array.storage()->is_pending());
  }
  if (!reads_pending) return;
  if (g_graveyard) {
    for (Operand& in : inputs) {
      if (in.array.defined()) g_graveyard->push_back(std::move(in.array));
    }
    return;
  }
  std::vector<Array> graveyard;
  g_graveyard = &graveyard;
  for (Operand& in : inputs) {
    if (in.array.defined()) graveyard.push_back(std::move(in.array));
  }
  while (!graveyard.empty()) {
    Array a = std::move(graveyard.back());
    graveyard.pop_back();
    // `a` is destroyed here; a node it frees appends its inputs to the graveyard.
  }
  g_graveyard = nullptr;
}

namespace {
Array make_node(OpKind op, DType dtype, Shape shape, const Strides* strides, Device device,
                std::vector<Operand> inputs, NodeParams params) {
  pending::enforce(inputs);
  int depth = 1;
  bool reads_arrays = false;
  for (const Operand& in : inputs) {
    reads_arrays = reads_arrays || in.array.defined();
    if (in.array.defined() && in.array.is_pending()) {
      depth = std::max(depth, in.array.storage()->producer()->depth + 1);
    }
  }
  // A node without array operands (zeros, arange, ...) is where a device enters the graph: one
  // this build cannot run must fail here, at the call, not when the result is first read.
  if (!reads_arrays) backend_for(device);
  if (depth > kMaxPendingDepth) {
    std::vector<Storage*> deep;
    for (const Operand& in : inputs) {
      if (in.array.defined() && in.array.is_pending()) deep.push_back(in.array.storage().get());
    }
    evaluate_storages(deep);
    depth = 1;
  }
  auto node = std::allocate_shared<Node>(pool::Allocator<Node>(), op, dtype, device,
                                         std::move(shape), std::move(inputs), params, strides);
  node->depth = depth;
  pending::capture(*node);
  for (const Operand& in : node->inputs) {
    if (in.array.defined()) in.array.storage()->add_reader(node);
  }
  return Array::pending(std::move(node));
}

// A node reading memory that others can write without a barrier (an import of a NumPy array
// still referenced elsewhere, DLPack, memory exported to NumPy: Storage::is_shared) is computed
// now, so that its result is the one of the call, as NumPy's is, whatever the owner writes
// later. Its consumers stay lazy and fuse with each other.
Array computed_if_reads_shared(Array out) {
  for (const Operand& in : out.storage()->producer()->inputs) {
    if (in.array.defined() && in.array.storage()->is_shared()) {
      out.eval();
      break;
    }
  }
  return out;
}

}  // namespace

Array make_pending(OpKind op, DType dtype, Shape shape, Device device, std::vector<Operand> inputs,
                   NodeParams params) {
  if (std::optional<Array> now =
          eager::try_compute(op, dtype, shape, nullptr, device, inputs, params)) {
    return std::move(*now);
  }
  return computed_if_reads_shared(
      make_node(op, dtype, std::move(shape), nullptr, device, std::move(inputs), params));
}

Array make_pending_strided(OpKind op, DType dtype, Shape shape, Strides strides, Device device,
                           std::vector<Operand> inputs, NodeParams params) {
  if (std::optional<Array> now =
          eager::try_compute(op, dtype, shape, &strides, device, inputs, params)) {
    return std::move(*now);
  }
  return computed_if_reads_shared(
      make_node(op, dtype, std::move(shape), &strides, device, std::move(inputs), params));
}

Array make_pending_lazy(OpKind op, DType dtype, Shape shape, Device device,
                        std::vector<Operand> inputs, NodeParams params) {
  return make_node(op, dtype, std::move(shape), nullptr, device, std::move(inputs), params);
}

}  // namespace accel
