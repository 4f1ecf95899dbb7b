// accelpy._core: the nanobind module. Bindings only; every decision lives in the core.
#include <nanobind/nanobind.h>

#include "accel/errors.hpp"
#include "src/python/bindings.hpp"
#include "src/python/process_ref.hpp"

namespace nb = nanobind;

namespace {

accel::python::ProcessRef
    g_axis_error;  // numpy.exceptions.AxisError (a ValueError and an IndexError)
accel::python::ProcessRef g_out_of_memory;

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const accel::ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const accel::TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const accel::IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const accel::AxisError& e) {
    PyErr_SetString(g_axis_error.ptr(), e.what());
  } catch (const accel::OverflowError& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const accel::ZeroDivisionError& e) {
    PyErr_SetString(PyExc_ZeroDivisionError, e.what());
  } catch (const accel::NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const accel::OutOfMemoryError& e) {
    PyErr_SetString(g_out_of_memory.ptr(), e.what());
  } catch (const accel::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "accelpy's C++ core (arrays, lazy graph, backends), bound with nanobind.";
  g_axis_error = nb::module_::import_("numpy.exceptions").attr("AxisError");
  g_out_of_memory = nb::steal(PyErr_NewExceptionWithDoc(
      "accelpy.OutOfMemoryError", "Raised when device or host memory is exhausted.",
      PyExc_MemoryError, nullptr));
  m.attr("OutOfMemoryError") = g_out_of_memory;
  nb::register_exception_translator(&translate);
  accel::python::bind_device(m);
  accel::python::bind_array(m);
  accel::python::bind_elementwise(m);
  accel::python::bind_ufunc(m);
  accel::python::bind_reductions(m);
  accel::python::bind_manipulation(m);
  accel::python::bind_creation(m);
  accel::python::bind_conversion(m);
  accel::python::bind_cuda(m);
  accel::python::bind_fusion(m);
  accel::python::bind_interop(m);
  accel::python::bind_fft(m);
  accel::python::bind_linalg(m);
  accel::python::bind_matmul(m);
  accel::python::bind_kernels(m);
  accel::python::bind_indexing(m);
  accel::python::bind_sorting(m);
  accel::python::bind_random(m);
  accel::python::bind_statistics(m);
}
