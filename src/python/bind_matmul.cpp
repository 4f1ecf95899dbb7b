// Bindings of the matmul family (matmul and `@`, dot, vdot, inner, outer, tensordot, vecdot,
// matrix_transpose, einsum) and of the CPU BLAS loader's report.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "accel/cuda.hpp"
#include "accel/errors.hpp"
#include "src/cpu/blas_loader.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"
#include "src/python/element.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

// The device of the first ndarray among the operands (array-likes go there), if any.
std::optional<Device> device_of(std::initializer_list<nb::handle> objs) {
  for (nb::handle h : objs)
    if (nb::isinstance<Array>(h)) return nb::cast<Array>(h).device();
  return std::nullopt;
}

std::pair<Array, Array> two_arrays(nb::handle a, nb::handle b) {
  // Two ndarrays (a loop's products): taken as they are, without nanobind's type lookups.
  if (const Array* x = as_array(a))
    if (const Array* y = as_array(b)) return {*x, *y};
  const std::optional<Device> d = device_of({a, b});
  return {to_array(a, d), to_array(b, d)};
}

// matmul's operands in the requested dtype (NumPy's dtype= computes in it).
Array matmul_dtype(Array a, Array b, nb::handle dtype) {
  if (std::optional<DType> dt = to_dtype_opt(dtype)) {
    if (!can_cast(result_type({ArrayOrScalar(a), ArrayOrScalar(b)}), *dt, "same_kind")) {
      throw TypeError("Cannot cast matmul inputs from dtype('" +
                      std::string(dtype_name(result_type({ArrayOrScalar(a), ArrayOrScalar(b)}))) +
                      "') to dtype('" + std::string(dtype_name(*dt)) +
                      "') with casting rule 'same_kind'");
    }
    a = astype(a, *dt, false);
    b = astype(b, *dt, false);
  }
  return matmul(a, b);
}

// A product's result as NumPy gives it: NumPy's dot, vdot, inner and matmul return NumPy's
// scalar where the result is 0-d (two vectors), and so does accelpy on the CPU (the value is
// computed at the call): the scalar work that follows such a product in loops (`B[i, j] +=
// dot(u, v)`, `(b[i] - L[i, :i] @ x[:i]) / L[i, i]`) then runs as NumPy's scalar arithmetic
// instead of 0-d array operations. On a GPU the 0-d device array stays (a host scalar would
// synchronize the stream), as for elements (element.cpp).
nb::object product_result(Array result, nb::handle out = nb::handle()) {
  if ((!out.is_valid() || out.is_none()) && result.ndim() == 0 && result.device().is_cpu())
    return numpy_scalar(result.data(), result.dtype());
  return finish(std::move(result), out);
}

// x @ y for an ndarray and another operand: NotImplemented for objects that are not array-like
// (so Python tries the other operand's __rmatmul__); scalars are 0-d, which matmul refuses.
nb::object matmul_operator(const Array& self, nb::handle other, bool reflected) {
  const std::optional<ArrayOrScalar> o = to_operand(other, self.device());
  if (!o) return nb::borrow(Py_NotImplemented);
  const Array b = o->is_array() ? o->array() : to_array(other, self.device());
  return product_result(reflected ? matmul(b, self) : matmul(self, b));
}

// One einsum subscript letter for an integer label of the interleaved call form.
char label_letter(int64_t v) {
  if (v < 0 || v >= 52) throw ValueError("einsum: subscript labels must be integers in [0, 52)");
  return v < 26 ? char('A' + v) : char('a' + v - 26);
}

std::string sublist_text(nb::handle sub) {
  std::string s;
  for (nb::handle h : sub) {
    if (h.is(nb::ellipsis())) {
      s += "...";
    } else {
      s += label_letter(nb::cast<int64_t>(h));
    }
  }
  return s;
}

}  // namespace

void bind_matmul(nb::module_& m) {
  m.def(
      "matmul",
      [](nb::handle x1, nb::handle x2, nb::handle out, nb::handle dtype) {
        auto [a, b] = two_arrays(x1, x2);
        return product_result(matmul_dtype(a, b, dtype), out);
      },
      "x1"_a, "x2"_a, nb::kw_only(), "out"_a = nb::none(), "dtype"_a = nb::none(),
      "Matrix product (numpy.matmul): 1-D operands are promoted to a row or a column (the added\n"
      "dimension is removed from the result), leading dimensions broadcast as batches. Runs\n"
      "through BLAS on the CPU and cuBLAS on CUDA (float16/bfloat16 accumulate in float32; TF32\n"
      "only when accelpy.cuda.allow_tf32 is set); integer products wrap, bool is 'or of ands'.",
      nb::sig("def matmul(x1: ArrayLike, x2: ArrayLike, /, *, out: ndarray | None = None, dtype: "
              "DTypeLike | None = None) -> Any"));
  m.def(
      "dot",
      [](nb::handle a, nb::handle b, nb::handle out) {
        auto [x, y] = two_arrays(a, b);
        return product_result(dot(x, y), out);
      },
      "a"_a, "b"_a, "out"_a = nb::none(),
      "Dot product (numpy.dot): a product for 0-d operands, matmul up to 2-D, otherwise the\n"
      "sum over the last axis of a and the second-to-last of b. A 0-d result on the CPU is\n"
      "NumPy's scalar, as NumPy's (so are matmul's, vdot's and inner's).",
      nb::sig("def dot(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> Any"));
  m.def(
      "vdot",
      [](nb::handle a, nb::handle b) {
        auto [x, y] = two_arrays(a, b);
        return product_result(vdot(x, y));
      },
      "a"_a, "b"_a, "Dot product of the flattened operands, conjugating the first (numpy.vdot).",
      nb::sig("def vdot(a: ArrayLike, b: ArrayLike) -> Any"));
  m.def(
      "inner",
      [](nb::handle a, nb::handle b) {
        auto [x, y] = two_arrays(a, b);
        return product_result(inner(x, y));
      },
      "a"_a, "b"_a, "Inner product over the last axes (numpy.inner).",
      nb::sig("def inner(a: ArrayLike, b: ArrayLike) -> Any"));
  m.def(
      "outer",
      [](nb::handle a, nb::handle b, nb::handle out) {
        auto [x, y] = two_arrays(a, b);
        return finish(outer(x, y), out);
      },
      "a"_a, "b"_a, "out"_a = nb::none(),
      "Outer product of the flattened operands (numpy.outer): one fused elementwise product.",
      nb::sig("def outer(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> ndarray"));
  m.def(
      "tensordot",
      [](nb::handle a, nb::handle b, nb::handle axes) {
        auto [x, y] = two_arrays(a, b);
        if (PyLong_Check(axes.ptr())) return tensordot(x, y, nb::cast<int64_t>(axes));
        if (nb::len(axes) != 2) {
          throw ValueError("tensordot: axes must be an integer or a pair of axis sequences");
        }
        auto seq = [](nb::handle h) {
          std::vector<int64_t> v;
          if (PyLong_Check(h.ptr())) {
            v.push_back(nb::cast<int64_t>(h));
          } else {
            for (nb::handle e : h) v.push_back(nb::cast<int64_t>(e));
          }
          return v;
        };
        return tensordot(x, y, seq(axes[0]), seq(axes[1]));
      },
      "a"_a, "b"_a, "axes"_a = 2,
      "Sum of products over the given axes (numpy.tensordot): axes=N sums the last N axes of a\n"
      "against the first N of b; axes=(axes_a, axes_b) pairs them explicitly.",
      nb::sig("def tensordot(a: ArrayLike, b: ArrayLike, axes: int | tuple[int | Sequence[int], "
              "int | Sequence[int]] = 2) -> ndarray"));
  m.def(
      "matrix_transpose", [](nb::handle x) { return matrix_transpose(to_array(x)); }, "x"_a,
      "The last two axes swapped (Array API matrix_transpose; x.mT): a view.",
      nb::sig("def matrix_transpose(x: ArrayLike, /) -> ndarray"));
  m.def(
      "vecdot",
      [](nb::handle x1, nb::handle x2, nb::handle axis) {
        auto [a, b] = two_arrays(x1, x2);
        return vecdot(a, b, to_axis(axis));
      },
      "x1"_a, "x2"_a, nb::kw_only(), "axis"_a = -1,
      "Vector dot product along `axis`, conjugating x1 (Array API / numpy.vecdot); the other\n"
      "dimensions broadcast. One fused multiply-and-sum.",
      nb::sig("def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> ndarray"));
  m.def(
      "einsum",
      [](nb::args args, nb::handle out, nb::handle dtype, const std::string& casting,
         nb::handle optimize) {
        (void)optimize;  // contraction order is always left to right (see einsum.cpp)
        if (args.size() == 0) throw TypeError("einsum() needs at least the subscripts");
        std::string subscripts;
        std::vector<nb::handle> ops;
        if (PyUnicode_Check(args[0].ptr())) {
          subscripts = nb::cast<std::string>(args[0]);
          for (size_t i = 1; i < args.size(); ++i) ops.push_back(args[i]);
        } else {
          // Interleaved form: op0, sublist0, op1, sublist1, ..., [output sublist].
          const size_t n = args.size();
          for (size_t i = 0; i + 1 < n; i += 2) {
            ops.push_back(args[i]);
            subscripts += (i ? "," : "") + sublist_text(args[i + 1]);
          }
          if (n % 2 == 1) subscripts += "->" + sublist_text(args[n - 1]);
        }
        std::optional<Device> dev;
        for (nb::handle h : ops)
          if (!dev && nb::isinstance<Array>(h)) dev = nb::cast<Array>(h).device();
        std::vector<Array> arrays;
        const std::optional<DType> dt = to_dtype_opt(dtype);
        for (nb::handle h : ops) {
          Array a = to_array(h, dev);
          if (dt && !can_cast(a.dtype(), *dt, casting)) {
            throw TypeError("einsum: operand dtype('" + std::string(dtype_name(a.dtype())) +
                            "') cannot be cast to dtype('" + std::string(dtype_name(*dt)) +
                            "') according to the rule '" + casting + "'");
          }
          arrays.push_back(dt ? astype(a, *dt, false) : a);
        }
        return finish(einsum(subscripts, arrays), out);
      },
      "args"_a, nb::kw_only(), "out"_a = nb::none(), "dtype"_a = nb::none(), "casting"_a = "safe",
      "optimize"_a = false,
      "Einstein summation (numpy.einsum), explicit ('ij,jk->ik') or implicit ('ij,jk')\n"
      "subscripts, ellipses, or the interleaved (op, sublist, ...) form. Repeated indices are\n"
      "diagonal views, indices in one operand only are summed, and each pair of operands is\n"
      "contracted with one matmul.",
      nb::sig("def einsum(*operands: Any, out: ndarray | None = None, dtype: DTypeLike | None = "
              "None, casting: str = 'safe', optimize: Any = False) -> ndarray"));

  // The @ operators of ndarray.
  nb::object cls = m.attr("ndarray");
  cls.attr("__matmul__") = nb::cpp_function(
      [](const Array& self, nb::handle other) { return matmul_operator(self, other, false); },
      nb::is_method(), nb::scope(cls), nb::name("__matmul__"),
      nb::sig("def __matmul__(self, other: ArrayLike, /) -> Any"));
  cls.attr("__rmatmul__") = nb::cpp_function(
      [](const Array& self, nb::handle other) { return matmul_operator(self, other, true); },
      nb::is_method(), nb::scope(cls), nb::name("__rmatmul__"),
      nb::sig("def __rmatmul__(self, other: ArrayLike, /) -> Any"));
  // a @= b: NumPy computes a @ b and writes it into a, which must keep its shape.
  cls.attr("__imatmul__") = nb::cpp_function(
      [](nb::handle self_obj, nb::handle other) -> nb::object {
        const Array self = nb::cast<Array>(self_obj);
        const std::optional<ArrayOrScalar> o = to_operand(other, self.device());
        if (!o) return nb::borrow(Py_NotImplemented);
        const Array b = o->is_array() ? o->array() : to_array(other, self.device());
        Array r = matmul(self, b);
        if (!can_cast(r.dtype(), self.dtype(), "same_kind")) {
          throw TypeError("Cannot cast ufunc 'matmul' output from dtype('" +
                          std::string(dtype_name(r.dtype())) + "') to dtype('" +
                          std::string(dtype_name(self.dtype())) +
                          "') with casting rule 'same_kind'");
        }
        if (r.shape() != self.shape()) {
          throw ValueError("matmul: In-place matrix multiplication requires the result shape " +
                           shape_str(r.shape()) + " to equal the shape of the left operand " +
                           shape_str(self.shape()));
        }
        assign(self, std::move(r));
        return nb::borrow(self_obj);
      },
      nb::is_method(), nb::scope(cls), nb::name("__imatmul__"),
      nb::sig("def __imatmul__(self, other: ArrayLike, /) -> ndarray"));
  cls.attr("dot") = nb::cpp_function(
      [](const Array& self, nb::handle b, nb::handle out) {
        return product_result(dot(self, to_array(b, self.device())), out);
      },
      nb::is_method(), nb::scope(cls), nb::name("dot"), "b"_a, "out"_a = nb::none(),
      "Dot product with b (numpy.ndarray.dot).",
      nb::sig("def dot(self, b: ArrayLike, out: ndarray | None = None) -> Any"));

  nb::module_ cuda_module = nb::borrow<nb::module_>(m.attr("_cuda"));
  cuda_module.def("allow_tf32", &cuda::allow_tf32,
                  "Whether float32 matmul may use TF32 tensor cores.");
  cuda_module.def("set_allow_tf32", &cuda::set_allow_tf32, "allow"_a,
                  "Lets float32/complex64 matmul use TF32 tensor cores (off by default).");

  m.def(
      "_blas_info",
      [] {
        const cpu::BlasStatus& s = cpu::blas_status();
        nb::dict d;
        d["found"] = s.ok;
        d["path"] = s.path;
        d["name"] = s.name;
        d["int64"] = s.int64;
        d["detail"] = s.error;
        d["tried"] = s.tried;
        return d;
      },
      "The CPU BLAS accelpy loaded (found, path, name, int64) or why none (detail, tried).");
  m.def("_add_blas_search_dirs", &cpu::add_blas_search_dirs, "dirs"_a,
        "site-packages directories to search for NumPy's bundled OpenBLAS.");
}

}  // namespace accel::python
