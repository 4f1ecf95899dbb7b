#include "src/core/graph.hpp"
#include "src/core/result_layout.hpp"
#include "src/core/type_rules.hpp"

#include <algorithm>

#include "src/core/backend.hpp"
#include "src/core/eval.hpp"
#include "src/core/pending_memory.hpp"

namespace accel {

OpClass op_class(OpKind op) {
  switch (op) {
    case OpKind::Where:
    case OpKind::Cast:
      return OpClass::Elementwise;
    case OpKind::Fill:
    case OpKind::Arange:
    case OpKind::Linspace:
    case OpKind::Eye:
    case OpKind::Tri:
    case OpKind::RandomUniform:
    case OpKind::RandomNormal:
    case OpKind::RandomExponential:
    case OpKind::RandomIntegers:
    case OpKind::RandomPermutation:
      return OpClass::Generator;
    case OpKind::Sum:
    case OpKind::Prod:
    case OpKind::Max:
    case OpKind::Min:
    case OpKind::ArgMax:
    case OpKind::ArgMin:
    case OpKind::Any:
    case OpKind::All:
    case OpKind::Mean:
    case OpKind::Var:
      return OpClass::Reduction;
    case OpKind::Concatenate:
      return OpClass::Other;
    default:
      return OpClass::Elementwise;  // the rows of elementwise_ops.def
  }
}

const char* op_name(OpKind op) {
  switch (op) {
#define ACCEL_ELEMENTWISE(Name, name, ...) \
  case OpKind::Name:                       \
    return #name;
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
    case OpKind::Where:
      return "where";
    case OpKind::Cast:
      return "cast";
    case OpKind::Fill:
      return "fill";
    case OpKind::Arange:
      return "arange";
    case OpKind::Linspace:
      return "linspace";
    case OpKind::Eye:
      return "eye";
    case OpKind::Tri:
      return "tri";
    case OpKind::RandomUniform:
      return "random_uniform";
    case OpKind::RandomNormal:
      return "random_normal";
    case OpKind::RandomExponential:
      return "random_exponential";
    case OpKind::RandomIntegers:
      return "random_integers";
    case OpKind::RandomPermutation:
      return "random_permutation";
    case OpKind::Sum:
      return "sum";
    case OpKind::Prod:
      return "prod";
    case OpKind::Max:
      return "max";
    case OpKind::Min:
      return "min";
    case OpKind::ArgMax:
      return "argmax";
    case OpKind::ArgMin:
      return "argmin";
    case OpKind::Any:
      return "any";
    case OpKind::All:
      return "all";
    case OpKind::Mean:
      return "mean";
    case OpKind::Var:
      return "var";
    case OpKind::Concatenate:
      return "concatenate";
  }
  return "?";
}

ScalarArg ScalarArg::of(const Scalar& value, DType dtype) {
  ScalarArg s;
  s.dtype = dtype;
  value.store(dtype, s.bytes);
  return s;
}

Node::Node(OpKind op_, DType dtype_, Device device_, Shape shape_, std::vector<Operand> inputs_,
           NodeParams params_)
    : op(op_),
      dtype(dtype_),
      compute(compute_dtype(op_, dtype_, inputs_)),
      device(device_),
      shape(std::move(shape_)),
      strides(new_array_strides(shape)),
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
  auto node =
      std::make_shared<Node>(op, dtype, device, std::move(shape), std::move(inputs), params);
  node->depth = depth;
  if (strides) node->strides = *strides;
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
  return computed_if_reads_shared(
      make_node(op, dtype, std::move(shape), nullptr, device, std::move(inputs), params));
}

Array make_pending_strided(OpKind op, DType dtype, Shape shape, Strides strides, Device device,
                           std::vector<Operand> inputs, NodeParams params) {
  return computed_if_reads_shared(
      make_node(op, dtype, std::move(shape), &strides, device, std::move(inputs), params));
}

Array make_pending_lazy(OpKind op, DType dtype, Shape shape, Device device,
                        std::vector<Operand> inputs, NodeParams params) {
  return make_node(op, dtype, std::move(shape), nullptr, device, std::move(inputs), params);
}

}  // namespace accel
