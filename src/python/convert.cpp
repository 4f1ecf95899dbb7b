#include "src/python/convert.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/string.h>

#include <array>
#include <complex>
#include <cstring>

#include "accel/errors.hpp"
#include "accel/storage.hpp"
#include "src/core/eval.hpp"
#include "src/python/element.hpp"
#include "src/python/process_ref.hpp"

namespace accel::python {

namespace {

std::array<ProcessRef, kNumDTypes> g_dtypes;  // numpy.dtype objects, by DType
std::array<ProcessRef, kNumDTypes> g_types;   // their scalar types (numpy.float32, ...)
ProcessRef g_numpy_dtype;                     // numpy.dtype
ProcessRef g_numpy_generic;                   // numpy.generic
ProcessRef g_numpy_ndarray;                   // numpy.ndarray
ProcessRef g_asarray;                         // accelpy.asarray
ProcessRef g_dtype_loader;                    // loads a dtype left None (bfloat16: ml_dtypes)

// Fills the dtypes left None by set_dtype_objects (bfloat16, whose module is imported on first
// use); `only_if_imported`: only when ml_dtypes is already imported (a bfloat16 dtype can exist
// only then), so that checking a foreign dtype never imports it needlessly.
void load_lazy_dtypes(bool only_if_imported) {
  bool missing = false;
  for (const nb::object& d : g_dtypes) missing = missing || d.is_none();
  if (!missing || !g_dtype_loader.is_valid()) return;
  if (only_if_imported && !PyDict_GetItemString(PyImport_GetModuleDict(), "ml_dtypes")) return;
  nb::object dt = g_dtype_loader();
  g_dtypes[int(DType::BFloat16)] = dt;
  g_types[int(DType::BFloat16)] = dt.attr("type");
}

std::string py_repr(nb::handle obj) { return nb::cast<std::string>(nb::repr(obj)); }

int64_t to_int64(nb::handle obj, const char* what) {
  PyObject* idx = PyNumber_Index(obj.ptr());
  if (!idx) {
    PyErr_Clear();
    throw TypeError(std::string("'") + Py_TYPE(obj.ptr())->tp_name +
                    "' object cannot be interpreted as an integer (" + what + ")");
  }
  const long long v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

DType dlpack_dtype(nb::dlpack::dtype dt) {
  using Code = nb::dlpack::dtype_code;
  const auto code = static_cast<Code>(dt.code);
  const int bits = dt.bits;
  switch (code) {
    case Code::Bool:
      return DType::Bool;
    case Code::Int:
      return bits == 8    ? DType::Int8
             : bits == 16 ? DType::Int16
             : bits == 32 ? DType::Int32
                          : DType::Int64;
    case Code::UInt:
      return bits == 8    ? DType::UInt8
             : bits == 16 ? DType::UInt16
             : bits == 32 ? DType::UInt32
                          : DType::UInt64;
    case Code::Float:
      return bits == 16 ? DType::Float16 : bits == 32 ? DType::Float32 : DType::Float64;
    case Code::Bfloat:
      return DType::BFloat16;
    case Code::Complex:
      return bits == 64 ? DType::Complex64 : DType::Complex128;
    default:
      break;
  }
  throw TypeError("unsupported array element type (DLPack code " + std::to_string(dt.code) + ", " +
                  std::to_string(bits) + " bits)");
}

nb::dlpack::dtype to_dlpack(DType dt) {
  using Code = nb::dlpack::dtype_code;
  nb::dlpack::dtype d{};
  d.lanes = 1;
  d.bits = static_cast<uint8_t>(itemsize(dt) * 8);
  switch (kind(dt)) {
    case DTypeKind::Bool:
      d.code = uint8_t(Code::Bool);
      break;
    case DTypeKind::SignedInt:
      d.code = uint8_t(Code::Int);
      break;
    case DTypeKind::UnsignedInt:
      d.code = uint8_t(Code::UInt);
      break;
    case DTypeKind::Float:
      d.code = uint8_t(Code::Float);
      break;
    case DTypeKind::Complex:
      d.code = uint8_t(Code::Complex);
      break;
  }
  if (dt == DType::BFloat16)
    d.code = uint8_t(Code::UInt);  // exported as uint16, viewed as bfloat16
  return d;
}

}  // namespace

std::shared_ptr<void> hold(nb::handle obj) {
  PyObject* p = obj.ptr();
  Py_INCREF(p);
  return std::shared_ptr<void>(p, [](void* q) {
    nb::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(q));
  });
}

void set_dtype_objects(nb::list dtypes, nb::object loader) {
  if (nb::len(dtypes) != size_t(kNumDTypes))
    throw ValueError("expected one dtype object per DType");
  for (int i = 0; i < kNumDTypes; ++i) {
    g_dtypes[i] = dtypes[i];
    g_types[i] = dtypes[i].is_none() ? nb::none() : dtypes[i].attr("type");
  }
  g_dtype_loader = std::move(loader);
  nb::module_ np = nb::module_::import_("numpy");
  g_numpy_dtype = np.attr("dtype");
  g_numpy_generic = np.attr("generic");
  g_numpy_ndarray = np.attr("ndarray");
}

void set_asarray(nb::object fn) { g_asarray = std::move(fn); }

nb::object dtype_object(DType dt) {
  if (g_dtypes[static_cast<int>(dt)].is_none()) load_lazy_dtypes(false);
  return g_dtypes[static_cast<int>(dt)];
}

std::optional<DType> to_dtype_opt(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_dtype(obj);
}

DType to_dtype(nb::handle obj) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (g_dtypes[i].is_none()) continue;
    if (obj.is(g_dtypes[i]) || obj.is(g_types[i])) return static_cast<DType>(i);
  }
  if (obj.is((PyObject*)&PyBool_Type)) return DType::Bool;
  if (obj.is((PyObject*)&PyLong_Type)) return kDefaultInt;
  if (obj.is((PyObject*)&PyFloat_Type)) return kDefaultFloat;
  if (obj.is((PyObject*)&PyComplex_Type)) return kDefaultComplex;
  nb::object dt;
  try {
    dt = g_numpy_dtype(obj);
  } catch (nb::python_error&) {
    // "bfloat16" names a dtype once ml_dtypes is imported.
    if (!nb::isinstance<nb::str>(obj) || nb::cast<std::string>(obj) != "bfloat16")
      throw TypeError("data type " + py_repr(obj) + " not understood");
    load_lazy_dtypes(false);
    return DType::BFloat16;
  }
  load_lazy_dtypes(true);
  for (int i = 0; i < kNumDTypes; ++i) {
    if (!g_dtypes[i].is_none() && dt.equal(g_dtypes[i])) return static_cast<DType>(i);
  }
  throw TypeError("accelpy does not support dtype " + py_repr(dt) +
                  "; supported: bool, int8-64, uint8-64, float16, bfloat16, float32, float64, "
                  "complex64, complex128");
}

namespace {

// A Python int (not bool) as a weak scalar: int64, else uint64, else, past 64 bits, its nearest
// double as weak_huge_int (an integer to the type rules that only inexact dtypes hold).
Scalar python_int(PyObject* p) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
  if (!overflow) return Scalar::weak_int(v);
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(p);
    if (!PyErr_Occurred()) return Scalar::weak_uint(u);
    PyErr_Clear();
  }
  const double d = PyLong_AsDouble(p);
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return Scalar::weak_huge_int(d);
}

}  // namespace

std::optional<Scalar> numpy_builtin_scalar(PyObject* p) {
  for (int i = 0; i < kNumDTypes; ++i) {
    // NumPy's own scalar types, read directly (bfloat16's, ml_dtypes', is not one of them).
    if (i == int(DType::BFloat16) ||
        Py_TYPE(p) != reinterpret_cast<PyTypeObject*>(g_types[i].ptr()))
      continue;
    alignas(16) unsigned char bytes[16];
    numpy_scalar_bytes(p, bytes);
    return Scalar::from_bytes(DType(i), bytes);
  }
  return std::nullopt;
}

std::optional<Scalar> to_scalar(nb::handle obj) {
  PyObject* p = obj.ptr();
  if (PyBool_Check(p)) return Scalar::weak_bool(p == Py_True);
  if (PyLong_Check(p)) {
    // Creation, bounds and fill values need a value of their own: past 64 bits is an error
    // here; elementwise operands (to_operand) and inexact targets (to_scalar_for) take it.
    const Scalar s = python_int(p);
    if (s.is_huge_int()) {
      throw OverflowError("Python integer " + py_repr(obj) + " out of bounds for int64");
    }
    return s;
  }
  if (PyFloat_CheckExact(p)) return Scalar::weak_float(PyFloat_AS_DOUBLE(p));
  if (PyComplex_CheckExact(p)) {
    return Scalar::weak_complex({PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p)});
  }
  // NumPy's scalars are typed (NEP 50), numpy.float64 and numpy.complex128 too, although they
  // subclass Python's float and complex: float32 array + float64(1) is float64, as in NumPy.
  if (std::optional<Scalar> s = numpy_builtin_scalar(p)) return s;
  if (g_numpy_generic.is_valid() && PyObject_IsInstance(p, g_numpy_generic.ptr()) == 1) {
    const DType dt = to_dtype(obj.attr("dtype"));
    nb::object v = obj.attr("item")();
    std::optional<Scalar> s = to_scalar(v);
    if (!s) return std::nullopt;
    return s->cast(dt);
  }
  if (PyFloat_Check(p)) return Scalar::weak_float(PyFloat_AS_DOUBLE(p));
  if (PyComplex_Check(p)) {
    return Scalar::weak_complex({PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p)});
  }
  return std::nullopt;
}

std::optional<Scalar> to_scalar_for(nb::handle obj, std::optional<DType> dtype) {
  PyObject* p = obj.ptr();
  if (!dtype || !PyLong_Check(p) || PyBool_Check(p)) return to_scalar(obj);
  const Scalar s = python_int(p);
  if (!s.is_huge_int()) return s;
  if (is_inexact(*dtype)) return Scalar::weak_float(s.as_double());
  throw OverflowError("Python integer " + py_repr(obj) + " out of bounds for " +
                      std::string(dtype_name(*dtype)));
}

Array to_array(nb::handle obj, std::optional<Device> device) {
  if (nb::isinstance<Array>(obj)) return nb::cast<Array>(obj);
  if (std::optional<Array> a = small_sequence(obj, device)) return std::move(*a);
  nb::object dev = device ? nb::cast(*device) : nb::none();
  nb::object out = g_asarray(obj, nb::arg("device") = dev);
  if (!nb::isinstance<Array>(out)) {
    // accelpy.asarray gives records (a structured dtype) as one array per field, which no
    // operation of the core takes whole.
    throw TypeError(
        "accelpy's operations take arrays of numbers, not records (a structured "
        "array): apply it to the fields, x['name'], or to numpy.asarray(x); got " +
        py_repr(nb::getattr(out, "dtype", nb::none())));
  }
  return nb::cast<Array>(out);
}

const Array* as_array(nb::handle obj) {
  static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(nb::type<Array>().ptr());
  PyTypeObject* t = Py_TYPE(obj.ptr());
  if (t != type && !PyType_IsSubtype(t, type)) return nullptr;
  // An instance made by __new__ alone holds no Array yet: nanobind's cast raises its error.
  return nb::inst_ready(obj) ? nb::inst_ptr<Array>(obj) : &nb::cast<const Array&>(obj);
}

std::optional<ArrayOrScalar> to_operand(nb::handle obj, std::optional<Device> device) {
  if (const Array* a = as_array(obj)) return ArrayOrScalar(*a);
  PyObject* p = obj.ptr();
  // Past 64 bits still an operand for inexact arrays, as in NumPy (float32 + 2**64).
  if (PyLong_Check(p) && !PyBool_Check(p)) return ArrayOrScalar(python_int(p));
  if (std::optional<Scalar> s = to_scalar(obj)) return ArrayOrScalar(*s);
  if (PyList_Check(p) || PyTuple_Check(p) || PyObject_IsInstance(p, g_numpy_ndarray.ptr()) == 1) {
    return ArrayOrScalar(to_array(obj, device));
  }
  // Other libraries' arrays (CuPy, PyTorch, Numba, JAX...) come in through their exchange
  // protocols, without copies (accelpy.asarray).
  if (PyObject_HasAttrString(p, "__cuda_array_interface__") ||
      PyObject_HasAttrString(p, "__dlpack__")) {
    return ArrayOrScalar(to_array(obj, device));
  }
  return std::nullopt;
}

Device to_device(nb::handle obj) {
  if (obj.is_none()) return default_device();
  if (nb::isinstance<Device>(obj)) return nb::cast<Device>(obj);
  if (nb::isinstance<nb::str>(obj)) return Device::parse(nb::cast<std::string>(obj));
  throw TypeError("expected a device ('cpu', 'cuda:0' or accelpy.device), got " + py_repr(obj));
}

std::optional<Device> to_device_opt(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_device(obj);
}

int64_t to_axis(nb::handle obj, const char* what) {
  if (PyBool_Check(obj.ptr())) {
    throw TypeError(std::string("'bool' object cannot be interpreted as an integer (") + what +
                    ")");
  }
  return to_int64(obj, what);
}

Axes to_axes(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  std::vector<int64_t> axes;
  if (PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr())) {
    for (nb::handle h : obj) axes.push_back(to_axis(h));
  } else {
    axes.push_back(to_axis(obj));
  }
  return axes;
}

namespace {
// A dimension past 64 bits is NumPy's ValueError (it checks sizes before converting), not the
// conversion's OverflowError.
int64_t to_dimension(nb::handle h) {
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow) throw ValueError("Maximum allowed dimension exceeded");
    if (v != -1 || !PyErr_Occurred()) return v;
    PyErr_Clear();
  }
  return to_int64(h, "shape");
}
}  // namespace

Shape to_shape(nb::handle obj) {
  Shape shape;
  if (PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr())) {
    for (nb::handle h : obj) shape.push_back(to_dimension(h));
  } else {
    shape.push_back(to_dimension(obj));
  }
  return shape;
}

namespace {
// Whether p is a NumPy array (with `scalar_int`: a 0-d array of an integer dtype).
bool is_numpy_array(PyObject* p, bool scalar_int) {
  if (!g_numpy_ndarray.is_valid() || PyObject_IsInstance(p, g_numpy_ndarray.ptr()) != 1) {
    return false;
  }
  if (!scalar_int) return true;
  nb::handle h(p);
  return nb::cast<int>(h.attr("ndim")) == 0 &&
         nb::cast<std::string>(h.attr("dtype").attr("kind")).find_first_of("iu") == 0;
}
}  // namespace

namespace {

// NumPy's IndexError for what is no index, Python ints past 64 bits among them: NumPy makes an
// object array of a list of them, which is no integer array.
constexpr const char* kNotAnIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices";

// `convert()`, with the OverflowError of a sequence holding Python ints past 64 bits (the
// conversion's, accelpy._huge_ints) as NumPy's IndexError.
template <class F>
Array huge_ints_as_index_error(F convert) {
  try {
    return convert();
  } catch (nb::python_error& e) {
    if (e.matches(PyExc_OverflowError)) throw IndexError(kNotAnIndex);
    throw;
  }
}

}  // namespace

std::vector<Index> to_index(nb::handle obj, std::optional<Device> device) {
  std::vector<Index> out;
  auto one = [&](nb::handle h) {
    PyObject* p = h.ptr();
    if (PyLong_CheckExact(p)) {
      // The common index, a Python int, without the protocol checks below.
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
      if (overflow == 0) {
        out.push_back(int64_t(v));
        return;
      }
    }
    if (p == Py_None) {
      out.push_back(NewAxis{});
    } else if (p == Py_Ellipsis) {
      out.push_back(Ellipsis{});
    } else if (PySlice_Check(p)) {
      // Python's own unpacking: bounds beyond int64 clamp (a[:2**70] is a[:]), step 0 raises.
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(p, &start, &stop, &step) < 0) throw nb::python_error();
      out.push_back(Slice{start, stop, step});
    } else if (!PyBool_Check(p) && PyIndex_Check(p) && !is_numpy_array(p, false) &&
               !nb::isinstance<Array>(h)) {
      // Past 64 bits an index is out of bounds of any axis: IndexError, as in NumPy.
      nb::object i = nb::steal(PyNumber_Index(p));
      if (!i.is_valid()) throw nb::python_error();
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
      if (overflow != 0) throw IndexError(kNotAnIndex);
      if (v == -1 && PyErr_Occurred()) throw nb::python_error();
      out.push_back(int64_t(v));
    } else if (is_numpy_array(p, true)) {
      out.push_back(to_int64(h, "index"));  // a 0-d integer array indexes as its value
    } else if (PyList_Check(p) || PyTuple_Check(p) || PyBool_Check(p) || nb::isinstance<Array>(h) ||
               PyObject_IsInstance(p, g_numpy_ndarray.ptr()) == 1 ||
               PyObject_HasAttrString(p, "__array__") ||
               // Other sequences (range) index as the arrays they convert to, as in NumPy;
               // strings do not.
               (PySequence_Check(p) && !PyUnicode_Check(p) && !PyBytes_Check(p))) {
      Array arr = huge_ints_as_index_error([&] { return to_array(h, device); });
      if (arr.ndim() == 0 && is_integer(arr.dtype())) {
        int64_t v = 0;  // a 0-d integer array indexes as its value (basic indexing), as in NumPy
        to_host(astype(arr, DType::Int64), &v);
        out.push_back(v);
      } else {
        // An empty list converts to float64; as an index it means no elements.
        if (arr.size() == 0 && !nb::isinstance<Array>(h) && is_floating(arr.dtype()))
          arr = astype(arr, DType::Int64);
        out.push_back(std::move(arr));
      }
    } else {
      throw IndexError(kNotAnIndex);
    }
  };
  if (PyTuple_Check(obj.ptr())) {
    // The tuple's items directly: an iterator object per key cost as much as parsing it.
    const Py_ssize_t n = PyTuple_GET_SIZE(obj.ptr());
    out.reserve(size_t(n));
    for (Py_ssize_t i = 0; i < n; ++i) one(PyTuple_GET_ITEM(obj.ptr(), i));
  } else {
    one(obj);
  }
  return out;
}

nb::tuple shape_tuple(const Shape& shape) {
  PyObject* t = PyTuple_New(Py_ssize_t(shape.size()));
  for (size_t i = 0; i < shape.size(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(shape[i]));
  return nb::steal<nb::tuple>(t);
}

nb::object to_python_scalar(const Array& a) {
  alignas(16) unsigned char bytes[16];
  to_host(a, bytes);
  const Scalar s = Scalar::from_bytes(a.dtype(), bytes);
  switch (s.kind()) {
    case DTypeKind::Bool:
      return nb::bool_(s.as_bool());
    case DTypeKind::SignedInt:
      return nb::int_(s.as_int());
    case DTypeKind::UnsignedInt:
      return nb::steal(PyLong_FromUnsignedLongLong(s.as_uint()));
    case DTypeKind::Float:
      return nb::float_(s.as_double());
    case DTypeKind::Complex:
      return nb::cast(s.as_complex());
  }
  return nb::none();
}

nb::object host_copy(const Array& a) {
  if (a.device().is_cpu()) return to_numpy(a, true);
  // A fresh host array: NumPy may have it, no further copy or barrier needed.
  return to_numpy(to_device(a, Device::cpu()), false);
}

nb::object to_numpy(const Array& a, std::optional<bool> copy) {
  if (!a.device().is_cpu()) {
    throw TypeError(
        "Implicit conversion to a NumPy array is not allowed for an array on " + a.device().str() +
        ". Please use `.get()` or `accelpy.asnumpy()` to construct a NumPy array explicitly.");
  }
  Array src = a;
  if (copy.value_or(false)) {
    src = accel::copy(a);
    src.eval();
  } else {
    src.eval();
    // NumPy may write through the view it gets: pending readers must see the current data.
    // The memory may also come back wrapped in another storage, whose writes must reach this
    // storage's readers.
    prepare_write(*src.storage());
    src.storage()->mark_shared();
  }
  std::vector<size_t> shape(src.shape().begin(), src.shape().end());
  auto* keep = new Array(src);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Array*>(p); });
  void* data = src.size() ? src.data() : src.storage()->data();
  nb::object out;
  if (src.writeable()) {
    out = nb::cast(nb::ndarray<nb::numpy>(data, shape.size(), shape.data(), owner,
                                          src.strides().data(), to_dlpack(src.dtype())));
  } else {
    out = nb::cast(nb::ndarray<nb::numpy, nb::ro>(data, shape.size(), shape.data(), owner,
                                                  src.strides().data(), to_dlpack(src.dtype())));
  }
  // bfloat16 travels as uint16; int64 may arrive as 'q' where NumPy's own int64 is 'l', which
  // repr would then spell out. Use the registered dtype object itself.
  if (!out.attr("dtype").is(dtype_object(src.dtype())))
    out = out.attr("view")(dtype_object(src.dtype()));
  return out;
}

Array from_numpy(nb::handle arr, std::optional<DType> dtype, std::optional<Device> device,
                 std::optional<bool> copy, bool unreferenced) {
  nb::object np_arr = nb::borrow(arr);
  load_lazy_dtypes(true);
  const nb::object& bf16 = g_dtypes[int(DType::BFloat16)];
  const bool is_bf16 = !bf16.is_none() && nb::getattr(arr, "dtype").equal(bf16);
  if (is_bf16) np_arr = np_arr.attr("view")(g_dtypes[int(DType::UInt16)]);
  auto t = nb::cast<nb::ndarray<nb::ro, nb::device::cpu>>(np_arr);
  const DType src_dt = is_bf16 ? DType::BFloat16 : dlpack_dtype(t.dtype());
  Shape shape;
  Strides strides;
  for (size_t i = 0; i < t.ndim(); ++i) {
    shape.push_back(int64_t(t.shape(i)));
    strides.push_back(t.stride(i));
  }
  const bool writeable = nb::cast<bool>(arr.attr("flags").attr("writeable"));
  const Array wrapped = Array::wrap(const_cast<void*>(static_cast<const void*>(t.data())), src_dt,
                                    shape, strides, Device::cpu(), hold(arr), writeable,
                                    /*shared=*/!unreferenced);
  const Device dev = device.value_or(default_device());
  const DType dt = dtype.value_or(src_dt);
  const bool zero_copy = dev.is_cpu() && dt == src_dt && !copy.value_or(false);
  if (zero_copy) return wrapped;
  if (copy.has_value() && !*copy) {
    throw ValueError("Unable to avoid copy while creating an array as requested.");
  }
  // Copy now: the NumPy array may change after this call returns.
  Array out = to_device(astype(wrapped, dt, dev.is_cpu()), dev);
  out.eval();
  return out;
}

}  // namespace accel::python
