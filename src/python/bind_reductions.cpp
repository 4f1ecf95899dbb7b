// Reductions with NumPy's signatures (sum, prod, mean, var, std, max, min, any, all, argmax,
// argmin), shared by the module functions and the methods. NumPy's `where=` and `initial=` are
// composed from lazy ops, so they fuse with the reduction: masked-out elements become the
// reduction's identity (max and min have none: there they become `initial`, which NumPy then
// requires), and `initial` joins every output.
#include <string>

#include "accel/errors.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

namespace {

// NumPy's ufunc reductions (sum, prod, max, min, any, all, argmax, argmin) accept axis=0 or -1
// on a 0-d array, as the whole array; mean, var and std raise AxisError there.
Axes ufunc_axes(const Array& a, nb::handle axis) {
  if (a.ndim() == 0 && PyIndex_Check(axis.ptr()) && !PyBool_Check(axis.ptr())) {
    const Axes axes = to_axes(axis);
    if ((*axes)[0] == 0 || (*axes)[0] == -1) return std::nullopt;
  }
  return to_axes(axis);
}

// where=True (NumPy's default) and None mask nothing.
bool no_mask(nb::handle where) { return where.is_none() || where.ptr() == Py_True; }

// The mask as a boolean array of a's shape; NumPy casts it with casting='safe'.
Array mask_of(const Array& a, nb::handle where) {
  Array w = to_array(where, a.device());
  if (w.dtype() != DType::Bool) {
    throw TypeError("where= must be a boolean mask, got dtype " +
                    std::string(dtype_name(w.dtype())));
  }
  return broadcast_to(w, a.shape());
}

// a with the masked-out elements replaced by `fill`.
Array masked(const Array& a, nb::handle where, const Scalar& fill) {
  if (no_mask(where)) return a;
  return accel::where(mask_of(a, where), a, fill.cast(a.dtype()));
}

Scalar scalar_of(nb::handle value, const char* what) {
  std::optional<Scalar> s = to_scalar(value);
  if (!s) throw TypeError(std::string(what) + "= must be a scalar");
  return *s;
}

// result OP initial in result's dtype (NumPy starts the accumulation from initial, cast).
template <class Op>
Array with_initial(const Array& result, nb::handle initial, Op op) {
  if (initial.is_none()) return result;
  return op(result, scalar_of(initial, "initial").cast(result.dtype()));
}

// max (is_max) or min: the mask needs `initial`, an empty reduction gives `initial`.
nb::object extremum(bool is_max, const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                    nb::handle initial, nb::handle where) {
  const Axes axes = ufunc_axes(a, axis);
  const auto reduce = [&](const Array& x) {
    return is_max ? max(x, axes, keepdims) : min(x, axes, keepdims);
  };
  if (initial.is_none()) {
    if (!no_mask(where)) {
      throw ValueError(std::string("reduction operation '") + (is_max ? "maximum" : "minimum") +
                       "' does not have an identity, so to use a where mask one has to "
                       "specify 'initial'");
    }
    return finish(reduce(a), out, "unsafe");
  }
  const Scalar init = scalar_of(initial, "initial").cast(a.dtype());
  if (a.size() == 0) {
    // The output's shape, from a reduction that is never evaluated.
    return finish(full(sum(a, axes, keepdims).shape(), init, a.dtype(), a.device()), out, "unsafe");
  }
  const Array r = reduce(masked(a, where, init));
  return finish(is_max ? maximum(r, init) : minimum(r, init), out, "unsafe");
}

}  // namespace

nb::object reduce_sum(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                      bool keepdims, nb::handle initial, nb::handle where) {
  const Array r = sum(masked(a, where, Scalar::weak_int(0)), ufunc_axes(a, axis), keepdims,
                      to_dtype_opt(dtype));
  return finish(with_initial(r, initial, [](const Array& x, const Scalar& s) { return add(x, s); }),
                out, "unsafe");
}
nb::object reduce_prod(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                       bool keepdims, nb::handle initial, nb::handle where) {
  const Array r = prod(masked(a, where, Scalar::weak_int(1)), ufunc_axes(a, axis), keepdims,
                       to_dtype_opt(dtype));
  return finish(
      with_initial(r, initial, [](const Array& x, const Scalar& s) { return multiply(x, s); }), out,
      "unsafe");
}
nb::object reduce_mean(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                       bool keepdims, nb::handle where) {
  const Axes axes = to_axes(axis);
  const Array plain = mean(a, axes, keepdims, to_dtype_opt(dtype));
  if (no_mask(where)) return finish(plain, out, "unsafe");
  // The masked sum over the count of unmasked elements, in mean's result dtype.
  const Array w = mask_of(a, where);
  const Array total = sum(accel::where(w, a, Scalar::weak_int(0).cast(a.dtype())), axes, keepdims,
                          to_dtype_opt(dtype));
  const Array count = sum(w, axes, keepdims, DType::Int64);
  return finish(astype(divide(total, count), plain.dtype(), false), out, "unsafe");
}

namespace {
// NumPy 2's `correction` is the Array API's name for ddof; giving both is an error.
double degrees_of_freedom(double ddof, nb::handle correction) {
  if (correction.is_none()) return ddof;
  if (ddof != 0) throw ValueError("ddof and correction can't be provided simultaneously.");
  return nb::cast<double>(correction);
}
}  // namespace

nb::object reduce_var(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                      double ddof, bool keepdims, nb::handle correction) {
  return finish(
      var(a, to_axes(axis), degrees_of_freedom(ddof, correction), keepdims, to_dtype_opt(dtype)),
      out);
}
nb::object reduce_std(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                      double ddof, bool keepdims, nb::handle correction) {
  return finish(accel::std(a, to_axes(axis), degrees_of_freedom(ddof, correction), keepdims,
                           to_dtype_opt(dtype)),
                out);
}
nb::object reduce_max(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle initial, nb::handle where) {
  return extremum(true, a, axis, out, keepdims, initial, where);
}
nb::object reduce_min(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle initial, nb::handle where) {
  return extremum(false, a, axis, out, keepdims, initial, where);
}
nb::object reduce_any(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle where) {
  return finish(any(masked(a, where, Scalar::weak_bool(false)), ufunc_axes(a, axis), keepdims), out,
                "unsafe");
}
nb::object reduce_all(const Array& a, nb::handle axis, nb::handle out, bool keepdims,
                      nb::handle where) {
  return finish(all(masked(a, where, Scalar::weak_bool(true)), ufunc_axes(a, axis), keepdims), out,
                "unsafe");
}

namespace {

// argmax/argmin take one axis: a tuple is a TypeError, as in NumPy.
std::optional<int64_t> single_axis(const Array& a, nb::handle axis) {
  if (axis.is_none() || ufunc_axes(a, axis) == std::nullopt) return std::nullopt;
  if (PyTuple_Check(axis.ptr()) || PyList_Check(axis.ptr())) {
    throw TypeError("'" + std::string(Py_TYPE(axis.ptr())->tp_name) +
                    "' object cannot be interpreted as an integer (argmax/argmin take one axis)");
  }
  return (*to_axes(axis))[0];
}

}  // namespace

nb::object reduce_argmax(const Array& a, nb::handle axis, nb::handle out, bool keepdims) {
  return finish(argmax(a, single_axis(a, axis), keepdims), out, "unsafe");
}
nb::object reduce_argmin(const Array& a, nb::handle axis, nb::handle out, bool keepdims) {
  return finish(argmin(a, single_axis(a, axis), keepdims), out, "unsafe");
}

namespace {

// Module-level reductions take any array-like, as NumPy's functions do; the methods share
// the same implementations.
template <class... Rest>
auto on_array_like(nb::object (*fn)(const Array&, Rest...)) {
  return [fn](nb::handle a, Rest... rest) { return fn(to_array(a), rest...); };
}

}  // namespace

void bind_reductions(nb::module_& m) {
  using namespace nb::literals;
  m.def("sum", on_array_like(&reduce_sum), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "keepdims"_a = false, "initial"_a = nb::none(),
        "where"_a = nb::bool_(true), "Sum of elements over the given axes (numpy.sum).",
        nb::sig("def sum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: "
                "ndarray | None = None, keepdims: bool = False, initial: complex | None = None, "
                "where: ArrayLike = True) -> ndarray"));
  m.def("prod", on_array_like(&reduce_prod), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "keepdims"_a = false, "initial"_a = nb::none(),
        "where"_a = nb::bool_(true), "Product of elements over the given axes (numpy.prod).",
        nb::sig("def prod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: "
                "ndarray | None = None, keepdims: bool = False, initial: complex | None = None, "
                "where: ArrayLike = True) -> ndarray"));
  m.def(
      "mean", on_array_like(&reduce_mean), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
      "out"_a = nb::none(), "keepdims"_a = false, nb::kw_only(), "where"_a = nb::bool_(true),
      "Arithmetic mean over the given axes (numpy.mean).",
      nb::sig(
          "def mean(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: ndarray "
          "| None = None, keepdims: bool = False, *, where: ArrayLike = True) -> ndarray"));
  m.def("var", on_array_like(&reduce_var), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "ddof"_a = 0.0, "keepdims"_a = false, nb::kw_only(),
        "correction"_a = nb::none(), "Variance, two-pass as NumPy computes it (numpy.var).",
        nb::sig("def var(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: "
                "ndarray | None = None, ddof: float = 0.0, keepdims: bool = False, *, correction: "
                "float | None = None) -> ndarray"));
  m.def("std", on_array_like(&reduce_std), "a"_a, "axis"_a = nb::none(), "dtype"_a = nb::none(),
        "out"_a = nb::none(), "ddof"_a = 0.0, "keepdims"_a = false, nb::kw_only(),
        "correction"_a = nb::none(), "Standard deviation (numpy.std).",
        nb::sig("def std(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: "
                "ndarray | None = None, ddof: float = 0.0, keepdims: bool = False, *, correction: "
                "float | None = None) -> ndarray"));
  m.def(
      "max", on_array_like(&reduce_max), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
      "keepdims"_a = false, "initial"_a = nb::none(), "where"_a = nb::bool_(true),
      "Maximum over the given axes; NaN propagates (numpy.max).",
      nb::sig("def max(a: ArrayLike, axis: Axis = None, out: ndarray | None = None, keepdims: bool "
              "= False, initial: complex | None = None, where: ArrayLike = True) -> ndarray"));
  m.def(
      "min", on_array_like(&reduce_min), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
      "keepdims"_a = false, "initial"_a = nb::none(), "where"_a = nb::bool_(true),
      "Minimum over the given axes; NaN propagates (numpy.min).",
      nb::sig("def min(a: ArrayLike, axis: Axis = None, out: ndarray | None = None, keepdims: bool "
              "= False, initial: complex | None = None, where: ArrayLike = True) -> ndarray"));
  m.def("any", on_array_like(&reduce_any), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, nb::kw_only(), "where"_a = nb::bool_(true),
        "Whether any element is true (numpy.any).",
        nb::sig("def any(a: ArrayLike, axis: Axis = None, out: ndarray | None = None, keepdims: "
                "bool = False, *, where: ArrayLike = True) -> ndarray"));
  m.def("all", on_array_like(&reduce_all), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, nb::kw_only(), "where"_a = nb::bool_(true),
        "Whether all elements are true (numpy.all).",
        nb::sig("def all(a: ArrayLike, axis: Axis = None, out: ndarray | None = None, keepdims: "
                "bool = False, *, where: ArrayLike = True) -> ndarray"));
  m.def("argmax", on_array_like(&reduce_argmax), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, "Index of the first maximum (numpy.argmax).",
        nb::sig("def argmax(a: ArrayLike, axis: Axis = None, out: ndarray | None = None, keepdims: "
                "bool = False) -> ndarray"));
  m.def("argmin", on_array_like(&reduce_argmin), "a"_a, "axis"_a = nb::none(), "out"_a = nb::none(),
        "keepdims"_a = false, "Index of the first minimum (numpy.argmin).",
        nb::sig("def argmin(a: ArrayLike, axis: Axis = None, out: ndarray | None = None, keepdims: "
                "bool = False) -> ndarray"));
}

}  // namespace accel::python
