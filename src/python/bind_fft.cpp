// Bindings of the FFT building blocks (accel/fft.hpp); numpy.fft's functions are written over
// them in python/accelpy/fft.py.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "accel/errors.hpp"
#include "accel/fft.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

fft::Norm to_norm(nb::handle norm) {
  if (norm.is_none()) return fft::Norm::Backward;
  if (nb::isinstance<nb::str>(norm)) {
    const std::string s = nb::cast<std::string>(norm);
    if (s == "backward") return fft::Norm::Backward;
    if (s == "ortho") return fft::Norm::Ortho;
    if (s == "forward") return fft::Norm::Forward;
  }
  throw ValueError("Invalid norm value " + nb::cast<std::string>(nb::repr(norm)) +
                   "; should be \"backward\", \"ortho\" or \"forward\".");
}

}  // namespace

void bind_fft(nb::module_& m) {
  m.def(
      "_fft_c2c",
      [](nb::handle a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
         bool inverse,
         nb::handle norm) { return fft::c2c(to_array(a), axes, lengths, inverse, to_norm(norm)); },
      "a"_a, "axes"_a, "lengths"_a, "inverse"_a, "norm"_a.none(),
      "Complex FFT over `axes`, each cut or zero-padded to `lengths` first.");
  m.def(
      "_fft_r2c",
      [](nb::handle a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
         nb::handle norm) { return fft::r2c(to_array(a), axes, lengths, to_norm(norm)); },
      "a"_a, "axes"_a, "lengths"_a, "norm"_a.none(),
      "Real-to-complex forward FFT (rfftn) over `axes` with real lengths `lengths`.");
  m.def(
      "_fft_c2r",
      [](nb::handle a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
         nb::handle norm) { return fft::c2r(to_array(a), axes, lengths, to_norm(norm)); },
      "a"_a, "axes"_a, "lengths"_a, "norm"_a.none(),
      "Complex-to-real inverse FFT (irfftn) giving real lengths `lengths` along `axes`.");
  m.def(
      "_fft_plan_cache_info",
      [](int device) {
        const fft::PlanCacheInfo i = fft::plan_cache_info(device);
        nb::dict d;
        d["size"] = i.size;
        d["max_size"] = i.max_size;
        d["hits"] = i.hits;
        d["misses"] = i.misses;
        return d;
      },
      "device"_a, "The cuFFT plan cache of CUDA device `device`: size, max_size, hits, misses.");
  m.def("_fft_plan_cache_clear", &fft::clear_plan_cache, "device"_a,
        "Destroys the cached cuFFT plans of CUDA device `device`.");
  m.def("_fft_set_plan_cache_max_size", &fft::set_plan_cache_max_size, "max_size"_a,
        "Bounds the cuFFT plans cached per device (0: none are kept).");
}

}  // namespace accel::python
