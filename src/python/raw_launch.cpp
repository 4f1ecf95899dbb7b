// The launch path of users' kernels. Per launch it creates no Python object and allocates
// nothing: types are recognised by pointer comparison (accelpy arrays, exact ints and floats,
// NumPy scalar types seen before), values are copied into an inline buffer, and the checks and
// cuLaunchKernel live in src/cuda/raw_kernel.cpp.
#include "src/python/raw_launch.hpp"

#include <chrono>
#include <cstring>
#include <exception>

#include "accel/cuda.hpp"
#include "accel/storage.hpp"
#include "src/python/process_ref.hpp"

namespace accel::python {

namespace {

PyTypeObject* g_array_type = nullptr;  // accelpy.ndarray
ProcessRef g_numpy_generic;            // numpy.generic
ProcessRef g_numpy_void;               // numpy.void (its data may live outside the object)
ProcessRef g_raise_pending;            // re-raises t_pending through nanobind's translators
thread_local std::exception_ptr t_pending;
const char* const kNames[] = {"grid", "block", "args", "shared_mem", "stream"};
std::array<ProcessRef, 5> g_call_names;  // kNames, interned

bool is_array(PyObject* o) {
  return Py_TYPE(o) == g_array_type || PyType_IsSubtype(Py_TYPE(o), g_array_type);
}

// NumPy scalar types whose value lives inside the object at a fixed offset, learned from the
// buffer protocol the first time a type is seen (the later reads copy the same bytes the buffer
// protocol would give). Each type is referenced for good, so an address is never reused by a
// different type. A handful of entries: the dtypes a program passes to its kernels.
struct ScalarLayout {
  PyTypeObject* type = nullptr;
  uint32_t offset = 0;
  uint32_t size = 0;
};
std::array<ScalarLayout, 32> g_scalar_layouts;

const ScalarLayout* known_scalar(PyTypeObject* t) {
  for (const ScalarLayout& s : g_scalar_layouts) {
    if (s.type == t) return &s;
    if (!s.type) break;
  }
  return nullptr;
}

void learn_scalar(PyObject* o, const Py_buffer& view) {
  PyTypeObject* t = Py_TYPE(o);
  const auto* base = reinterpret_cast<const char*>(o);
  const auto* buf = static_cast<const char*>(view.buf);
  const bool inside = buf >= base && buf + view.len <= base + t->tp_basicsize;
  if (!inside || t->tp_itemsize != 0 || !g_numpy_generic.is_valid() ||
      !PyType_IsSubtype(t, reinterpret_cast<PyTypeObject*>(g_numpy_generic.ptr())) ||
      PyType_IsSubtype(t, reinterpret_cast<PyTypeObject*>(g_numpy_void.ptr()))) {
    return;
  }
  for (ScalarLayout& s : g_scalar_layouts) {
    if (s.type) continue;
    Py_INCREF(t);
    s = {t, uint32_t(buf - base), uint32_t(view.len)};
    return;
  }
}

// The bytes of each argument, 16-byte aligned so that any scalar is aligned: a fixed inline
// buffer (launches allocate nothing), and separate blocks for what does not fit; pointers into
// either stay valid until the launch.
class ArgPack {
 public:
  unsigned char* reserve(size_t n) {
    const size_t at = (used_ + 15) & ~size_t(15);
    if (at + n > sizeof(inline_)) {
      heap_.emplace_back(n + 16);
      return heap_.back().data();
    }
    used_ = at + n;
    return inline_ + at;
  }

 private:
  alignas(16) unsigned char inline_[512];
  size_t used_ = 0;
  std::vector<std::vector<unsigned char>> heap_;
};

using Arg = cuda::RawFunction::Arg;

inline Arg put(ArgPack& pack, const void* src, size_t size, const char* what) {
  unsigned char* dst = pack.reserve(size);
  // Pointers and ints, the usual sizes, copy without a call.
  if (size == 8) {
    std::memcpy(dst, src, 8);
  } else if (size == 4) {
    std::memcpy(dst, src, 4);
  } else {
    std::memcpy(dst, src, size);
  }
  return Arg{dst, size, what};
}

// An accelpy array as its device pointer. The kernel may write any pointer it is given: pending
// work on the array is computed, pending readers of its memory run first (the write barrier),
// and caches keyed by the data see a new version.
// `device` is -1 for a launch on the CPU device.
template <class Fn>
Arg array_arg(PyObject* o, size_t i, int device, const Fn& fn, ArgPack& pack) {
  if (!nb::inst_ready(o)) {
    throw TypeError("kernel '" + fn.name() + "': argument " + std::to_string(i) +
                    " is an accelpy.ndarray that was never initialized");
  }
  const Array& arr = *nb::inst_ptr<Array>(o);
  const Device d = arr.device();
  if (device < 0 ? !d.is_cpu() : (!d.is_cuda() || d.index != device)) {
    const std::string where = device < 0 ? "cpu" : "cuda:" + std::to_string(device);
    throw ValueError("kernel '" + fn.name() + "': argument " + std::to_string(i) +
                     " is an array on " + d.str() + "; the kernel runs on " + where +
                     " (move it with .to(\"" + where + "\"))");
  }
  arr.eval();
  prepare_write(*arr.storage());  // also bumps the version
  void* p = arr.size() ? arr.data() : arr.storage()->data();
  Arg a = put(pack, &p, sizeof(p), "an array (a pointer)");
  a.lo = arr.storage()->data();
  a.hi = static_cast<const char*>(a.lo) + arr.storage()->nbytes();
  return a;
}

// A Python int takes the size of its parameter when the driver reports it (int or long long),
// else 8 bytes (as CuPy passes it).
template <class Fn>
Arg int_arg(PyObject* o, size_t i, size_t want, const Fn& fn, ArgPack& pack) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (want == 4) {
    if (overflow || v < -(1LL << 31) || v >= (1LL << 32)) {
      throw OverflowError("kernel '" + fn.name() + "': " + fn.describe_param(i) +
                          " cannot hold the Python int " + nb::str(o).c_str());
    }
    const int32_t v32 = int32_t(uint32_t(v));
    return put(pack, &v32, 4, "a Python int");
  }
  if (overflow) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      throw OverflowError("kernel '" + fn.name() + "': argument " + std::to_string(i) +
                          " does not fit in 64 bits");
    }
    std::memcpy(&v, &u, 8);
  }
  return put(pack, &v, 8, "a Python int (int64)");
}

// One argument as bytes in `pack` (the data pointer is filled in once all are packed). The
// common kinds come first, by exact type.
template <class Fn>
Arg convert(PyObject* o, size_t i, size_t want, int device, const Fn& fn, ArgPack& pack) {
  PyTypeObject* t = Py_TYPE(o);
  if (t == g_array_type) return array_arg(o, i, device, fn, pack);
  if (const ScalarLayout* s = known_scalar(t)) {
    return put(pack, reinterpret_cast<const char*>(o) + s->offset, s->size, "a NumPy scalar");
  }
  if (t == &PyLong_Type) return int_arg(o, i, want, fn, pack);
  if (t == &PyFloat_Type) {
    const double v = PyFloat_AS_DOUBLE(o);
    return put(pack, &v, 8, "a float64 (Python floats are doubles)");
  }
  if (is_array(o)) return array_arg(o, i, device, fn, pack);
  if (PyBool_Check(o)) {
    const bool v = o == Py_True;
    return put(pack, &v, 1, "a Python bool");
  }
  if (PyLong_Check(o)) return int_arg(o, i, want, fn, pack);
  if (PyFloat_Check(o)) {
    const double v = PyFloat_AsDouble(o);
    return put(pack, &v, 8, "a float64 (Python floats are doubles)");
  }
  if (PyComplex_Check(o)) {
    const double v[2] = {PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)};
    return put(pack, v, 16, "a Python complex (complex128)");
  }
  if (PyBytes_Check(o)) {  // a struct, by value
    return put(pack, PyBytes_AS_STRING(o), size_t(PyBytes_GET_SIZE(o)), "bytes");
  }
  if (PyObject_CheckBuffer(o)) {
    Py_buffer view;
    if (PyObject_GetBuffer(o, &view, PyBUF_RECORDS_RO) == 0) {
      const bool scalar = view.ndim == 0;
      Arg r{nullptr, 0, "a NumPy scalar"};
      if (scalar) {
        r = put(pack, view.buf, size_t(view.len), "a NumPy scalar");
        learn_scalar(o, view);
      }
      PyBuffer_Release(&view);
      if (scalar) return r;
    } else {
      PyErr_Clear();
    }
  }
  nb::handle h(o);
  if (nb::hasattr(h, "__cuda_array_interface__")) {
    nb::object data = h.attr("__cuda_array_interface__")["data"];
    const uintptr_t p = nb::cast<uintptr_t>(data[0]);
    return put(pack, &p, sizeof(p), "a CUDA array (a pointer)");
  }
  throw TypeError("kernel '" + fn.name() + "': argument " + std::to_string(i) + " (" +
                  fn.describe_param(i) + ") is a " + nb::type_name(h.type()).c_str() +
                  "; expected an accelpy CUDA array, an object with "
                  "__cuda_array_interface__, a NumPy scalar (numpy.int32(n), ...) or a Python "
                  "int/float/bool. Copy NumPy arrays to the GPU first (accelpy.asarray, or "
                  "driver.In/Out/InOut)");
}

// The arguments of one launch, packed (inline up to 32 of them).
struct PackedArgs {
  ArgPack pack;
  static constexpr size_t kInline = 32;
  Arg inline_out[kInline];
  std::vector<Arg> heap_out;
  Arg* out = inline_out;
  size_t n = 0;
  int device = 0;
};

void check_args_sequence(PyObject* args) {
  if (!PyTuple_Check(args) && !PyList_Check(args)) {
    throw TypeError(std::string("args must be a tuple or list of kernel arguments, got ") +
                    nb::type_name(nb::handle(args).type()).c_str());
  }
}

// The launch device: that of the first CUDA array argument, else the CPU device when the
// arrays are on cpu, else the current device; -1 stands for the CPU device (also without a
// GPU, or with ACCELPY_KERNELS_ON_CPU=1).
int launch_device(PyObject** items, size_t n) {
  static const bool forced = cpu::kernels_forced_on_cpu();
  if (forced) return -1;
  bool cpu_array = false;
  for (size_t i = 0; i < n; ++i) {
    if (is_array(items[i]) && nb::inst_ready(items[i])) {
      const Device d = nb::inst_ptr<Array>(items[i])->device();
      if (d.is_cuda()) return d.index;
      cpu_array = true;
    }
  }
  if (cpu_array) return -1;
  const Device d = default_device();
  if (d.is_cuda()) return d.index;
  return cuda::is_available() ? 0 : -1;
}

template <class Fn>
void pack_with(const Fn& fn, PyObject** items, PackedArgs& p) {
  const auto& params = fn.params();
  if (p.n > PackedArgs::kInline) {
    p.heap_out.resize(p.n);
    p.out = p.heap_out.data();
  }
  for (size_t i = 0; i < p.n; ++i) {
    const size_t want = params && i < params->size() ? (*params)[i].size : 0;
    p.out[i] = convert(items[i], i, want, p.device, fn, p.pack);
  }
}

// `args` (a tuple or list) packed for the kernel's function on the launch device: `fn` is set
// for a CUDA device, `cpu_fn` for the CPU device.
void pack_args(BoundKernel& k, PyObject* args, PackedArgs& p, cuda::RawFunction*& fn,
               cpu::UserKernel*& cpu_fn) {
  PyObject** items = PySequence_Fast_ITEMS(args);
  p.n = size_t(PySequence_Fast_GET_SIZE(args));
  p.device = launch_device(items, p.n);
  if (p.device < 0) {
    cpu_fn = &k.cpu_function();
    pack_with(*cpu_fn, items, p);
  } else {
    fn = &k.function(p.device);
    pack_with(*fn, items, p);
  }
}

// Converts the exception in flight to the Python error nanobind's translators would raise.
PyObject* raise_current_exception() noexcept {
  t_pending = std::current_exception();
  PyObject* r = PyObject_CallNoArgs(g_raise_pending.ptr());
  Py_XDECREF(r);
  t_pending = nullptr;
  return nullptr;
}

size_t to_shared_mem(PyObject* o) {
  if (!PyIndex_Check(o)) {
    throw TypeError(std::string("shared_mem must be an int (bytes of dynamic shared memory), "
                                "got ") +
                    nb::type_name(nb::handle(o).type()).c_str());
  }
  nb::object idx = nb::steal(PyNumber_Index(o));
  if (!idx.is_valid()) throw nb::python_error();
  const long long v = PyLong_AsLongLong(idx.ptr());
  if (v == -1 && PyErr_Occurred()) PyErr_Clear();
  if (v < 0 || v > 0xffffffffLL) {
    throw ValueError("shared_mem is " + std::string(nb::str(o).c_str()) +
                     " bytes; it must be between 0 and 2**32 - 1");
  }
  return size_t(v);
}

}  // namespace

void to_dims(nb::handle obj, unsigned out[3], const char* what) {
  out[0] = out[1] = out[2] = 1;
  auto one = [&](PyObject* v, int i) {
    if (!PyIndex_Check(v)) {
      throw TypeError(std::string(what) + " must be an int or a tuple of up to 3 ints, got " +
                      nb::type_name(nb::handle(v).type()).c_str());
    }
    long long x = -1;
    if (PyLong_CheckExact(v)) {
      x = PyLong_AsLongLong(v);
    } else {
      nb::object idx = nb::steal(PyNumber_Index(v));
      if (!idx.is_valid()) throw nb::python_error();
      x = PyLong_AsLongLong(idx.ptr());
    }
    if (x == -1 && PyErr_Occurred()) {  // beyond 64 bits: the range message below
      PyErr_Clear();
      x = -1;
    }
    if (x < 0 || x > 0xffffffffLL) {
      throw ValueError(std::string(what) + " dimension " + "xyz"[i] + " is " +
                       nb::str(nb::handle(v)).c_str() + "; it must be between 1 and 2**32 - 1");
    }
    out[i] = unsigned(x);
  };
  PyObject* o = obj.ptr();
  if (PyTuple_Check(o) || PyList_Check(o)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    if (n < 1 || n > 3) {
      throw ValueError(std::string(what) + " must have 1 to 3 dimensions, got " +
                       std::to_string(n));
    }
    PyObject** items = PySequence_Fast_ITEMS(o);
    for (Py_ssize_t i = 0; i < n; ++i) one(items[i], int(i));
  } else {
    one(o, 0);
  }
}

// What every launch checks and packs: the configuration into `g` and `b`, the arguments into
// `p`; sets the function for the arguments' device (`fn` on a GPU, `cpu_fn` on the CPU).
void prepare_launch(BoundKernel& k, PyObject* grid, PyObject* block, PyObject* args, unsigned g[3],
                    unsigned b[3], PackedArgs& p, cuda::RawFunction*& fn,
                    cpu::UserKernel*& cpu_fn) {
  check_args_sequence(args);
  to_dims(grid, g, "grid");
  to_dims(block, b, "block");
  pack_args(k, args, p, fn, cpu_fn);
}

void launch_on_cpu(const cpu::UserKernel& fn, const unsigned g[3], const unsigned b[3],
                   size_t shared_mem, const PackedArgs& p) {
  nb::gil_scoped_release nogil;
  fn.launch(g, b, shared_mem, p.out, p.n);
}

uintptr_t to_stream(nb::handle s) {
  if (s.is_none()) return 0;
  if (PyLong_Check(s.ptr())) return nb::cast<uintptr_t>(s);
  for (const char* attr : {"ptr", "handle"}) {
    if (nb::hasattr(s, attr)) return nb::cast<uintptr_t>(s.attr(attr));
  }
  throw TypeError(std::string("stream must be None, a stream (with .ptr or .handle) or a "
                              "CUstream handle, got ") +
                  nb::type_name(s.type()).c_str());
}

cuda::RawFunction& BoundKernel::function(int device) {
  if (device >= 0 && device < int(fns.size()) && fns[size_t(device)]) {
    return *fns[size_t(device)];
  }
  if (!cuda::is_available()) throw Error("CUDA is not available: " + cuda::unavailable_reason());
  if (device < 0 || device >= int(fns.size())) throw ValueError("bad device index");
  auto& slot = fns[size_t(device)];
  slot = module.function(name, device);
  if (!param_names.empty()) slot->set_param_names(param_names);
  return *slot;
}

cpu::UserKernel& BoundKernel::cpu_function() {
  if (!cpu_fn) {
    cpu_fn = cpu::UserModule::get(module.spec())->function(name);
    cpu_fn->set_param_names(param_names);
  }
  return *cpu_fn;
}

void BoundKernel::launch(PyObject* grid, PyObject* block, PyObject* args, size_t shared_mem,
                         PyObject* stream) {
  unsigned g[3], b[3];
  PackedArgs p;
  cuda::RawFunction* fn = nullptr;
  cpu::UserKernel* cpu_fn = nullptr;
  prepare_launch(*this, grid, block, args, g, b, p, fn, cpu_fn);
  if (cpu_fn) {
    to_stream(stream);  // checked as on a GPU; the CPU launch is synchronous
    launch_on_cpu(*cpu_fn, g, b, shared_mem, p);
  } else {
    fn->launch(g, b, shared_mem, to_stream(stream), p.out, p.n);
  }
}

double BoundKernel::time_launches(PyObject* grid, PyObject* block, PyObject* args, size_t count) {
  unsigned g[3], b[3];
  PackedArgs p;
  cuda::RawFunction* fn = nullptr;
  cpu::UserKernel* cpu_fn = nullptr;
  prepare_launch(*this, grid, block, args, g, b, p, fn, cpu_fn);
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < count; ++i) {
    if (cpu_fn) {
      launch_on_cpu(*cpu_fn, g, b, 0, p);
    } else {
      fn->launch(g, b, 0, 0, p.out, p.n);
    }
  }
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  return count ? dt.count() / double(count) : 0.0;
}

PyObject* kernel_call(PyObject* self, PyObject* args, PyObject* kwargs) noexcept {
  try {
    if (!nb::inst_ready(self)) {
      throw TypeError(
          "the kernel was not initialized (a subclass's __init__ must call "
          "super().__init__)");
    }
    // grid, block, args: positional or by name; shared_mem and stream by name only.
    PyObject* given[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
    const Py_ssize_t npos = PyTuple_GET_SIZE(args);
    if (npos > 3) {
      throw TypeError("__call__() takes 3 positional arguments (grid, block, args), " +
                      std::to_string(npos) + " given; shared_mem and stream are keyword-only");
    }
    for (Py_ssize_t i = 0; i < npos; ++i) given[i] = PyTuple_GET_ITEM(args, i);
    if (kwargs) {
      Py_ssize_t pos = 0;
      PyObject *key, *value;
      while (PyDict_Next(kwargs, &pos, &key, &value)) {
        // Names in a call's source are interned: identity first, then by value.
        int which = -1;
        for (int j = 0; j < 5 && which < 0; ++j) {
          if (key == g_call_names[j].ptr()) which = j;
        }
        for (int j = 0; j < 5 && which < 0; ++j) {
          if (PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, kNames[j]) == 0) {
            which = j;
          }
        }
        if (which < 0) {
          throw TypeError("__call__() got an unexpected keyword argument '" +
                          std::string(nb::str(key).c_str()) +
                          "' (it takes grid, block, args, shared_mem, stream)");
        }
        if (given[which]) {
          throw TypeError(std::string("__call__() got multiple values for argument '") +
                          kNames[which] + "'");
        }
        given[which] = value;
      }
    }
    for (int j = 0; j < 3; ++j) {
      if (!given[j]) {
        throw TypeError(std::string("__call__() missing argument '") + kNames[j] +
                        "' (called as kernel(grid, block, args))");
      }
    }
    const size_t shared = given[3] ? to_shared_mem(given[3]) : 0;
    nb::inst_ptr<BoundKernel>(self)->launch(given[0], given[1], given[2], shared,
                                            given[4] ? given[4] : Py_None);
    Py_RETURN_NONE;
  } catch (...) {
    return raise_current_exception();
  }
}

void init_raw_launch() {
  g_array_type = reinterpret_cast<PyTypeObject*>(nb::type<Array>().ptr());
  nb::module_ np = nb::module_::import_("numpy");
  g_numpy_generic = np.attr("generic");
  g_numpy_void = np.attr("void");
  for (size_t j = 0; j < g_call_names.size(); ++j) {
    g_call_names[j] = nb::steal(PyUnicode_InternFromString(kNames[j]));
  }
  g_raise_pending = nb::cpp_function([] {
    if (t_pending) std::rethrow_exception(t_pending);
  });
}

}  // namespace accel::python
