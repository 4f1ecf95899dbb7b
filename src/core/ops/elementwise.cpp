// Front-ends of the elementwise ops: one generic function, instantiated per table row.
#include <algorithm>

#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/type_rules.hpp"

namespace accel {

namespace {

bool is_comparison(const ElementwiseRule& rule) {
  return rule.arity == 2 && rule.result == ResultRule::Bool && !(rule.flags & kInputsToBool);
}

// NumPy 2 compares arrays with Python integers outside the array's range exactly (uint8 < -1
// is all False) instead of raising OverflowError: widen the comparison instead.
DType widen_for_comparison(DType compute, const std::vector<const ArrayOrScalar*>& operands) {
  if (!is_integer(compute)) return compute;
  for (const ArrayOrScalar* op : operands) {
    if (op->is_array() || !op->scalar().is_weak() || op->scalar().fits(compute)) continue;
    const bool fits_int64 = op->scalar().fits(DType::Int64);
    return fits_int64 && compute != DType::UInt64 ? DType::Int64 : DType::Float64;
  }
  return compute;
}

// Broadcasts the array operands, converts each operand i to compute[i], makes the node.
Array apply(OpKind op, DType result, const std::vector<DType>& compute,
            const std::vector<const ArrayOrScalar*>& operands) {
  const Device device = common_device(operands);
  std::vector<Shape> shapes;
  for (const ArrayOrScalar* o : operands) {
    if (o->is_array()) shapes.push_back(o->array().shape());
  }
  const Shape shape = shapes.empty() ? Shape{} : broadcast_shapes(shapes);
  std::vector<Operand> inputs;
  inputs.reserve(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    const ArrayOrScalar* o = operands[i];
    if (o->is_array()) {
      inputs.push_back(Operand{cast_to(broadcast_view(o->array(), shape), compute[i])});
    } else {
      inputs.push_back(Operand{scalar_arg(o->scalar(), compute[i])});
    }
  }
  return make_pending(op, result, shape, device, std::move(inputs));
}

}  // namespace

Array elementwise(OpKind op, const std::vector<const ArrayOrScalar*>& operands) {
  const ElementwiseRule& rule = elementwise_rule(op);
  Resolution res = resolve(op, operands);
  if (is_comparison(rule)) res.compute = widen_for_comparison(res.compute, operands);
  return apply(op, res.result, std::vector<DType>(operands.size(), res.compute), operands);
}

#define ACCEL_ELEMENTWISE(Name, name, arity, ...) ACCEL_DEFINE_##arity(Name, name)
#define ACCEL_DEFINE_1(Name, name) \
  Array name(const ArrayOrScalar& x) { return elementwise(OpKind::Name, {&x}); }
#define ACCEL_DEFINE_2(Name, name)                               \
  Array name(const ArrayOrScalar& x1, const ArrayOrScalar& x2) { \
    return elementwise(OpKind::Name, {&x1, &x2});                \
  }
#include "accel/elementwise_ops.def"
#undef ACCEL_DEFINE_1
#undef ACCEL_DEFINE_2
#undef ACCEL_ELEMENTWISE

Array where(const ArrayOrScalar& cond, const ArrayOrScalar& x, const ArrayOrScalar& y) {
  const DType dtype = result_type_of({&x, &y});
  return apply(OpKind::Where, dtype, {DType::Bool, dtype, dtype}, {&cond, &x, &y});
}

DType result_type(const std::vector<ArrayOrScalar>& operands) {
  std::vector<const ArrayOrScalar*> ptrs;
  for (const ArrayOrScalar& o : operands) ptrs.push_back(&o);
  return result_type_of(ptrs);
}

}  // namespace accel
