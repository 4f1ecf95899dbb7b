// The elementwise functions of accelpy._core (NumPy's mathematical functions and ufuncs), one
// per row of elementwise_ops.def, with clip, round, where, real and imag.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <string>

#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/type_rules.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

std::optional<OpKind> elementwise_op(const char* name) {
  for (const auto& [op, rule] : elementwise_rules()) {
    if (std::strcmp(rule.name, name) == 0) return op;
  }
  return std::nullopt;
}

namespace {

ArrayOrScalar operand(nb::handle obj, std::optional<Device> device) {
  std::optional<ArrayOrScalar> o = to_operand(obj, device);
  if (!o) return ArrayOrScalar(to_array(obj, device));
  return *o;
}

// The row's name in Python: hidden parts of a NumPy function get a leading underscore.
std::string python_name(const ElementwiseRule& rule) {
  return (rule.flags & kHiddenInPython ? "_" : "") + std::string(rule.name);
}

}  // namespace

Array apply_elementwise(OpKind op, nb::handle x1, nb::handle x2) {
  // Array-likes go to the device of the first array operand.
  const Array* a1 = as_array(x1);
  const Array* a2 = x2.is_valid() ? as_array(x2) : nullptr;
  std::optional<Device> device;
  if (a1 || a2) device = (a1 ? a1 : a2)->device();
  const ArrayOrScalar a = a1 ? ArrayOrScalar(*a1) : operand(x1, device);
  if (!x2.is_valid()) return elementwise(op, {&a});
  const ArrayOrScalar b = a2 ? ArrayOrScalar(*a2) : operand(x2, device);
  return elementwise(op, {&a, &b});
}

namespace {
// The array `out` names (itself or a 1-tuple holding it), checked against `result` as NumPy
// checks an output operand.
nb::handle checked_out(const Array& result, nb::handle out, const char* casting) {
  nb::handle target = out;
  if (PyTuple_Check(out.ptr())) {
    if (PyTuple_GET_SIZE(out.ptr()) != 1)
      throw ValueError("out= must be an array or a 1-tuple holding one");
    target = PyTuple_GET_ITEM(out.ptr(), 0);
  }
  if (!nb::isinstance<Array>(target)) throw TypeError("out= must be an accelpy.ndarray");
  const Array& dst = nb::cast<const Array&>(target);
  if (!can_cast(result.dtype(), dst.dtype(), casting)) {
    throw TypeError("Cannot cast output from dtype('" + std::string(dtype_name(result.dtype())) +
                    "') to dtype('" + std::string(dtype_name(dst.dtype())) +
                    "') with casting rule '" + casting + "'");
  }
  if (dst.shape() != result.shape()) {
    throw ValueError("non-broadcastable output operand with shape " + shape_str(dst.shape()) +
                     " doesn't match the broadcast shape " + shape_str(result.shape()));
  }
  return target;
}
}  // namespace

nb::object finish(Array result, nb::handle out, const char* casting) {
  if (!out.is_valid() || out.is_none()) return nb::cast(std::move(result));
  const nb::handle target = checked_out(result, out, casting);
  assign(nb::cast<const Array&>(target), std::move(result));  // moved: computed straight into out
  return nb::borrow(target);
}

nb::object finish_where(Array result, nb::handle out, const Array& mask) {
  const nb::handle target = checked_out(result, out, "same_kind");
  const Array dst = nb::cast<Array>(target);
  if (result.dtype() != dst.dtype()) result = astype(result, dst.dtype());
  Array kept = where(mask, std::move(result), dst);
  if (kept.shape() != dst.shape()) throw ValueError("where= broadcasts beyond out");
  assign(dst, std::move(kept));
  return nb::borrow(target);
}

nb::object clip_values(nb::handle x, nb::handle min, nb::handle max, nb::handle out) {
  std::optional<Device> device;
  for (nb::handle h : {x, min, max}) {
    if (!device && nb::isinstance<Array>(h)) device = nb::cast<Array>(h).device();
  }
  // Python ints of any size become operands (past 64 bits, weak_huge_int): the core decides
  // which bounds an integer array ignores.
  const ArrayOrScalar a(to_array(x, device));
  std::optional<ArrayOrScalar> lo, hi;
  if (!min.is_none()) lo = operand(min, device);
  if (!max.is_none()) hi = operand(max, device);
  return finish(clip(a, lo, hi), out);
}

nb::object round_values(nb::handle x, int64_t decimals, nb::handle out) {
  return finish(round(to_array(x), decimals), out);
}

namespace {

// The stub signature of a row: positional operands, keyword-only out.
std::string elementwise_sig(const ElementwiseRule& rule) {
  return "def " + python_name(rule) +
         (rule.arity == 1 ? "(x: ArrayLike, /" : "(x1: ArrayLike, x2: ArrayLike, /") +
         ", *, out: ndarray | None = None) -> ndarray";
}

std::string elementwise_doc(const ElementwiseRule& rule) {
  const std::string name = rule.name;
  const std::string head = python_name(rule) + (rule.arity == 1 ? "(x" : "(x1, x2") +
                           ", /, *, out=None)\n\nElementwise " + name;
  if (rule.flags & kHiddenInPython) {
    return head +
           ": one result of a NumPy function that returns several, assembled in the package.";
  }
  return head + " with NumPy's semantics and type promotion (see numpy." + name + ").";
}

}  // namespace

void bind_elementwise(nb::module_& m) {
  // Elementwise functions, one per row of the op table.
  for (const auto& [op, rule] : elementwise_rules()) {
    const OpKind kind = op;
    const std::string name = python_name(rule);
    if (rule.arity == 1) {
      m.def(
          name.c_str(),
          [kind](nb::handle x, nb::handle out) { return finish(apply_elementwise(kind, x), out); },
          "x"_a.none(), nb::kw_only(), "out"_a = nb::none(), elementwise_doc(rule).c_str(),
          nb::sig(elementwise_sig(rule).c_str()));
    } else {
      m.def(
          name.c_str(),
          [kind](nb::handle x1, nb::handle x2, nb::handle out) {
            return finish(apply_elementwise(kind, x1, x2), out);
          },
          "x1"_a.none(), "x2"_a.none(), nb::kw_only(), "out"_a = nb::none(),
          elementwise_doc(rule).c_str(), nb::sig(elementwise_sig(rule).c_str()));
    }
  }
  m.def(
      "_elementwise_ops",
      [] {
        nb::list out;
        for (const auto& [op, rule] : elementwise_rules()) {
          nb::list dtypes;
          for (int i = 0; i < kNumDTypes; ++i) {
            if (contains(rule.inputs, DType(i))) dtypes.append(std::string(dtype_name(DType(i))));
          }
          const char* result = rule.result == ResultRule::Same   ? "same"
                               : rule.result == ResultRule::Bool ? "bool"
                               : rule.result == ResultRule::Real ? "real"
                                                                 : "int32";
          out.append(nb::make_tuple(python_name(rule), rule.arity, dtypes, result));
        }
        return out;
      },
      "The elementwise op table: (name, arity, supported dtypes, result rule) per row.");

  m.def("clip", &clip_values, "x"_a, "min"_a = nb::none(), "max"_a = nb::none(), nb::kw_only(),
        "out"_a = nb::none(),
        "clip(x, /, min=None, max=None, *, out=None)\n\nLimits the values of x to [min, max] "
        "(numpy.clip, NumPy 2): either bound may be None; NaN bounds propagate; Python ints "
        "beyond an integer array's range on their side are ignored.",
        nb::sig("def clip(x: ArrayLike, min: ArrayLike | None = None, max: ArrayLike | None = "
                "None, *, out: ndarray | None = None) -> ndarray"));
  m.def(
      "round", &round_values, "x"_a, "decimals"_a = 0, nb::kw_only(), "out"_a = nb::none(),
      "round(x, /, decimals=0, *, out=None)\n\nRounds half to even to the given number of "
      "decimals (numpy.round); complex numbers round each part.",
      nb::sig(
          "def round(x: ArrayLike, decimals: int = 0, *, out: ndarray | None = None) -> ndarray"));
  m.def(
      "where",
      [](nb::handle cond, nb::handle x, nb::handle y) {
        std::optional<Device> device;
        for (nb::handle h : {cond, x, y}) {
          if (!device && nb::isinstance<Array>(h)) device = nb::cast<Array>(h).device();
        }
        const ArrayOrScalar c = operand(cond, device), a = operand(x, device),
                            b = operand(y, device);
        return where(c, a, b);
      },
      "condition"_a, "x"_a, "y"_a,
      "Elements of x where condition is true, else of y (numpy.where).",
      nb::sig("def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike) -> ndarray"));

  m.def(
      "real", [](nb::handle x) { return real(to_array(x)); }, "x"_a,
      "The real part; a view for complex input (numpy.real).",
      nb::sig("def real(x: ArrayLike) -> ndarray"));
  m.def(
      "imag", [](nb::handle x) { return imag(to_array(x)); }, "x"_a,
      "The imaginary part; a view for complex input (numpy.imag).",
      nb::sig("def imag(x: ArrayLike) -> ndarray"));
}

}  // namespace accel::python
