// accelpy._core: the nanobind module. Bindings only; every decision lives in the core.
#include <nanobind/nanobind.h>

#include <cstdlib>
#include <string_view>

#include "accel/errors.hpp"
#include "accel/fp_errors.hpp"
#include "accel/interrupt.hpp"
#include "src/python/bindings.hpp"
#include "src/python/process_ref.hpp"

namespace nb = nanobind;

namespace {

accel::python::ProcessRef
    g_axis_error;  // numpy.exceptions.AxisError (a ValueError and an IndexError)
accel::python::ProcessRef g_out_of_memory;

// Ctrl-C during an evaluation: Python's C-level handler only sets a flag, which the interpreter
// reads between bytecodes, never while C++ computes. The evaluating thread (it holds the GIL)
// polls that flag between blocks of work; the request is handed back to Python
// (PyErr_SetInterrupt) so that its handler (KeyboardInterrupt, or the user's own) runs once the
// evaluation has unwound. PyErr_CheckSignals is not called here: since Python 3.12 it may also
// run the garbage collector, which would free arrays in the middle of an evaluation.
bool sigint_requested() {
  if (!Py_IsInitialized() || !PyGILState_Check() || !PyOS_InterruptOccurred()) return false;
  PyErr_SetInterrupt();
  return true;
}

// The same for a thread that waits for the GPU (a host read, synchronize()): the wait may have
// released the GIL so that other threads run, so it is taken back for the look, every few
// milliseconds. Only the main thread sees Python's signals, so other threads do not take the
// GIL for nothing.
unsigned long g_main_thread = 0;  // threading.main_thread().ident

bool sigint_requested_while_waiting() {
  if (!Py_IsInitialized() || PyThread_get_thread_ident() != g_main_thread) return false;
  if (PyGILState_Check()) return sigint_requested();
#if PY_VERSION_HEX >= 0x030D0000
  if (Py_IsFinalizing()) return false;
#else
  if (_Py_IsFinalizing()) return false;
#endif
  if (PyGILState_GetThisThreadState() == nullptr) return false;
  const PyGILState_STATE gil = PyGILState_Ensure();
  const bool requested = PyOS_InterruptOccurred() != 0;
  if (requested) PyErr_SetInterrupt();
  PyGILState_Release(gil);
  return requested;
}

// accelpy._fp_errors applies numpy.geterr()'s modes to what an evaluation raised; an exception
// it raises (mode 'raise', a warning filter set to 'error') propagates out of the evaluation,
// whose results are computed by then.
accel::python::ProcessRef g_fp_error_handler;

void report_fp_errors(const accel::FpErrors& errors) {
  if (!Py_IsInitialized()) return;
  nb::gil_scoped_acquire gil;
  if (!g_fp_error_handler.is_valid()) return;
  nb::list ops;
  for (const char* op : errors.ops) ops.append(op ? nb::object(nb::str(op)) : nb::none());
  g_fp_error_handler(errors.flags, nb::tuple(ops));
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const accel::Interrupted&) {
    accel::clear_interrupt();
    if (PyErr_CheckSignals() == 0) PyErr_SetNone(PyExc_KeyboardInterrupt);
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
  // At exit nanobind names every accelpy object still alive. Python does not promise to free
  // what a program or a test framework keeps until then (module-level caches such as the Array
  // API suite's strategies over `devices()`), and NumPy says nothing about such objects, so the
  // report is off unless ACCELPY_DEBUG_LEAKS=1, which the tests that catch the bindings' own
  // reference leaks set.
  const char* leaks = std::getenv("ACCELPY_DEBUG_LEAKS");
  nb::set_leak_warnings(leaks != nullptr && std::string_view(leaks) == "1");
  nb::register_exception_translator(&translate);
  accel::set_interrupt_poll(&sigint_requested);
  // Python's main thread: threading's answer when it is loaded, else this thread, as threading
  // itself would decide on its first import (importing it here costs start-up time).
  nb::object threading = nb::module_::import_("sys").attr("modules").attr("get")("threading");
  g_main_thread = threading.is_none()
                      ? PyThread_get_thread_ident()
                      : nb::cast<unsigned long>(threading.attr("main_thread")().attr("ident"));
  accel::set_wait_interrupt_poll(&sigint_requested_while_waiting);
  accel::set_fp_error_report(&report_fp_errors);
  m.def(
      "_set_fp_error_handler", [](nb::object handler) { g_fp_error_handler = std::move(handler); },
      nb::arg("handler"),
      "Sets the function called as handler(flags, ops) after an evaluation whose arithmetic "
      "raised floating-point errors (flags: numpy's FPE mask; ops: the op each is attributed "
      "to, by bit, or None).");
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
