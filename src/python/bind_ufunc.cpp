// accelpy.ufunc: NumPy's ufunc object (numpy.ufunc) as a C type whose calls go through
// vectorcall. A plain call (nin positional operands, no keywords; or with one out array,
// positional or `out=`) of an op-table row goes straight to the core's elementwise op (no Python
// frame, no argument tuple, no nanobind argument parsing), so `ap.add(x, y)` costs no more than
// calling the bound function did; other ufuncs' plain calls go to their function (`fast`). So
// does a call of an op-table row with `out=` and a bool `where=` array (where it is False, out
// keeps its values: a where() of the result and out, written into out). Every other call
// (keywords, positional out) and the methods (reduce, accumulate, reduceat, outer, at) go to one
// Python implementation of NumPy's conventions (python/accelpy/_ufunc.py), registered with
// _set_ufunc_impl. The attributes NumPy's ufuncs have (__name__, __doc__, nin, nout, types,
// identity, ...) live in the instance's __dict__, set by the Python side when it makes the ufunc.
#include <Python.h>
#include <structmember.h>

#include <array>
#include <new>
#include <optional>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

struct UfuncObject {
  PyObject_HEAD vectorcallfunc vectorcall;
  PyObject* fast;   // the op's function, called with the nin operands alone
  PyObject* dict;   // __name__, __doc__, nin, nout, types, ...
  PyObject* numpy;  // NumPy's ufunc of the row, for calls on numbers alone (null: none)
  Py_ssize_t nin;
  std::optional<OpKind> op;  // the op-table row `fast` applies, if it is one
};

// The Python implementation: [0] the general call, then the methods in kMethodNames' order.
constexpr std::array<const char*, 6> kImplNames = {"call",     "reduce", "accumulate",
                                                   "reduceat", "outer",  "at"};
std::array<PyObject*, kImplNames.size()> g_impl{};

// impl(self, *args, **kwargs) from a vectorcall's arguments.
PyObject* call_impl(size_t which, PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames) {
  PyObject* fn = g_impl[which];
  if (fn == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "accelpy.ufunc: the Python implementation is missing");
    return nullptr;
  }
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  constexpr Py_ssize_t kOnStack = 16;
  PyObject* stack[kOnStack];
  PyObject** buf = stack;
  if (nargs + nkw + 1 > kOnStack) {
    buf = static_cast<PyObject**>(PyMem_Malloc(sizeof(PyObject*) * (nargs + nkw + 1)));
    if (buf == nullptr) return PyErr_NoMemory();
  }
  buf[0] = self;
  for (Py_ssize_t i = 0; i < nargs + nkw; ++i) buf[i + 1] = args[i];
  PyObject* result = PyObject_Vectorcall(fn, buf, nargs + 1, kwnames);
  if (buf != stack) PyMem_Free(buf);
  return result;
}

// The output array of a call that is plain but for one output: positional (nin + 1 arguments)
// or `out=` alone; an invalid handle otherwise.
nb::handle single_out(const UfuncObject* u, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) {
  if (kwnames == nullptr) return nargs == u->nin + 1 ? nb::handle(args[u->nin]) : nb::handle();
  if (nargs != u->nin || PyTuple_GET_SIZE(kwnames) != 1) return {};
  if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "out") != 0) return {};
  return args[nargs];
}

// The out and where arrays of a call that is plain but for `out=` and `where=` (in either order,
// where= a bool array): the output array, with *mask set; an invalid handle otherwise.
nb::handle out_and_where(const UfuncObject* u, PyObject* const* args, Py_ssize_t nargs,
                         PyObject* kwnames, const Array** mask) {
  if (kwnames == nullptr || nargs != u->nin || PyTuple_GET_SIZE(kwnames) != 2) return {};
  nb::handle out, where;
  for (Py_ssize_t i = 0; i < 2; ++i) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, i);
    if (PyUnicode_CompareWithASCIIString(name, "out") == 0) {
      out = args[nargs + i];
    } else if (PyUnicode_CompareWithASCIIString(name, "where") == 0) {
      where = args[nargs + i];
    }
  }
  if (!out.is_valid() || !where.is_valid() || !nb::isinstance<Array>(out)) return {};
  *mask = as_array(where);
  if (*mask == nullptr || (*mask)->dtype() != DType::Bool) return {};
  return out;
}

// Whether every operand is a number (Python's bool, float, complex, int within int64 or a
// NumPy scalar of accelpy's dtypes): no array among them.
bool only_numbers(PyObject* const* args, Py_ssize_t n) {
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* x = args[i];
    if (PyLong_CheckExact(x)) {
      int overflow = 0;
      PyLong_AsLongLongAndOverflow(x, &overflow);
      if (overflow) return false;  // NumPy would compute on Python objects
    } else if (!PyFloat_CheckExact(x) && !PyBool_Check(x) && !PyComplex_CheckExact(x) &&
               !numpy_builtin_scalar(x)) {
      return false;
    }
  }
  return true;
}

// A plain call of numbers alone is, on the CPU, NumPy's ufunc's call, so it gives NumPy's
// scalar as NumPy does (np.sqrt(np.float64(2)) is np.float64), with NumPy's types, values,
// warnings and errors under the error state both libraries share: a loop's scalar work after an
// element read (`np.sqrt(dx**2 + dy**2)`) stays in NumPy's scalars instead of becoming 0-d
// arrays, whose every later operation costs several times as much. On a GPU the 0-d device
// array stays (a host scalar there would be a synchronization hidden in an expression).
PyObject* ufunc_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                           PyObject* kwnames) {
  auto* u = reinterpret_cast<UfuncObject*>(self);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const bool plain = kwnames == nullptr && nargs == u->nin;
  if (u->op) {
    const nb::handle x2 = u->nin == 2 ? nb::handle(args[1]) : nb::handle();
    // Errors are rare: on one, the call is made again by `fast` (plain calls) or by the Python
    // implementation (with out), which raise NumPy's exception type and message, or handle
    // what finish() does not (an out larger than the operands' broadcast shape).
    if (plain && u->numpy != nullptr && only_numbers(args, nargs) && default_device().is_cpu()) {
      return PyObject_Vectorcall(u->numpy, args, nargsf, nullptr);
    }
    if (plain) {
      try {
        return nb::cast(apply_elementwise(*u->op, args[0], x2)).release().ptr();
      } catch (...) {
      }
    } else if (const nb::handle out = single_out(u, args, nargs, kwnames);
               out.is_valid() && nb::isinstance<Array>(out)) {
      try {
        return finish(apply_elementwise(*u->op, args[0], x2), out).release().ptr();
      } catch (...) {
      }
    } else {
      const Array* mask = nullptr;
      if (const nb::handle target = out_and_where(u, args, nargs, kwnames, &mask);
          target.is_valid()) {
        try {
          return finish_where(apply_elementwise(*u->op, args[0], x2), target, *mask)
              .release()
              .ptr();
        } catch (...) {
        }
      }
    }
  }
  if (plain) return PyObject_Vectorcall(u->fast, args, nargsf, nullptr);
  return call_impl(0, self, args, nargs, kwnames);
}

// ndarray.__array_ufunc__'s common case in C: NumPy's scalar operators do not defer to an
// operand that defines __array_ufunc__ (`np.complex128(z) - x` calls np.subtract, which calls
// x.__array_ufunc__), so a CPU array's element in arithmetic with arrays comes here. A plain
// call of a NumPy ufunc that g_ufunc_table maps to accelpy's, on accelpy arrays and numbers,
// is that ufunc's call; everything else goes to the Python implementation (g_array_ufunc).
PyObject* g_array_ufunc = nullptr;  // the Python method, called as (self, ufunc, method, ...)
PyObject* g_ufunc_table = nullptr;  // {numpy ufunc: accelpy ufunc}, filled by the Python side

PyObject* array_ufunc_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  if (kwnames == nullptr && nargs >= 3 && nargs <= 4 && PyUnicode_Check(args[1]) &&
      PyUnicode_CompareWithASCIIString(args[1], "__call__") == 0) {
    PyObject* target = PyDict_GetItemWithError(g_ufunc_table, args[0]);  // borrowed
    if (target == nullptr && PyErr_Occurred()) return nullptr;
    bool operands = target != nullptr;
    for (Py_ssize_t i = 2; operands && i < nargs; ++i) {
      operands = as_array(args[i]) != nullptr || only_numbers(args + i, 1);
    }
    if (operands) return PyObject_Vectorcall(target, args + 2, size_t(nargs - 2), nullptr);
  }
  constexpr Py_ssize_t kOnStack = 8;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs + nkw + 1 > kOnStack) {
    nb::list all;
    all.append(nb::handle(self));
    for (Py_ssize_t i = 0; i < nargs; ++i) all.append(nb::handle(args[i]));
    nb::dict kw;
    for (Py_ssize_t i = 0; i < nkw; ++i) kw[PyTuple_GET_ITEM(kwnames, i)] = args[nargs + i];
    return PyObject_Call(g_array_ufunc, nb::tuple(all).ptr(), kw.ptr());
  }
  PyObject* buf[kOnStack];
  buf[0] = self;
  for (Py_ssize_t i = 0; i < nargs + nkw; ++i) buf[i + 1] = args[i];
  return PyObject_Vectorcall(g_array_ufunc, buf, size_t(nargs + 1), kwnames);
}

PyMethodDef g_array_ufunc_def = {
    "__array_ufunc__",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&array_ufunc_method)),
    METH_FASTCALL | METH_KEYWORDS,
    "NumPy's ufunc protocol (NEP 13): runs accelpy's ufunc of the same name, or the method "
    "asked for (reduce, accumulate, reduceat, outer, at), with NumPy's keywords."};

template <size_t Which>
PyObject* ufunc_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return call_impl(Which, self, args, nargs, kwnames);
}

#define ACCEL_UFUNC_METHOD(I, DOC)                                                                \
  PyMethodDef {                                                                                   \
    kImplNames[I], reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&ufunc_method<I>)), \
        METH_FASTCALL | METH_KEYWORDS, DOC                                                        \
  }

// Pickled by reference, as NumPy's ufuncs: the name, looked up in the module that made it.
PyObject* ufunc_reduce_for_pickle(PyObject* self, PyObject*) {
  return PyObject_GetAttrString(self, "__name__");
}

PyMethodDef g_methods[] = {
    ACCEL_UFUNC_METHOD(1,
                       "reduce(array, axis=0, dtype=None, out=None, keepdims=False, "
                       "initial=<no value>, where=True)\n\nReduces array's dimension(s) by "
                       "applying the ufunc along them (numpy.ufunc.reduce)."),
    ACCEL_UFUNC_METHOD(2,
                       "accumulate(array, axis=0, dtype=None, out=None)\n\nThe running "
                       "results of the ufunc along an axis (numpy.ufunc.accumulate)."),
    ACCEL_UFUNC_METHOD(3,
                       "reduceat(array, indices, axis=0, dtype=None, out=None)\n\nReduces "
                       "the slices between consecutive indices (numpy.ufunc.reduceat)."),
    ACCEL_UFUNC_METHOD(4,
                       "outer(A, B, /, **kwargs)\n\nThe ufunc of every pair (a, b), a in A "
                       "and b in B: shape A.shape + B.shape (numpy.ufunc.outer)."),
    ACCEL_UFUNC_METHOD(5,
                       "at(a, indices, b=None, /)\n\nIn place, unbuffered: repeated indices "
                       "apply the ufunc once per occurrence (numpy.ufunc.at)."),
    {"__reduce__", &ufunc_reduce_for_pickle, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

#undef ACCEL_UFUNC_METHOD

PyMemberDef g_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(UfuncObject, vectorcall), READONLY, nullptr},
    {"__dictoffset__", T_PYSSIZET, offsetof(UfuncObject, dict), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

int ufunc_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* u = reinterpret_cast<UfuncObject*>(self);
  Py_VISIT(u->fast);
  Py_VISIT(u->dict);
  Py_VISIT(u->numpy);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

int ufunc_clear(PyObject* self) {
  auto* u = reinterpret_cast<UfuncObject*>(self);
  Py_CLEAR(u->fast);
  Py_CLEAR(u->dict);
  Py_CLEAR(u->numpy);
  return 0;
}

void ufunc_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  ufunc_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject* ufunc_repr(PyObject* self) {
  PyObject* name = PyObject_GetAttrString(self, "__name__");
  if (name == nullptr) return nullptr;
  PyObject* r = PyUnicode_FromFormat("<ufunc '%U'>", name);
  Py_DECREF(name);
  return r;
}

PyType_Slot g_slots[] = {
    {Py_tp_doc,
     const_cast<char*>("Functions that operate element by element on whole arrays "
                       "(numpy.ufunc): accelpy's elementwise functions are its instances, made by "
                       "the package (the type cannot be instantiated).")},
    {Py_tp_call, reinterpret_cast<void*>(&PyVectorcall_Call)},
    {Py_tp_methods, g_methods},
    {Py_tp_members, g_members},
    {Py_tp_traverse, reinterpret_cast<void*>(&ufunc_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(&ufunc_clear)},
    {Py_tp_dealloc, reinterpret_cast<void*>(&ufunc_dealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(&ufunc_repr)},
    {0, nullptr},
};

PyType_Spec g_spec = {
    "accelpy._core.ufunc",
    sizeof(UfuncObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
        Py_TPFLAGS_DISALLOW_INSTANTIATION,
    g_slots,
};

PyTypeObject* g_type = nullptr;

}  // namespace

void bind_ufunc(nb::module_& m) {
  g_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&g_spec));
  if (g_type == nullptr) throw nb::python_error();
  m.attr("ufunc") = nb::steal(reinterpret_cast<PyObject*>(g_type));

  m.def(
      "_make_ufunc",
      [](nb::handle fast, Py_ssize_t nin, std::optional<std::string> op, nb::handle numpy) {
        if (!PyCallable_Check(fast.ptr())) throw nb::type_error("fast must be callable");
        auto* u = PyObject_GC_New(UfuncObject, g_type);
        if (u == nullptr) throw nb::python_error();
        u->vectorcall = &ufunc_vectorcall;
        u->fast = nb::borrow(fast).release().ptr();
        u->dict = PyDict_New();
        u->numpy = op && !numpy.is_none() ? nb::borrow(numpy).release().ptr() : nullptr;
        u->nin = nin;
        new (&u->op) std::optional<OpKind>(op ? elementwise_op(op->c_str()) : std::nullopt);
        PyObject_GC_Track(u);
        if (u->dict == nullptr) {
          Py_DECREF(u);
          throw nb::python_error();
        }
        return nb::steal(reinterpret_cast<PyObject*>(u));
      },
      "fast"_a, "nin"_a, "op"_a = nb::none(), "numpy"_a = nb::none(),
      "A new accelpy.ufunc whose plain calls (nin positional operands) apply the op-table row "
      "`op` (when given; `fast` must be its function) or call `fast`; with `op`, calls on "
      "numbers alone on the CPU call `numpy` (NumPy's ufunc of the row) when given; its "
      "attributes are set by the caller.");
  m.def(
      "_array_ufunc_method",
      [](nb::handle fallback, nb::dict table) {
        Py_XSETREF(g_array_ufunc, nb::borrow(fallback).release().ptr());
        Py_XSETREF(g_ufunc_table, nb::borrow(table).release().ptr());
        auto* type = reinterpret_cast<PyTypeObject*>(nb::type<Array>().ptr());
        PyObject* descr = PyDescr_NewMethod(type, &g_array_ufunc_def);
        if (descr == nullptr) throw nb::python_error();
        return nb::steal(descr);
      },
      "fallback"_a, "table"_a,
      "ndarray.__array_ufunc__ (a method descriptor): plain calls of the NumPy ufuncs `table` "
      "maps to accelpy's, on accelpy arrays and numbers, call those; the rest `fallback`.");
  m.def(
      "_set_ufunc_impl",
      [](nb::handle impl) {
        for (size_t i = 0; i < kImplNames.size(); ++i) {
          PyObject* fn = nb::getattr(impl, kImplNames[i]).release().ptr();
          Py_XSETREF(g_impl[i], fn);
        }
      },
      "impl"_a,
      "Registers the Python implementation of the ufunc's general call and methods (an object "
      "with call, reduce, accumulate, reduceat, outer and at, each taking the ufunc first).");
}

}  // namespace accel::python
