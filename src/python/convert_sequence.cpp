// A flat list or tuple of Python numbers made an array without NumPy: a mask or coefficients
// written as a literal inside a loop (`np.bitwise_and((1, 0, 1), row)`, `x == [0, 1]`) is
// converted at every call, and NumPy's discovery plus the import of its array cost several
// times the operation. The dtype is NumPy's for such a sequence: bool when every item is a bool,
// else complex128 if any is complex, float64 if any is a float, int64 otherwise.
#include <complex>
#include <cstring>

#include "accel/storage.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

namespace {

// Longer sequences go through NumPy: the host-side cost per item then dominates either way.
constexpr Py_ssize_t kMaxItems = 256;

}  // namespace

std::optional<Array> small_sequence(nb::handle obj, std::optional<Device> device) {
  PyObject* p = obj.ptr();
  if (!PyList_CheckExact(p) && !PyTuple_CheckExact(p)) return std::nullopt;
  const Device dev = device.value_or(default_device());
  if (!dev.is_cpu()) return std::nullopt;
  PyObject** items = PySequence_Fast_ITEMS(p);
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(p);
  if (n == 0 || n > kMaxItems) return std::nullopt;
  bool any_int = false, any_float = false, any_complex = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* x = items[i];
    if (PyBool_Check(x)) continue;
    if (PyLong_CheckExact(x)) {
      // Past int64 NumPy picks uint64 or object: its rules, through NumPy.
      int overflow = 0;
      PyLong_AsLongLongAndOverflow(x, &overflow);
      if (overflow) return std::nullopt;
      any_int = true;
    } else if (PyFloat_CheckExact(x)) {
      any_float = true;
    } else if (PyComplex_CheckExact(x)) {
      any_complex = true;
    } else {
      return std::nullopt;  // arrays, NumPy scalars, nested sequences, subclasses: NumPy's way
    }
  }
  const DType dt = any_complex ? DType::Complex128
                   : any_float ? DType::Float64
                   : any_int   ? DType::Int64
                               : DType::Bool;
  Array out = Array::empty(Shape{int64_t(n)}, dt, dev);
  char* data = static_cast<char*>(out.storage()->data());
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* x = items[i];
    if (dt == DType::Bool) {
      data[i] = x == Py_True;
      continue;
    }
    // NumPy's conversions: a bool is 0 or 1, an int within int64 converts exactly to int64 and
    // with round-to-nearest to double (as PyLong_AsDouble).
    std::complex<double> v;
    int64_t iv = 0;
    if (PyBool_Check(x)) {
      iv = x == Py_True;
      v = double(iv);
    } else if (PyLong_CheckExact(x)) {
      iv = PyLong_AsLongLong(x);
      v = PyLong_AsDouble(x);
    } else if (PyFloat_CheckExact(x)) {
      v = PyFloat_AS_DOUBLE(x);
    } else {
      v = {PyComplex_RealAsDouble(x), PyComplex_ImagAsDouble(x)};
    }
    if (dt == DType::Int64) {
      std::memcpy(data + i * 8, &iv, 8);
    } else if (dt == DType::Float64) {
      const double d = v.real();
      std::memcpy(data + i * 8, &d, 8);
    } else {
      std::memcpy(data + i * 16, &v, 16);
    }
  }
  return out;
}

}  // namespace accel::python
