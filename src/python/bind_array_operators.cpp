// ndarray's Python operators (+, +=, ==, -x, ...): they dispatch here, in C++, without a Python
// wrapper per call; the operator table follows elementwise_ops.def.
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/type_rules.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

nb::object not_implemented() { return nb::borrow(Py_NotImplemented); }

// Python operators: (dunder, reflected dunder, in-place dunder, table name).
struct BinaryOperator {
  const char *name, *rname, *iname, *op;
};
constexpr BinaryOperator kBinary[] = {
    {"__add__", "__radd__", "__iadd__", "add"},
    {"__sub__", "__rsub__", "__isub__", "subtract"},
    {"__mul__", "__rmul__", "__imul__", "multiply"},
    {"__truediv__", "__rtruediv__", "__itruediv__", "divide"},
    {"__floordiv__", "__rfloordiv__", "__ifloordiv__", "floor_divide"},
    {"__mod__", "__rmod__", "__imod__", "remainder"},
    {"__and__", "__rand__", "__iand__", "bitwise_and"},
    {"__or__", "__ror__", "__ior__", "bitwise_or"},
    {"__xor__", "__rxor__", "__ixor__", "bitwise_xor"},
    {"__lshift__", "__rlshift__", "__ilshift__", "bitwise_left_shift"},
    {"__rshift__", "__rrshift__", "__irshift__", "bitwise_right_shift"},
};
constexpr std::pair<const char*, const char*> kCompare[] = {
    {"__eq__", "equal"},      {"__ne__", "not_equal"}, {"__lt__", "less"},
    {"__le__", "less_equal"}, {"__gt__", "greater"},   {"__ge__", "greater_equal"},
};
constexpr std::pair<const char*, const char*> kUnary[] = {
    {"__neg__", "negative"},
    {"__pos__", "positive"},
    {"__abs__", "abs"},
    {"__invert__", "bitwise_invert"},
};

// The stub signature of a binary operator method.
std::string operator_sig(const char* name, const char* other) {
  return "def " + std::string(name) + "(self, other: " + other + ", /) -> ndarray";
}

nb::object binary(OpKind op, const Array& self, nb::handle other, bool reflected) {
  std::optional<ArrayOrScalar> o = to_operand(other, self.device());
  if (!o) return not_implemented();
  const ArrayOrScalar s(self);
  return nb::cast(reflected ? elementwise(op, {&*o, &s}) : elementwise(op, {&s, &*o}));
}

// a op= b: computes a op b and writes it into a's memory (NumPy's same_kind casting rule).
// NumPy's `**` (not numpy.power) short-cuts three Python exponents: x ** 2 is square(x) for
// every dtype (so bool ** 2 is int8), and for float and complex arrays x ** -1 is reciprocal(x)
// and x ** 0.5 is sqrt(x).
std::optional<OpKind> power_shortcut(const Array& self, nb::handle exponent) {
  if (PyLong_CheckExact(exponent.ptr())) {
    int overflow = 0;
    const long long e = PyLong_AsLongLongAndOverflow(exponent.ptr(), &overflow);
    if (overflow == 0 && e == 2) return elementwise_op("square");
    if (overflow == 0 && e == -1 && is_inexact(self.dtype())) return elementwise_op("reciprocal");
  } else if (PyFloat_CheckExact(exponent.ptr()) && PyFloat_AS_DOUBLE(exponent.ptr()) == 0.5 &&
             is_inexact(self.dtype())) {
    return elementwise_op("sqrt");
  }
  return std::nullopt;
}

nb::object inplace(OpKind op, nb::handle self_obj, nb::handle other) {
  const Array self = nb::cast<Array>(self_obj);
  // A scalar taken out of an array is immutable in NumPy: `t += 1.5` makes a new value (with
  // the promoted dtype) and `a[0] += 1.5` stores it back with setitem's casting. Python falls
  // back to the binary operator when the in-place one declines.
  if (self.impl()->scalar_value) return not_implemented();
  std::optional<ArrayOrScalar> o = to_operand(other, self.device());
  if (!o) return not_implemented();
  const ArrayOrScalar s(self);
  // x **= 2 and the like run a one-operand op. (Not an optional<OpKind>: GCC's -Os build
  // warns that its value may be read uninitialized, a false positive.)
  OpKind unary = op;
  bool shortcut = false;
  if (op == OpKind::Pow) {
    if (const std::optional<OpKind> k = power_shortcut(self, other)) {
      unary = *k;
      shortcut = true;
    }
  }
  // NumPy resolves the loop, and checks casting its output, before it broadcasts the operands.
  const DType result = shortcut ? resolve(unary, {&s}).result : resolve(op, {&s, &*o}).result;
  if (!can_cast(result, self.dtype(), "same_kind")) {
    throw TypeError(std::string("Cannot cast ufunc '") + op_name(op) + "' output from dtype('" +
                    std::string(dtype_name(result)) + "') to dtype('" +
                    std::string(dtype_name(self.dtype())) + "') with casting rule 'same_kind'");
  }
  Array r = shortcut ? elementwise(unary, {&s}) : elementwise(op, {&s, &*o});
  if (r.shape() != self.shape()) {
    throw ValueError("non-broadcastable output operand with shape " + shape_str(self.shape()) +
                     " doesn't match the broadcast shape " + shape_str(r.shape()));
  }
  assign(self, std::move(r));  // moved: the write fuses r's computation instead of storing r
  return nb::borrow(self_obj);
}

// The operators also fill the type's slots directly (nb_add, nb_inplace_add, nb_negative,
// mp_subscript, ...): Python then calls them without looking up `__mul__` or `__getitem__` and
// going through nanobind's dispatch, a large share of a small operation's or a view's host cost
// (docs/subsystems/host-cost.md). The methods stay (for `a.__mul__(b)`, subclasses, the stubs);
// an operation that raises a C++ exception is made again through the method (the slot Python
// made of it), which translates it into NumPy's Python one. A Python error (a floating-point
// error raised after an in-place write, an interrupt) is raised as it is: a write made again
// would apply the operation twice.
PyTypeObject* g_ndarray_type = nullptr;
OpKind g_slot_ops[std::size(kBinary)];
OpKind g_unary_ops[std::size(kUnary)];
binaryfunc g_method_inplace[std::size(kBinary)];
unaryfunc g_method_unary[std::size(kUnary)];
binaryfunc g_method_getitem = nullptr;
objobjargproc g_method_setitem = nullptr;

template <size_t I>
PyObject* binary_slot(PyObject* a, PyObject* b) {
  // Python calls the left operand's slot with (a, b), then, if that declined, the right's with
  // (a, b) too: `self` is whichever of them is an ndarray.
  const bool reflected = !PyObject_TypeCheck(a, g_ndarray_type);
  PyObject* self = reflected ? b : a;
  PyObject* other = reflected ? a : b;
  // (An instance made by __new__ alone holds no Array yet: the method raises nanobind's error.)
  if (nb::inst_ready(self)) {
    try {
      return binary(g_slot_ops[I], *nb::inst_ptr<Array>(self), other, reflected).release().ptr();
    } catch (...) {
    }
  }
  return PyObject_CallMethod(self, reflected ? kBinary[I].rname : kBinary[I].name, "O", other);
}

// The in-place operators: Python calls only the left operand's, which is this type's instance.
template <size_t I>
PyObject* inplace_slot(PyObject* self, PyObject* other) {
  if (nb::inst_ready(self)) {
    try {
      return inplace(g_slot_ops[I], self, other).release().ptr();
    } catch (nb::python_error& e) {
      e.restore();
      return nullptr;
    } catch (...) {
    }
  }
  return g_method_inplace[I](self, other);
}

template <size_t I>
PyObject* unary_slot(PyObject* self) {
  if (nb::inst_ready(self)) {
    try {
      const ArrayOrScalar x(*nb::inst_ptr<Array>(self));
      return nb::cast(elementwise(g_unary_ops[I], {&x})).release().ptr();
    } catch (nb::python_error& e) {
      e.restore();
      return nullptr;
    } catch (...) {
    }
  }
  return g_method_unary[I](self);
}

PyObject* getitem_slot(PyObject* self, PyObject* key) {
  if (nb::inst_ready(self)) {
    try {
      return get_item(self, key).release().ptr();
    } catch (nb::python_error& e) {
      e.restore();
      return nullptr;
    } catch (...) {
    }
  }
  return g_method_getitem(self, key);
}

// value is null for `del a[key]`: the method's slot answers it (no __delitem__: an error).
int setitem_slot(PyObject* self, PyObject* key, PyObject* value) {
  if (value != nullptr && nb::inst_ready(self)) {
    try {
      set_item(*nb::inst_ptr<Array>(self), key, value);
      return 0;
    } catch (nb::python_error& e) {
      e.restore();
      return -1;
    } catch (...) {
    }
  }
  return g_method_setitem(self, key, value);
}

template <size_t... I>
void set_binary_slots(PyTypeObject* type, std::index_sequence<I...>) {
  binaryfunc PyNumberMethods::*const slots[] = {
      &PyNumberMethods::nb_add,          &PyNumberMethods::nb_subtract,
      &PyNumberMethods::nb_multiply,     &PyNumberMethods::nb_true_divide,
      &PyNumberMethods::nb_floor_divide, &PyNumberMethods::nb_remainder,
      &PyNumberMethods::nb_and,          &PyNumberMethods::nb_or,
      &PyNumberMethods::nb_xor,          &PyNumberMethods::nb_lshift,
      &PyNumberMethods::nb_rshift,
  };
  binaryfunc PyNumberMethods::*const inplace_slots[] = {
      &PyNumberMethods::nb_inplace_add,          &PyNumberMethods::nb_inplace_subtract,
      &PyNumberMethods::nb_inplace_multiply,     &PyNumberMethods::nb_inplace_true_divide,
      &PyNumberMethods::nb_inplace_floor_divide, &PyNumberMethods::nb_inplace_remainder,
      &PyNumberMethods::nb_inplace_and,          &PyNumberMethods::nb_inplace_or,
      &PyNumberMethods::nb_inplace_xor,          &PyNumberMethods::nb_inplace_lshift,
      &PyNumberMethods::nb_inplace_rshift,
  };
  static_assert(std::size(slots) == sizeof...(I), "one slot per row of kBinary");
  static_assert(std::size(inplace_slots) == sizeof...(I), "one slot per row of kBinary");
  PyNumberMethods* number = type->tp_as_number;
  ((number->*slots[I] = &binary_slot<I>), ...);
  ((g_method_inplace[I] = number->*inplace_slots[I]), ...);
  ((number->*inplace_slots[I] = &inplace_slot<I>), ...);
}

template <size_t... I>
void set_unary_slots(PyTypeObject* type, std::index_sequence<I...>) {
  unaryfunc PyNumberMethods::*const slots[] = {
      &PyNumberMethods::nb_negative,
      &PyNumberMethods::nb_positive,
      &PyNumberMethods::nb_absolute,
      &PyNumberMethods::nb_invert,
  };
  static_assert(std::size(slots) == sizeof...(I), "one slot per row of kUnary");
  PyNumberMethods* number = type->tp_as_number;
  ((g_method_unary[I] = number->*slots[I]), ...);
  ((number->*slots[I] = &unary_slot<I>), ...);
}

// Set once every method is defined: defining a dunder method later would put Python's slot back.
void set_slots(nb::class_<Array>& cls) {
  for (size_t i = 0; i < std::size(kBinary); ++i) {
    const std::optional<OpKind> op = elementwise_op(kBinary[i].op);
    if (!op) return;
    g_slot_ops[i] = *op;
  }
  for (size_t i = 0; i < std::size(kUnary); ++i) {
    const std::optional<OpKind> op = elementwise_op(kUnary[i].second);
    if (!op) return;
    g_unary_ops[i] = *op;
  }
  g_ndarray_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  set_binary_slots(g_ndarray_type, std::make_index_sequence<std::size(kBinary)>());
  set_unary_slots(g_ndarray_type, std::make_index_sequence<std::size(kUnary)>());
  PyMappingMethods* mapping = g_ndarray_type->tp_as_mapping;
  g_method_getitem = mapping->mp_subscript;
  g_method_setitem = mapping->mp_ass_subscript;
  mapping->mp_subscript = &getitem_slot;
  mapping->mp_ass_subscript = &setitem_slot;
}

}  // namespace

void bind_array_operators(nb::class_<Array>& cls) {
  for (const BinaryOperator& b : kBinary) {
    const std::optional<OpKind> op = elementwise_op(b.op);
    if (!op) continue;
    const OpKind k = *op;
    // Operands may be None: NotImplemented then lets Python raise its usual "unsupported
    // operand type(s)" TypeError instead of nanobind's signature mismatch.
    cls.def(
        b.name, [k](const Array& a, nb::handle o) { return binary(k, a, o, false); },
        nb::arg("other").none(), nb::sig(operator_sig(b.name, "ArrayLike").c_str()));
    cls.def(
        b.rname, [k](const Array& a, nb::handle o) { return binary(k, a, o, true); },
        nb::arg("other").none(), nb::sig(operator_sig(b.rname, "ArrayLike").c_str()));
    cls.def(
        b.iname, [k](nb::handle a, nb::handle o) { return inplace(k, a, o); },
        nb::arg("other").none(), nb::sig(operator_sig(b.iname, "ArrayLike").c_str()));
  }
  if (const std::optional<OpKind> pow = elementwise_op("pow")) {
    const OpKind k = *pow;
    cls.def(
        "__pow__",
        [k](const Array& a, nb::handle o, nb::handle) {
          if (const std::optional<OpKind> shortcut = power_shortcut(a, o)) {
            const ArrayOrScalar x(a);
            return nb::cast(elementwise(*shortcut, {&x}));
          }
          return binary(k, a, o, false);
        },
        "other"_a, "mod"_a = nb::none(),
        nb::sig("def __pow__(self, other: ArrayLike, /) -> ndarray"));
    cls.def(
        "__rpow__", [k](const Array& a, nb::handle o, nb::handle) { return binary(k, a, o, true); },
        "other"_a, "mod"_a = nb::none(),
        nb::sig("def __rpow__(self, other: ArrayLike, /) -> ndarray"));
    cls.def(
        "__ipow__", [k](nb::handle a, nb::handle o) { return inplace(k, a, o); },
        nb::sig("def __ipow__(self, other: ArrayLike, /) -> ndarray"));
  }
  for (const auto& [name, opname] : kCompare) {
    if (const std::optional<OpKind> op = elementwise_op(opname)) {
      const OpKind k = *op;
      // == and != take any object, as object's do (the stubs' one override of a supertype).
      const bool equality =
          std::string_view(name) == "__eq__" || std::string_view(name) == "__ne__";
      cls.def(
          name, [k](const Array& a, nb::handle o) { return binary(k, a, o, false); },
          nb::arg("other").none(),
          nb::sig(operator_sig(name, equality ? "object" : "ArrayLike").c_str()));
    }
  }
  for (const auto& [name, opname] : kUnary) {
    if (const std::optional<OpKind> op = elementwise_op(opname)) {
      const OpKind k = *op;
      cls.def(
          name,
          [k](const Array& a) {
            const ArrayOrScalar x(a);
            return elementwise(k, {&x});
          },
          nb::sig(("def " + std::string(name) + "(self) -> ndarray").c_str()));
    }
  }
  // Every row of the tables has its op (the table's names), so the slots can be set.
  set_slots(cls);
}

}  // namespace accel::python
