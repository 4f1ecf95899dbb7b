#include "src/core/type_rules.hpp"

#include <algorithm>
#include <string>

#include "accel/errors.hpp"

namespace accel {

namespace {

using namespace dtypes;  // NOLINT: the masks the table names

std::vector<std::pair<OpKind, ElementwiseRule>> build_rules() {
  std::vector<std::pair<OpKind, ElementwiseRule>> rules;
#define ACCEL_ELEMENTWISE(Name, name, arity, inputs, result, flags, ...) \
  rules.push_back({OpKind::Name, {#name, arity, inputs, ResultRule::result, flags}});
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
  return rules;
}

std::string dtype_list(DTypeSet set) {
  std::string out;
  for (int i = 0; i < kNumDTypes; ++i) {
    if (contains(set, static_cast<DType>(i))) {
      if (!out.empty()) out += ", ";
      out += dtype_name(static_cast<DType>(i));
    }
  }
  return out;
}

}  // namespace

const std::vector<std::pair<OpKind, ElementwiseRule>>& elementwise_rules() {
  static const auto rules = build_rules();
  return rules;
}

const ElementwiseRule& elementwise_rule(OpKind op) {
  return elementwise_rules()[static_cast<size_t>(op)].second;
}

DType weak_scalar_default_dtype(DTypeKind kind) {
  switch (kind) {
    case DTypeKind::Bool:
      return DType::Bool;
    case DTypeKind::Float:
      return kDefaultFloat;
    case DTypeKind::Complex:
      return kDefaultComplex;
    case DTypeKind::UnsignedInt:
      return DType::UInt64;
    case DTypeKind::SignedInt:
      break;
  }
  return kDefaultInt;
}

DType result_type_of(OperandSpan operands) {
  bool any_strong = false;
  DType strong = DType::Bool;
  DTypeKind weak_kind = DTypeKind::Bool;
  bool weak_uint = false;
  uint32_t strong_seen = 0;  // bit i: DType i is among the strong operands
  for (const ArrayOrScalar* op : operands) {
    if (op->is_array() || !op->scalar().is_weak()) {
      const DType dt = op->is_array() ? op->array().dtype() : op->scalar().dtype();
      strong = any_strong ? promote_types(strong, dt) : dt;
      strong_seen |= 1u << static_cast<unsigned>(dt);
      any_strong = true;
    } else {
      const DTypeKind k = op->scalar().kind();
      weak_uint = weak_uint || k == DTypeKind::UnsignedInt;
      const auto rank = [](DTypeKind kk) {
        return kk == DTypeKind::Bool      ? 0
               : kk == DTypeKind::Float   ? 2
               : kk == DTypeKind::Complex ? 3
                                          : 1;
      };
      if (rank(k) > rank(weak_kind)) weak_kind = k;
    }
  }
  // Pairwise promotion is not associative from three distinct dtypes on ((uint8, int8) -> int16,
  // then float16 -> float32), NumPy promotes the whole sequence at once (uint8, int8, float16 ->
  // float16): the first dtype every one of them casts to safely.
  if (__builtin_popcount(strong_seen) > 2) strong = promote_types_of(strong_seen);
  if (!any_strong) {
    return weak_scalar_default_dtype(
        weak_uint && weak_kind == DTypeKind::SignedInt ? DTypeKind::UnsignedInt : weak_kind);
  }
  // NEP 50: a weak scalar changes the result only when its kind is higher.
  switch (weak_kind) {
    case DTypeKind::Bool:
      return strong;
    case DTypeKind::SignedInt:
    case DTypeKind::UnsignedInt:
      return strong == DType::Bool ? kDefaultInt : strong;
    case DTypeKind::Float:
      return is_inexact(strong) ? strong : kDefaultFloat;
    case DTypeKind::Complex:
      if (is_complex(strong)) return strong;
      return is_floating(strong) ? complex_dtype(strong) : kDefaultComplex;
  }
  return strong;
}

Resolution resolve(OpKind op, OperandSpan operands) {
  const ElementwiseRule& rule = elementwise_rule(op);
  const DType promoted = result_type_of(operands);
  if (promoted == DType::Bool) {
    if (op == OpKind::Subtract) {
      throw TypeError(
          "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
          "`^` operator, or the logical_xor function instead.");
    }
    if (op == OpKind::Negative) {
      throw TypeError(
          "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
          "or the logical_not function instead.");
    }
    if (rule.flags & kNoBool) {
      throw TypeError(std::string("ufunc '") + rule.name +
                      "' did not contain a loop with signature matching types "
                      "<class 'numpy.dtypes.BoolDType'> -> None");
    }
  }
  DType compute = promoted;
  if (rule.flags & kInputsToBool) {
    // NumPy's logical loops take a Python int as a C long: past int64 it raises, whatever the
    // array's dtype.
    for (const ArrayOrScalar* o : operands) {
      const bool weak_int =
          !o->is_array() && o->scalar().is_weak() && is_integer(o->scalar().dtype());
      if (weak_int && !o->scalar().fits(DType::Int64)) {
        throw OverflowError("Python int too large to convert to C long");
      }
    }
    compute = DType::Bool;
  } else if ((rule.flags & kIntsToDefaultFloat) && !is_inexact(promoted)) {
    compute = kDefaultFloat;
  } else if (!contains(rule.inputs, promoted)) {
    // NumPy's loop search: each operand on its own must cast safely to the loop's dtype, a
    // weak scalar counting as the promoted dtype (so atan2(int8, uint8) is float16, not the
    // float32 that their promotion, int16, would need).
    std::vector<DType> dts;
    for (const ArrayOrScalar* o : operands) {
      const bool weak = !o->is_array() && o->scalar().is_weak();
      dts.push_back(weak ? promoted : o->is_array() ? o->array().dtype() : o->scalar().dtype());
    }
    const auto accepts = [&](DType c) {
      return std::all_of(dts.begin(), dts.end(), [&](DType d) { return can_cast_safely(d, c); });
    };
    bool found = false;
    for (int i = 0; i < kNumDTypes && !found; ++i) {
      const DType c = static_cast<DType>(i);
      if (contains(rule.inputs, c) && accepts(c)) {
        compute = c;
        found = true;
      }
    }
    if (!found) {
      throw TypeError(std::string("ufunc '") + rule.name + "' not supported for the input type " +
                      std::string(dtype_name(promoted)) + "; it supports " +
                      dtype_list(rule.inputs));
    }
  }
  DType result = compute;
  if (rule.result == ResultRule::Bool) result = DType::Bool;
  if (rule.result == ResultRule::Real) result = real_dtype(compute);
  if (rule.result == ResultRule::Int32) result = DType::Int32;
  return {compute, result};
}

DType compute_dtype(OpKind op, DType result, const std::vector<Operand>& inputs) {
  const OpClass c = op_class(op);
  if (c == OpClass::Generator || c == OpClass::Other || inputs.empty()) return result;
  // where(cond, x, y) computes in x's dtype; cond is bool.
  const Operand& in = op == OpKind::Where ? inputs[1] : inputs[0];
  return in.is_scalar() ? in.scalar.dtype : in.array.dtype();
}

}  // namespace accel
