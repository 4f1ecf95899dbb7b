// Front-ends of the elementwise ops: one generic function, instantiated per table row.
#include <algorithm>
#include <cmath>

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/result_layout.hpp"
#include "src/core/type_rules.hpp"

namespace accel {

namespace {

bool is_comparison(const ElementwiseRule& rule) {
  return rule.arity == 2 && rule.result == ResultRule::Bool && !(rule.flags & kInputsToBool);
}

// NumPy 2 compares arrays with Python integers outside the array's range exactly (uint8 < -1
// is all False) instead of raising OverflowError: widen the comparison instead.
DType widen_for_comparison(DType compute, OperandSpan operands) {
  if (!is_integer(compute)) return compute;
  // Only integer arrays compare exactly; bool arrays promote to int64 and overflow, as in NumPy.
  const bool integer_operand = std::any_of(operands.begin(), operands.end(), [](auto* o) {
    const bool weak = !o->is_array() && o->scalar().is_weak();
    return !weak && is_integer(o->is_array() ? o->array().dtype() : o->scalar().dtype());
  });
  if (!integer_operand) return compute;
  for (const ArrayOrScalar* op : operands) {
    if (op->is_array() || !op->scalar().is_weak() || op->scalar().fits(compute)) continue;
    const bool fits_int64 = op->scalar().fits(DType::Int64);
    return fits_int64 && compute != DType::UInt64 ? DType::Int64 : DType::Float64;
  }
  return compute;
}

// A comparison of integers with a Python integer that no common integer dtype holds is
// decided by the side the scalar lies on (uint64 < -1 is all False, int64 == 2**63 too).
// Returns that constant as a lazy comparison against the dtype's own bound, or nothing.
std::optional<Array> decided_comparison(OpKind op, DType compute, OperandSpan operands) {
  if (!is_integer(compute) || operands.size() != 2) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    const ArrayOrScalar* s = operands[i];
    const ArrayOrScalar* other = operands[1 - i];
    if (s->is_array() || !s->scalar().is_weak() || s->scalar().fits(compute)) continue;
    if (s->scalar().fits(DType::Int64) && compute != DType::UInt64) return std::nullopt;
    if (!other->is_array() || !is_integer(other->array().dtype())) return std::nullopt;
    const bool above = s->scalar().kind() == DTypeKind::UnsignedInt || s->scalar().as_int() >= 0;
    // other OP scalar, with the scalar above (or below) every value of `other`:
    bool truth = op == OpKind::NotEqual;
    const bool other_first = i == 1;
    if (op == OpKind::Less || op == OpKind::LessEqual) truth = above == other_first;
    if (op == OpKind::Greater || op == OpKind::GreaterEqual) truth = above != other_first;
    // x >= min(dtype) is true everywhere and x < min(dtype) false, lazily, in x's shape.
    const DType dt = other->array().dtype();
    const ArrayOrScalar minimum(dispatch_dtype(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T lowest = [] {
        if constexpr (is_int_v<T>) {
          return numeric_limits<T>::lowest();
        } else {
          return T{};
        }
      }();
      return Scalar::from_bytes(dt, &lowest);
    }));
    return elementwise(truth ? OpKind::GreaterEqual : OpKind::Less, {other, &minimum});
  }
  return std::nullopt;
}

// The broadcast shape of the array operands; () when all are scalars.
Shape broadcast_operand_shapes(OperandSpan operands) {
  // Broadcast pairwise (no allocation when shapes agree, the common case); on a mismatch, the
  // all-shapes version raises with every shape named.
  const Shape* first = nullptr;
  Shape shape;
  for (const ArrayOrScalar* o : operands) {
    if (!o->is_array()) continue;
    if (!first) {
      first = &o->array().shape();
      shape = *first;
    } else if (o->array().shape() != shape) {
      try {
        shape = broadcast_shapes(shape, o->array().shape());
      } catch (const ValueError&) {
        std::vector<Shape> shapes;
        for (const ArrayOrScalar* p : operands) {
          if (p->is_array()) shapes.push_back(p->array().shape());
        }
        broadcast_shapes(shapes);
        throw;
      }
    }
  }
  return shape;
}

// NumPy 2 compares a signed integer with a uint64 exactly, where promotion would go through
// float64 (2**63 - 1 == 2**63 there). The one rule, for every backend: with s signed and u
// unsigned, s < u is (s < 0) | (uint64(s) < u) and s == u is (s >= 0) & (uint64(s) == u); the
// other comparisons follow by negation and swapping. Built from lazy ops, so it fuses into one
// kernel like any expression. Nothing when the operands are not such a pair.
std::optional<Array> mixed_sign_comparison(OpKind op, OperandSpan operands) {
  if (operands.size() != 2) return std::nullopt;
  DType dt[2];
  for (int i = 0; i < 2; ++i) {
    const ArrayOrScalar* o = operands[i];
    if (!o->is_array() && o->scalar().is_weak()) return std::nullopt;
    dt[i] = o->is_array() ? o->array().dtype() : o->scalar().dtype();
  }
  const bool signed_first = kind(dt[0]) == DTypeKind::SignedInt && dt[1] == DType::UInt64;
  if (!signed_first && !(dt[0] == DType::UInt64 && kind(dt[1]) == DTypeKind::SignedInt)) {
    return std::nullopt;
  }
  const Device device = common_device(operands);
  const auto as_array = [&](const ArrayOrScalar* o) {
    return o->is_array() ? o->array() : full(Shape{}, o->scalar(), o->scalar().dtype(), device);
  };
  const Array s = cast_to(as_array(operands[signed_first ? 0 : 1]), DType::Int64);
  const ArrayOrScalar s_op(s);
  const ArrayOrScalar s_unsigned(cast_to(s, DType::UInt64));
  const ArrayOrScalar u(as_array(operands[signed_first ? 1 : 0]));
  // Written as s OP u: swap the sense when the unsigned operand came first.
  if (!signed_first) {
    op = op == OpKind::Less           ? OpKind::Greater
         : op == OpKind::Greater      ? OpKind::Less
         : op == OpKind::LessEqual    ? OpKind::GreaterEqual
         : op == OpKind::GreaterEqual ? OpKind::LessEqual
                                      : op;
  }
  const ArrayOrScalar zero(Scalar::weak_int(0));
  // Equal, Greater and GreaterEqual need s >= 0; the others hold whenever s < 0.
  const bool needs_non_negative =
      op == OpKind::Equal || op == OpKind::Greater || op == OpKind::GreaterEqual;
  const ArrayOrScalar sign(
      elementwise(needs_non_negative ? OpKind::GreaterEqual : OpKind::Less, {&s_op, &zero}));
  const ArrayOrScalar magnitude(elementwise(op, {&s_unsigned, &u}));
  return elementwise(needs_non_negative ? OpKind::LogicalAnd : OpKind::LogicalOr,
                     {&sign, &magnitude});
}

// The strides NumPy gives the result of `op` over `operands` converted to compute[i].
Strides result_strides(OpKind op, const Shape& shape, std::span<const DType> compute,
                       OperandSpan operands) {
  SmallVector<LayoutInput, 3> layout_inputs;
  for (size_t i = 0; i < operands.size(); ++i) {
    const ArrayOrScalar* o = operands[i];
    if (o->is_array()) layout_inputs.push_back({&o->array(), o->array().dtype() != compute[i]});
  }
  return elementwise_result_strides(
      shape, std::span<const LayoutInput>(layout_inputs.data(), layout_inputs.size()),
      op != OpKind::Where);
}

// Broadcasts the array operands, converts each operand i to compute[i], makes the node, laid
// out as NumPy lays out the result (the conversions too: they are written in the same order);
// `layout`, where given, overrides the strides (one step of an op NumPy does in one ufunc).
Array apply(OpKind op, DType result, std::span<const DType> compute, OperandSpan operands,
            const Strides* layout = nullptr) {
  const Device device = common_device(operands);
  const Shape shape = broadcast_operand_shapes(operands);
  const Strides strides = layout ? *layout : result_strides(op, shape, compute, operands);
  std::vector<Operand> inputs;
  inputs.reserve(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    const ArrayOrScalar* o = operands[i];
    if (o->is_array()) {
      const Array a = broadcast_view(o->array(), shape);
      inputs.push_back(Operand{a.dtype() == compute[i]
                                   ? a
                                   : make_pending_strided(OpKind::Cast, compute[i], shape, strides,
                                                          device, {Operand{a}})});
    } else {
      inputs.push_back(Operand{scalar_arg(o->scalar(), compute[i])});
    }
  }
  return make_pending_strided(op, result, shape, strides, device, std::move(inputs));
}

Array apply(OpKind op, DType result, std::initializer_list<DType> compute,
            std::initializer_list<const ArrayOrScalar*> operands, const Strides* layout = nullptr) {
  return apply(op, result, std::span<const DType>(compute.begin(), compute.size()),
               OperandSpan(operands.begin(), operands.size()), layout);
}

// NumPy refuses integers to negative integer powers, at the call. A scalar exponent is checked
// from its value; a signed exponent array is reduced (any(exponent < 0)) here, which evaluates the
// exponent now rather than fused into the power (see docs/decisions.md). An empty result raises
// nothing: NumPy's loop never sees an element.
void check_integer_power(DType compute, const Shape& result_shape, const ArrayOrScalar& exponent) {
  if (!is_integer(compute) || shape_size(result_shape) == 0) return;
  if (exponent.is_array()) {
    const Array& e = exponent.array();
    if (kind(e.dtype()) != DTypeKind::SignedInt || e.size() == 0) return;
    bool negative = false;
    to_host(any(less(ArrayOrScalar(e), ArrayOrScalar(Scalar::weak_int(0)))), &negative);
    if (negative) throw ValueError("Integers to negative integer powers are not allowed.");
    return;
  }
  const Scalar& s = exponent.scalar();
  // An exponent the dtype cannot hold raises OverflowError later, as in NumPy.
  if (s.kind() == DTypeKind::SignedInt && s.as_int() < 0 && (!s.is_weak() || s.fits(compute))) {
    throw ValueError("Integers to negative integer powers are not allowed.");
  }
}

// Whether `bound`, a Python integer, lies at or beyond the low (or high) end of the integer
// dtype `dt`: numpy.clip then ignores it rather than raising OverflowError.
bool python_int_beyond(const ArrayOrScalar& bound, DType dt, bool low) {
  if (bound.is_array() || !bound.scalar().is_weak() || !is_integer(dt)) return false;
  const Scalar& s = bound.scalar();
  if (s.kind() != DTypeKind::SignedInt && s.kind() != DTypeKind::UnsignedInt) return false;
  const __int128 v = s.kind() == DTypeKind::UnsignedInt ? static_cast<__int128>(s.as_uint())
                                                        : static_cast<__int128>(s.as_int());
  return dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_int_v<T>) {
      return low ? v <= static_cast<__int128>(numeric_limits<T>::lowest())
                 : v >= static_cast<__int128>(numeric_limits<T>::max());
    } else {
      return false;
    }
  });
}

}  // namespace

Array elementwise(OpKind op, OperandSpan operands) {
  const ElementwiseRule& rule = elementwise_rule(op);
  Resolution res = resolve(op, operands);
  if (is_comparison(rule)) {
    if (std::optional<Array> exact = mixed_sign_comparison(op, operands)) return *exact;
    if (std::optional<Array> decided = decided_comparison(op, res.compute, operands)) {
      return *decided;
    }
    res.compute = widen_for_comparison(res.compute, operands);
  }
  if (op == OpKind::Pow) {
    check_integer_power(res.compute, broadcast_operand_shapes(operands), *operands[1]);
  }
  const DType compute[3] = {res.compute, res.compute, res.compute};
  return apply(op, res.result, std::span<const DType>(compute, operands.size()), operands);
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

Array clip(const ArrayOrScalar& x, const std::optional<ArrayOrScalar>& min,
           const std::optional<ArrayOrScalar>& max) {
  const DType dt = x.is_array() ? x.array().dtype() : x.scalar().dtype();
  const ArrayOrScalar* lo = min && !python_int_beyond(*min, dt, true) ? &*min : nullptr;
  const ArrayOrScalar* hi = max && !python_int_beyond(*max, dt, false) ? &*max : nullptr;
  if (!lo && !hi) return elementwise(OpKind::Positive, {&x});
  if (!lo) return elementwise(OpKind::Minimum, {&x, hi});
  if (!hi) return elementwise(OpKind::Maximum, {&x, lo});
  // The three operands promote together (as numpy's clip ufunc), then
  // clip = minimum(hi, maximum(lo, x)): with the bounds first, x survives ties (clip(-0.0, 0.0,
  // 1.0) is -0.0, as in NumPy) and a NaN bound wins.
  const Resolution res = resolve(OpKind::Maximum, {&x, lo, hi});
  // Both steps take the layout of NumPy's one clip ufunc over the three operands.
  const ArrayOrScalar* all[] = {&x, lo, hi};
  const DType compute[] = {res.compute, res.compute, res.compute};
  const Strides layout =
      result_strides(OpKind::Maximum, broadcast_operand_shapes(OperandSpan(all, 3)),
                     std::span<const DType>(compute, 3), OperandSpan(all, 3));
  const ArrayOrScalar low_clipped(
      apply(OpKind::Maximum, res.result, {res.compute, res.compute}, {lo, &x}, &layout));
  return apply(OpKind::Minimum, res.result, {res.compute, res.compute}, {hi, &low_clipped},
               &layout);
}

Array round(const Array& x, int64_t decimals) {
  const DType dt = x.dtype();
  const ArrayOrScalar in(x);
  if (decimals == 0 && !is_integer(dt)) return elementwise(OpKind::Rint, {&in});
  if (is_complex(dt)) {
    // Each part rounds on its own, which no fused product with a complex scale does when a
    // part is infinite; build the result through views of its parts instead.
    const Array out = empty(x.shape(), dt, x.device());
    assign(real(out), round(real(x), decimals));
    assign(imag(out), round(imag(x), decimals));
    return out;
  }
  if (is_integer(dt) && decimals >= 0) return copy(x);
  if (dt == DType::Bool) {
    throw TypeError(
        "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool') with casting "
        "rule 'same_kind'");
  }
  // NumPy scales by the Python float 10^|decimals| (a weak scalar: the scaling happens in x's
  // dtype), rounds, and scales back.
  double f = 1.0;
  for (int64_t i = 0; i < (decimals < 0 ? -decimals : decimals) && std::isfinite(f); ++i) f *= 10;
  const ArrayOrScalar scale(f);
  const OpKind up = decimals >= 0 ? OpKind::Multiply : OpKind::Divide;
  const OpKind down = decimals >= 0 ? OpKind::Divide : OpKind::Multiply;
  const ArrayOrScalar scaled(elementwise(up, {&in, &scale}));
  const ArrayOrScalar rounded(elementwise(OpKind::Rint, {&scaled}));
  const Array out = elementwise(down, {&rounded, &scale});
  return is_integer(dt) ? cast_to(out, dt) : out;
}

Array where(const ArrayOrScalar& cond, const ArrayOrScalar& x, const ArrayOrScalar& y) {
  const DType dtype = result_type_of({&x, &y});
  return apply(OpKind::Where, dtype, {DType::Bool, dtype, dtype}, {&cond, &x, &y});
}

DType result_type(const std::vector<ArrayOrScalar>& operands) {
  std::vector<const ArrayOrScalar*> ptrs;
  for (const ArrayOrScalar& o : operands) ptrs.push_back(&o);
  return result_type_of(OperandSpan(ptrs));
}

}  // namespace accel
