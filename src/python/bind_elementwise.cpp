// Module-level functions of accelpy._core. The elementwise functions are generated from
// elementwise_ops.def; the rest map one to one onto accel/ops.hpp.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <string>

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "accel/eval_stats.hpp"
#include "accel/kernels/platform.h"
#include "src/core/eval.hpp"
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
  std::optional<Device> device;
  if (nb::isinstance<Array>(x1)) device = nb::cast<Array>(x1).device();
  if (!device && x2.is_valid() && nb::isinstance<Array>(x2)) device = nb::cast<Array>(x2).device();
  const ArrayOrScalar a = operand(x1, device);
  if (!x2.is_valid()) return elementwise(op, {&a});
  const ArrayOrScalar b = operand(x2, device);
  return elementwise(op, {&a, &b});
}

nb::object finish(Array result, nb::handle out, const char* casting) {
  if (!out.is_valid() || out.is_none()) return nb::cast(std::move(result));
  nb::handle target = out;
  if (PyTuple_Check(out.ptr())) {
    if (PyTuple_GET_SIZE(out.ptr()) != 1)
      throw ValueError("out= must be an array or a 1-tuple holding one");
    target = PyTuple_GET_ITEM(out.ptr(), 0);
  }
  if (!nb::isinstance<Array>(target)) throw TypeError("out= must be an accelpy.ndarray");
  const Array dst = nb::cast<Array>(target);
  if (!can_cast(result.dtype(), dst.dtype(), casting)) {
    throw TypeError("Cannot cast output from dtype('" + std::string(dtype_name(result.dtype())) +
                    "') to dtype('" + std::string(dtype_name(dst.dtype())) +
                    "') with casting rule '" + casting + "'");
  }
  if (dst.shape() != result.shape()) {
    throw ValueError("non-broadcastable output operand with shape " + shape_str(dst.shape()) +
                     " doesn't match the broadcast shape " + shape_str(result.shape()));
  }
  assign(dst, std::move(result));  // moved: computed straight into out
  return nb::borrow(target);
}

namespace {

// numpy.clip ignores a Python int bound at or beyond an integer array's range on its own side,
// however large (even beyond int64, which no Scalar holds); the core handles the rest.
bool ignored_bound(nb::handle bound, DType dt, bool low) {
  if (!PyLong_CheckExact(bound.ptr()) || !is_integer(dt)) return false;
  const nb::object limit = dispatch_dtype(dt, [&](auto tag) -> nb::object {
    using T = typename decltype(tag)::type;
    if constexpr (is_unsigned_int_v<T>) {
      return nb::steal(PyLong_FromUnsignedLongLong(low ? 0 : numeric_limits<T>::max()));
    } else if constexpr (is_signed_int_v<T>) {
      return nb::steal(
          PyLong_FromLongLong(low ? numeric_limits<T>::lowest() : numeric_limits<T>::max()));
    } else {
      return nb::none();
    }
  });
  const int r = PyObject_RichCompareBool(bound.ptr(), limit.ptr(), low ? Py_LE : Py_GE);
  if (r < 0) throw nb::python_error();
  return r == 1;
}

}  // namespace

nb::object clip_values(nb::handle x, nb::handle min, nb::handle max, nb::handle out) {
  std::optional<Device> device;
  for (nb::handle h : {x, min, max}) {
    if (!device && nb::isinstance<Array>(h)) device = nb::cast<Array>(h).device();
  }
  const Array arr = to_array(x, device);
  const ArrayOrScalar a(arr);
  std::optional<ArrayOrScalar> lo, hi;
  if (!min.is_none() && !ignored_bound(min, arr.dtype(), true)) lo = operand(min, device);
  if (!max.is_none() && !ignored_bound(max, arr.dtype(), false)) hi = operand(max, device);
  return finish(clip(a, lo, hi), out);
}

nb::object round_values(nb::handle x, int64_t decimals, nb::handle out) {
  return finish(round(to_array(x), decimals), out);
}

namespace {

// Module-level reductions take any array-like, as NumPy's functions do; the methods share
// the same implementations.
template <class... Rest>
auto on_array_like(nb::object (*fn)(const Array&, Rest...)) {
  return [fn](nb::handle a, Rest... rest) { return fn(to_array(a), rest...); };
}

// An axis argument that may not be None (moveaxis, expand_dims).
std::vector<int64_t> given_axes(nb::handle obj, const char* what) {
  if (obj.is_none())
    throw TypeError(std::string(what) + " must be an integer or a tuple of integers, not None");
  return *to_axes(obj);
}

std::vector<Array> array_list(nb::handle seq) {
  std::vector<Array> out;
  std::optional<Device> device;
  for (nb::handle h : seq) {
    if (nb::isinstance<Array>(h)) {
      device = nb::cast<Array>(h).device();
      break;
    }
  }
  for (nb::handle h : seq) out.push_back(to_array(h, device));
  return out;
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

void bind_ops(nb::module_& m) {
  // Elementwise functions, one per row of the op table.
  for (const auto& [op, rule] : elementwise_rules()) {
    const OpKind kind = op;
    const std::string name = python_name(rule);
    if (rule.arity == 1) {
      m.def(
          name.c_str(),
          [kind](nb::handle x, nb::handle out) { return finish(apply_elementwise(kind, x), out); },
          "x"_a.none(), nb::kw_only(), "out"_a = nb::none(), elementwise_doc(rule).c_str());
    } else {
      m.def(
          name.c_str(),
          [kind](nb::handle x1, nb::handle x2, nb::handle out) {
            return finish(apply_elementwise(kind, x1, x2), out);
          },
          "x1"_a.none(), "x2"_a.none(), nb::kw_only(), "out"_a = nb::none(),
          elementwise_doc(rule).c_str());
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
        "beyond an integer array's range on their side are ignored.");
  m.def("round", &round_values, "x"_a, "decimals"_a = 0, nb::kw_only(), "out"_a = nb::none(),
        "round(x, /, decimals=0, *, out=None)\n\nRounds half to even to the given number of "
        "decimals (numpy.round); complex numbers round each part.");
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
      "Elements of x where condition is true, else of y (numpy.where).");

  // Reductions.
  m.def("sum", on_array_like(&reduce_sum), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "keepdims"_a = false, "initial"_a = nb::none(),
        "where"_a = nb::bool_(true), "Sum of elements over the given axes (numpy.sum).");
  m.def("prod", on_array_like(&reduce_prod), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "keepdims"_a = false, "initial"_a = nb::none(),
        "where"_a = nb::bool_(true), "Product of elements over the given axes (numpy.prod).");
  m.def("mean", on_array_like(&reduce_mean), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "keepdims"_a = false, nb::kw_only(), "where"_a = nb::bool_(true),
        "Arithmetic mean over the given axes (numpy.mean).");
  m.def("var", on_array_like(&reduce_var), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "ddof"_a = 0.0, "keepdims"_a = false, nb::kw_only(),
        "correction"_a = nb::none(), "Variance, two-pass as NumPy computes it (numpy.var).");
  m.def("std", on_array_like(&reduce_std), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "ddof"_a = 0.0, "keepdims"_a = false, nb::kw_only(),
        "correction"_a = nb::none(), "Standard deviation (numpy.std).");
  m.def("max", on_array_like(&reduce_max), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, "initial"_a = nb::none(), "where"_a = nb::bool_(true),
        "Maximum over the given axes; NaN propagates (numpy.max).");
  m.def("min", on_array_like(&reduce_min), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, "initial"_a = nb::none(), "where"_a = nb::bool_(true),
        "Minimum over the given axes; NaN propagates (numpy.min).");
  m.def("any", on_array_like(&reduce_any), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, nb::kw_only(), "where"_a = nb::bool_(true),
        "Whether any element is true (numpy.any).");
  m.def("all", on_array_like(&reduce_all), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, nb::kw_only(), "where"_a = nb::bool_(true),
        "Whether all elements are true (numpy.all).");
  m.def("argmax", on_array_like(&reduce_argmax), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, "Index of the first maximum (numpy.argmax).");
  m.def("argmin", on_array_like(&reduce_argmin), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, "Index of the first minimum (numpy.argmin).");

  // Manipulation. Like NumPy's functions, these take any array-like.
  m.def(
      "reshape",
      [](nb::handle a, nb::handle shape) { return reshape(to_array(a), to_shape(shape)); }, "a"_a,
      "shape"_a, "A view with a new shape when the layout allows, else a copy (numpy.reshape).");
  m.def(
      "ravel", [](nb::handle a) { return ravel(to_array(a)); }, "a"_a,
      "The elements as a 1-D array: a view of a C-contiguous array, else a copy (numpy.ravel).");
  m.def(
      "transpose",
      [](nb::handle a, nb::handle axes) { return transpose(to_array(a), to_axes(axes)); }, "a"_a,
      "axes"_a = nb::none(), "Permutes the axes; reverses them by default (numpy.transpose).");
  m.def(
      "swapaxes",
      [](nb::handle a, int64_t axis1, int64_t axis2) {
        return swapaxes(to_array(a), axis1, axis2);
      },
      "a"_a, "axis1"_a, "axis2"_a, "Interchanges two axes (numpy.swapaxes).");
  m.def(
      "moveaxis",
      [](nb::handle a, nb::handle src, nb::handle dst) {
        return moveaxis(to_array(a), given_axes(src, "source"), given_axes(dst, "destination"));
      },
      "a"_a, "source"_a, "destination"_a, "Moves axes to new positions (numpy.moveaxis).");
  m.def(
      "squeeze", [](nb::handle a, nb::handle axis) { return squeeze(to_array(a), to_axes(axis)); },
      "a"_a, "axis"_a = nb::none(), "Removes axes of length one (numpy.squeeze).");
  m.def(
      "expand_dims",
      [](nb::handle a, nb::handle axis) {
        return expand_dims(to_array(a), given_axes(axis, "axis"));
      },
      "a"_a, "axis"_a, "Inserts axes of length one (numpy.expand_dims).");
  m.def(
      "broadcast_to",
      [](nb::handle a, nb::handle shape) { return broadcast_to(to_array(a), to_shape(shape)); },
      "array"_a, "shape"_a, "A read-only view broadcast to a shape (numpy.broadcast_to).");
  m.def(
      "broadcast_arrays",
      [](nb::args arrays) {
        nb::list out;
        for (const Array& a : broadcast_arrays(array_list(arrays))) out.append(nb::cast(a));
        return nb::tuple(out);
      },
      "Broadcasts arrays against each other; a tuple of views (numpy.broadcast_arrays).");
  m.def(
      "concatenate",
      [](nb::handle arrays, nb::handle axis) {
        std::optional<int64_t> ax;
        if (!axis.is_none()) ax = (*to_axes(axis))[0];
        return concatenate(array_list(arrays), ax);
      },
      "arrays"_a, "axis"_a.none() = 0,
      "Joins arrays along an existing axis; axis=None joins them flattened (numpy.concatenate).");
  m.def(
      "stack", [](nb::handle arrays, int64_t axis) { return stack(array_list(arrays), axis); },
      "arrays"_a, "axis"_a = 0, "Joins arrays along a new axis (numpy.stack).");
  m.def(
      "copy", [](nb::handle a) { return copy(to_array(a)); }, "a"_a,
      "A copy of the array, in new memory (numpy.copy).");
  m.def(
      "astype",
      [](nb::handle x, nb::handle dtype, bool copy) {
        return astype(to_array(x), to_dtype(dtype), copy);
      },
      "x"_a, "dtype"_a, nb::kw_only(), "copy"_a = true,
      "x converted to dtype; with copy=False, x itself when it has that dtype (numpy.astype).");
  m.def(
      "real", [](nb::handle x) { return real(to_array(x)); }, "x"_a,
      "The real part; a view for complex input (numpy.real).");
  m.def(
      "imag", [](nb::handle x) { return imag(to_array(x)); }, "x"_a,
      "The imaginary part; a view for complex input (numpy.imag).");

  // Creation.
  m.def(
      "empty",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return empty(to_shape(shape), to_dtype_opt(dtype).value_or(kDefaultFloat),
                     to_device(device));
      },
      "shape"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array without initializing its elements (numpy.empty).");
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return zeros(to_shape(shape), to_dtype_opt(dtype).value_or(kDefaultFloat),
                     to_device(device));
      },
      "shape"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array of zeros (numpy.zeros).");
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return ones(to_shape(shape), to_dtype_opt(dtype).value_or(kDefaultFloat),
                    to_device(device));
      },
      "shape"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array of ones (numpy.ones).");
  m.def(
      "full",
      [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle device) {
        const std::optional<DType> dt = to_dtype_opt(dtype);
        std::optional<Scalar> v = to_scalar_for(fill_value, dt);
        if (!v) throw TypeError("full: fill_value must be a scalar");
        return full(to_shape(shape), *v, dt, to_device(device));
      },
      "shape"_a, "fill_value"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "A new array filled with fill_value (numpy.full).");
  m.def(
      "arange",
      [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
        auto scalar = [](nb::handle h, const char* what) {
          std::optional<Scalar> s = to_scalar(h);
          if (!s) throw TypeError(std::string("arange: ") + what + " must be a real number");
          return *s;
        };
        Scalar lo = Scalar::weak_int(0), hi = scalar(start, "start");
        if (!stop.is_none()) {
          lo = hi;
          hi = scalar(stop, "stop");
        }
        const Scalar st = step.is_none() ? Scalar::weak_int(1) : scalar(step, "step");
        return arange(lo, hi, st, to_dtype_opt(dtype), to_device(device));
      },
      "start"_a, "stop"_a = nb::none(), "step"_a = nb::none(), "dtype"_a = nb::none(),
      nb::kw_only(), "device"_a = nb::none(),
      "Evenly spaced values in [start, stop) (numpy.arange).");
  m.def(
      "linspace",
      [](nb::handle start, nb::handle stop, int64_t num, bool endpoint, nb::handle dtype,
         nb::handle device) {
        std::optional<Scalar> a = to_scalar(start), b = to_scalar(stop);
        if (!a || !b) throw TypeError("linspace: start and stop must be numbers");
        return linspace(*a, *b, num, endpoint, to_dtype_opt(dtype), to_device(device));
      },
      "start"_a, "stop"_a, "num"_a = 50, "endpoint"_a = true, "dtype"_a = nb::none(), nb::kw_only(),
      "device"_a = nb::none(), "num evenly spaced samples over [start, stop] (numpy.linspace).");
  m.def(
      "eye",
      [](int64_t n, std::optional<int64_t> m_, int64_t k, nb::handle dtype, nb::handle device) {
        return eye(n, m_, k, to_dtype_opt(dtype).value_or(kDefaultFloat), to_device(device));
      },
      "N"_a, "M"_a = nb::none(), "k"_a = 0, "dtype"_a = nb::none(), nb::kw_only(),
      "device"_a = nb::none(), "A 2-D array with ones on the k-th diagonal (numpy.eye).");

  // Conversions and evaluation.
  m.def(
      "_from_numpy",
      [](nb::handle arr, nb::handle dtype, nb::handle device, std::optional<bool> copy) {
        return from_numpy(arr, to_dtype_opt(dtype), to_device_opt(device), copy);
      },
      "array"_a, "dtype"_a = nb::none(), "device"_a = nb::none(), "copy"_a = nb::none());
  m.def(
      "asnumpy", [](nb::handle a) { return host_copy(to_array(a)); }, "a"_a,
      "A NumPy copy of the array's data (evaluates pending work).");
  // A one-array overload first: no argument tuple on the common path.
  m.def(
      "eval", [](const Array& a) { a.eval(); }, "a"_a,
      "Evaluates the array now, and everything it depends on.");
  m.def(
      "eval",
      [](nb::args arrays) {
        std::vector<Array> list;
        for (nb::handle h : arrays) list.push_back(nb::cast<Array>(h));
        eval(list);
      },
      "Evaluates the given arrays now, together, and everything they depend on.");
  m.def("_num_threads", &cpu_num_threads, "Threads the CPU backend uses.");
  m.def("_set_num_threads", &set_cpu_num_threads, "n"_a, "Sets the threads the CPU backend uses.");
  m.def("_set_dtypes", &set_dtype_objects, "dtypes"_a, "loader"_a = nb::none());
  m.def("_set_asarray", &set_asarray);
  m.def("_set_fusion", &set_fusion_enabled);
  m.def("_fusion_enabled", &fusion_enabled);
  m.def(
      "_eval_stats",
      [] {
        const EvalStats s = eval_stats();
        nb::dict d;
        d["groups_run"] = s.groups_run;
        d["nodes_run"] = s.nodes_run;
        d["outputs_written"] = s.outputs_written;
        return d;
      },
      "The evaluator's counters since the last reset: groups (kernels) run, nodes computed, "
      "results written to memory.");
  m.def("_reset_eval_stats", &reset_eval_stats, "Sets the evaluator's counters to zero.");
  m.def(
      "result_type",
      [](nb::args args) {
        std::vector<ArrayOrScalar> ops;
        for (nb::handle h : args) {
          if (nb::isinstance<Array>(h)) {
            ops.emplace_back(nb::cast<Array>(h));
          } else if (std::optional<Scalar> s = to_scalar(h)) {
            ops.emplace_back(*s);
          } else {
            // A dtype: promotes like an array of that dtype.
            ops.emplace_back(empty({0}, to_dtype(h), Device::cpu()));
          }
        }
        if (ops.empty()) throw ValueError("at least one array or dtype is required");
        return dtype_object(result_type(ops));
      },
      "The dtype NumPy's promotion rules give these arrays, dtypes and scalars.");
  m.def(
      "can_cast",
      [](nb::handle from, nb::handle to, const std::string& casting) {
        const DType f =
            nb::isinstance<Array>(from) ? nb::cast<Array>(from).dtype() : to_dtype(from);
        return can_cast(f, to_dtype(to), casting);
      },
      "from_"_a, "to"_a, "casting"_a = "safe", "Whether a cast is allowed under a casting rule.");
  m.def(
      "promote_types",
      [](nb::handle a, nb::handle b) {
        return dtype_object(promote_types(to_dtype(a), to_dtype(b)));
      },
      "type1"_a, "type2"_a, "The smallest dtype both cast to safely.");
}

}  // namespace accel::python
