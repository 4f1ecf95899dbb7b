#include "src/python/element.hpp"

#include <array>
#include <cstring>
#include <stdexcept>
#include <variant>
#include <vector>

#include "accel/errors.hpp"
#include "accel/ops.hpp"
#include "accel/storage.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

namespace {

// NumPy's C API table (numpy/__multiarray_api.h): the slots' numbers are fixed by NumPy's ABI.
// NumPy's own a[i] makes its scalar with PyArray_Scalar and a[i] = v stores with PyArray_Pack,
// so these give its types, values, casting and errors exactly, at its cost.
constexpr int kGetNDArrayCVersion = 0;
constexpr int kScalar = 60;
constexpr int kFromScalar = 61;
constexpr int kScalarAsCtype = 62;
constexpr int kPack = 65;  // NumPy 2.0 and newer
constexpr unsigned kNumPy2Abi = 0x02000000;

using ScalarFn = PyObject* (*)(void*, PyObject*, PyObject*);
using FromScalarFn = PyObject* (*)(PyObject*, PyObject*);
using PackFn = int (*)(PyObject*, void*, PyObject*);
using AsCtypeFn = void (*)(PyObject*, void*);

struct NumPyApi {
  ScalarFn scalar = nullptr;
  FromScalarFn from_scalar = nullptr;
  PackFn pack = nullptr;
  AsCtypeFn as_ctype = nullptr;
  std::array<PyObject*, kNumDTypes> descrs{};  // borrowed: the dtype objects live as long as us
  PyObject* generic = nullptr;                 // numpy.generic, the base of NumPy's scalars
};

NumPyApi load_api() {
  nb::object umath = nb::module_::import_("numpy._core._multiarray_umath");
  nb::object capsule = umath.attr("_ARRAY_API");
  void** table = static_cast<void**>(PyCapsule_GetPointer(capsule.ptr(), nullptr));
  if (!table) throw nb::python_error();
  if (reinterpret_cast<unsigned (*)()>(table[kGetNDArrayCVersion])() < kNumPy2Abi)
    throw std::runtime_error("accelpy needs NumPy 2.0 or newer");
  NumPyApi api;
  api.scalar = reinterpret_cast<ScalarFn>(table[kScalar]);
  api.from_scalar = reinterpret_cast<FromScalarFn>(table[kFromScalar]);
  api.pack = reinterpret_cast<PackFn>(table[kPack]);
  api.as_ctype = reinterpret_cast<AsCtypeFn>(table[kScalarAsCtype]);
  for (int i = 0; i < kNumDTypes; ++i) api.descrs[size_t(i)] = dtype_object(DType(i)).ptr();
  api.generic = nb::module_::import_("numpy").attr("generic").ptr();
  return api;
}

const NumPyApi& api() {
  static const NumPyApi loaded = load_api();
  return loaded;
}

// The element offset (in elements, from element 0) that `key` selects in `a`, when `key` is a
// Python int or a tuple of them, one per axis, all in bounds; -1 otherwise (other keys, and
// out-of-bounds indices, take the general path, which raises NumPy's IndexError).
constexpr int64_t kNoElement = -1;

int64_t int_offset(PyObject* p, int64_t n, int64_t stride, bool& ok) {
  int overflow = 0;
  long long i = PyLong_AsLongLongAndOverflow(p, &overflow);
  if (overflow != 0 || (i == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    ok = false;
    return 0;
  }
  if (i < 0) i += n;
  if (i < 0 || i >= n) {
    ok = false;
    return 0;
  }
  return i * stride;
}

int64_t fast_offset(const Array& a, PyObject* key) {
  bool ok = true;
  int64_t off = 0;
  if (PyLong_CheckExact(key)) {
    if (a.ndim() != 1) return kNoElement;
    off = int_offset(key, a.shape()[0], a.strides()[0], ok);
  } else if (PyTuple_CheckExact(key) && PyTuple_GET_SIZE(key) == a.ndim()) {
    for (int d = 0; d < a.ndim() && ok; ++d) {
      PyObject* item = PyTuple_GET_ITEM(key, d);
      if (!PyLong_CheckExact(item)) return kNoElement;
      off += int_offset(item, a.shape()[size_t(d)], a.strides()[size_t(d)], ok);
    }
  } else {
    return kNoElement;
  }
  return ok ? off : kNoElement;
}

// Whether `idx` is one integer per axis (a 0-d array's () included): one element.
bool is_element_index(const std::vector<Index>& idx, int ndim) {
  if (int(idx.size()) != ndim) return false;
  for (const Index& i : idx)
    if (!std::holds_alternative<int64_t>(i)) return false;
  return true;
}

// The address of the element `key` selects (the array computed first), or null when `key`
// does not select one element; a key parsed on the way is left in `parsed`, for the view's
// path not to parse it again. Raises NumPy's IndexError for an index out of bounds.
char* element_address(const Array& a, nb::handle key, std::optional<std::vector<Index>>& parsed) {
  const int64_t off = fast_offset(a, key.ptr());
  if (off != kNoElement) return static_cast<char*>(a.data()) + off * int64_t(itemsize(a.dtype()));
  parsed = to_index(key, a.device());
  if (!is_element_index(*parsed, a.ndim())) return nullptr;
  return static_cast<char*>(index(a, *parsed).data());
}

// A number NumPy stores with its casting: Python's bool, int, float and complex and NumPy's
// scalars (their subclasses included). Anything else (sequences, arrays, strings) takes the
// general path.
bool is_number(PyObject* v) {
  return PyFloat_Check(v) || PyLong_Check(v) || PyComplex_Check(v) ||
         PyObject_TypeCheck(v, reinterpret_cast<PyTypeObject*>(api().generic));
}

}  // namespace

nb::object numpy_scalar(const void* data, DType dt) {
  const NumPyApi& np = api();
  PyObject* s = np.scalar(const_cast<void*>(data), np.descrs[size_t(dt)], nullptr);
  if (!s) throw nb::python_error();
  return nb::steal(s);
}

void numpy_scalar_bytes(PyObject* scalar, void* out) { api().as_ctype(scalar, out); }

nb::object read_element(const Array& a, nb::handle key, std::optional<std::vector<Index>>& parsed) {
  if (!a.device().is_cpu()) return nb::object();
  const char* p = element_address(a, key, parsed);
  if (!p) return nb::object();
  return numpy_scalar(p, a.dtype());
}

bool write_element(const Array& a, nb::handle key, nb::handle value,
                   std::optional<std::vector<Index>>& parsed) {
  if (!a.device().is_cpu() || !a.writeable()) return false;
  // A 0-d CPU array (a reduction's result: `D[i, j] = np.sqrt((w**2).sum())`) is stored as
  // NumPy stores a 0-d NumPy array of its value: NumPy's casts and warnings for arrays, not its
  // scalars' (int8[i] = np.uint8(200) raises OverflowError; an array of it wraps to -56).
  nb::object held;
  if (const Array* v = as_array(value); v && v->ndim() == 0 && v->device().is_cpu()) {
    // Computed first: it may read a's old value.
    const nb::object scalar = numpy_scalar(v->data(), v->dtype());
    held = nb::steal(api().from_scalar(scalar.ptr(), nullptr));
    if (!held.is_valid()) throw nb::python_error();
    value = held;
  } else if (!is_number(value.ptr())) {
    return false;
  }
  // Index and value are checked before anything is written or evaluated: a bad one raises with
  // the array and its pending readers untouched.
  const int64_t off = fast_offset(a, key.ptr());
  Array element;  // the general path's element (its index checked): NumPy's IndexError first
  if (off == kNoElement) {
    parsed = to_index(key, a.device());
    if (!is_element_index(*parsed, a.ndim())) return false;
    element = index(a, *parsed);
  }
  alignas(16) unsigned char bytes[16];
  const NumPyApi& np = api();
  if (np.pack(np.descrs[size_t(a.dtype())], bytes, value.ptr()) < 0) throw nb::python_error();
  // The write barrier: a pending `a` is computed, and pending work that reads its memory sees
  // the old value.
  prepare_write(*a.storage());
  char* p = off != kNoElement ? static_cast<char*>(a.data()) + off * int64_t(itemsize(a.dtype()))
                              : static_cast<char*>(element.data());
  std::memcpy(p, bytes, itemsize(a.dtype()));
  return true;
}

nb::object device_element_value(const Array& a, nb::handle key, nb::handle value) {
  if (a.device().is_cpu() || !is_number(value.ptr())) return nb::borrow(value);
  if (!is_element_index(to_index(key, a.device()), a.ndim())) return nb::borrow(value);
  // NumPy's casting and errors (an int out of range: OverflowError), as the CPU's write.
  alignas(16) unsigned char bytes[16];
  const NumPyApi& np = api();
  if (np.pack(np.descrs[size_t(a.dtype())], bytes, value.ptr()) < 0) throw nb::python_error();
  return numpy_scalar(bytes, a.dtype());
}

}  // namespace accel::python
