// Bindings of the statistics the Python layer composes from (bincount: numpy.bincount and the
// histograms in python/accelpy/_histogram.py).
#include <nanobind/stl/optional.h>

#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

void bind_statistics(nb::module_& m) {
  m.def("_bincount", &bincount, "x"_a, "weights"_a = nb::none(), "minlength"_a = 0,
        "Counts (or weighted sums) of non-negative integers (numpy.bincount).");
}

}  // namespace accel::python
