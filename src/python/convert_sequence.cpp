// A flat list or tuple of Python numbers and NumPy scalars made an array without NumPy: a mask
// or coefficients written as a literal inside a loop (`np.bitwise_and((1, 0, 1), row)`,
// `x == [0, 1]`, `np.array([fmag * cosine, fmag * sine])` of a CPU array's elements) is
// converted at every call, and NumPy's discovery plus the import of its array cost several
// times the operation. The dtype is NumPy's for such a sequence: the items' dtypes promoted
// pair by pair in order (NumPy's array coercion), a Python bool, int, float and complex taken as
// bool, int64, float64 and complex128 (not weak, as NumPy's array() takes them).
#include <array>
#include <complex>
#include <vector>

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
  // The items' values, kept until the dtype is known (on the stack up to kOnStack items).
  constexpr Py_ssize_t kOnStack = 16;
  std::array<Scalar, kOnStack> on_stack;
  std::vector<Scalar> on_heap;
  if (n > kOnStack) on_heap.resize(size_t(n));
  Scalar* values = n > kOnStack ? on_heap.data() : on_stack.data();
  std::optional<DType> dt;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* x = items[i];
    if (PyBool_Check(x)) {
      values[i] = Scalar::from_bytes(DType::Bool, x == Py_True ? "\1" : "\0");
    } else if (PyLong_CheckExact(x)) {
      // Past int64 NumPy picks uint64 or object: its rules, through NumPy.
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
      if (overflow) return std::nullopt;
      const int64_t iv = v;
      values[i] = Scalar::from_bytes(DType::Int64, &iv);
    } else if (PyFloat_CheckExact(x)) {
      const double v = PyFloat_AS_DOUBLE(x);
      values[i] = Scalar::from_bytes(DType::Float64, &v);
    } else if (PyComplex_CheckExact(x)) {
      const std::complex<double> v{PyComplex_RealAsDouble(x), PyComplex_ImagAsDouble(x)};
      values[i] = Scalar::from_bytes(DType::Complex128, &v);
    } else if (std::optional<Scalar> s = numpy_builtin_scalar(x)) {
      values[i] = *s;
    } else {
      return std::nullopt;  // arrays, nested sequences, subclasses, other scalars: NumPy's way
    }
    dt = dt ? promote_types(*dt, values[i].dtype()) : values[i].dtype();
  }
  // The promoted dtype holds every item exactly, but for int64 and uint64 in float64, which
  // round to nearest as NumPy's cast does.
  Array out = Array::empty(Shape{int64_t(n)}, *dt, dev);
  char* data = static_cast<char*>(out.storage()->data());
  const size_t size = itemsize(*dt);
  for (Py_ssize_t i = 0; i < n; ++i) values[i].store(*dt, data + size_t(i) * size);
  return out;
}

}  // namespace accel::python
