// Bindings of the matmul family and of the CPU BLAS loader's report.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "src/cpu/blas_loader.hpp"
#include "src/python/bindings.hpp"

namespace accel::python {

using namespace nb::literals;

void bind_matmul(nb::module_& m) {
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
