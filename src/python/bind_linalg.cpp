// Bindings of the factorization-based linear algebra (accel/linalg.hpp); accelpy.linalg
// (python/accelpy/linalg.py) gives them NumPy's signatures and result types.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "accel/linalg.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"
#include "src/python/process_ref.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

ProcessRef g_linalg_error;  // numpy.linalg.LinAlgError

void translate_linalg(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const LinAlgError& e) {
    PyErr_SetString(g_linalg_error.ptr(), e.what());
  }
}

}  // namespace

void bind_linalg(nb::module_& m) {
  g_linalg_error = nb::module_::import_("numpy.linalg").attr("LinAlgError");
  // Registered after the module's translator, so tried before it (LinAlgError is a ValueError).
  nb::register_exception_translator(&translate_linalg);
  m.def(
      "_linalg_solve",
      [](nb::handle a, nb::handle b) {
        const Array x = to_array(a);
        return linalg::solve(x, to_array(b, x.device()));
      },
      "a"_a, "b"_a);
  m.def(
      "_linalg_inv", [](nb::handle a) { return linalg::inv(to_array(a)); }, "a"_a);
  m.def(
      "_linalg_cholesky",
      [](nb::handle a, bool upper) { return linalg::cholesky(to_array(a), upper); }, "a"_a,
      "upper"_a);
  m.def(
      "_linalg_det", [](nb::handle a) { return linalg::det(to_array(a)); }, "a"_a);
  m.def(
      "_linalg_slogdet", [](nb::handle a) { return linalg::slogdet(to_array(a)); }, "a"_a);
  m.def(
      "_linalg_eigh", [](nb::handle a, bool lower) { return linalg::eigh(to_array(a), lower); },
      "a"_a, "lower"_a);
  m.def(
      "_linalg_eigvalsh",
      [](nb::handle a, bool lower) { return linalg::eigvalsh(to_array(a), lower); }, "a"_a,
      "lower"_a);
  m.def(
      "_linalg_eig",
      [](nb::handle a, bool vectors) {
        auto [w, v] = linalg::eig(to_array(a), vectors);
        return nb::make_tuple(w, v.defined() ? nb::cast(v) : nb::none());
      },
      "a"_a, "vectors"_a);
  m.def(
      "_linalg_svd",
      [](nb::handle a, bool full_matrices) {
        const linalg::Svd r = linalg::svd(to_array(a), full_matrices);
        return nb::make_tuple(r.u, r.s, r.vh);
      },
      "a"_a, "full_matrices"_a);
  m.def(
      "_linalg_svdvals", [](nb::handle a) { return linalg::svdvals(to_array(a)); }, "a"_a);
  m.def(
      "_linalg_qr",
      [](nb::handle a, const std::string& mode) {
        auto [q, r] = linalg::qr(to_array(a), mode);
        return nb::make_tuple(q.defined() ? nb::cast(q) : nb::none(), r);
      },
      "a"_a, "mode"_a);
}

}  // namespace accel::python
