// accelpy._core._raw: users' CUDA kernels (python/accelpy/_kernels.py, driver.py and
// compiler.py build the public API on top). Bindings only: arguments are turned into bytes
// here, every check and the launch itself live in src/cuda/raw_kernel.cpp.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstring>
#include <memory>

#include "accel/cuda.hpp"
#include "accel/raw_kernel.hpp"
#include "accel/storage.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"
#include "src/python/process_ref.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

ProcessRef g_compile_error;  // accelpy.CompileError (a RuntimeError)

void translate_compile_error(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const cuda::CompileError& e) {
    nb::object err = g_compile_error(nb::str(e.what()));
    err.attr("log") = nb::str(e.log.c_str());
    err.attr("name") = nb::str(e.name.c_str());
    err.attr("source_lines") = nb::str(e.excerpt.c_str());
    PyErr_SetObject(g_compile_error.ptr(), err.ptr());
  }
}

// grid / block: an int or a tuple of up to three ints; missing dimensions are 1.
void to_dims(nb::handle obj, unsigned out[3], const char* what) {
  out[0] = out[1] = out[2] = 1;
  auto one = [&](nb::handle v, int i) {
    if (!PyIndex_Check(v.ptr())) {
      throw TypeError(std::string(what) + " must be an int or a tuple of up to 3 ints, got " +
                      nb::type_name(v.type()).c_str());
    }
    const long long x = nb::cast<long long>(nb::int_(v));
    if (x < 0 || x > 0xffffffffLL) {
      throw ValueError(std::string(what) + " dimension " + "xyz"[i] + " is " + std::to_string(x) +
                       "; it must be between 1 and 2**32 - 1");
    }
    out[i] = unsigned(x);
  };
  if (PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr())) {
    const size_t n = nb::len(obj);
    if (n < 1 || n > 3) {
      throw ValueError(std::string(what) + " must have 1 to 3 dimensions, got " +
                       std::to_string(n));
    }
    for (size_t i = 0; i < n; ++i) one(obj[i], int(i));
  } else {
    one(obj, 0);
  }
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

// A kernel of a module with its per-device functions, launched from Python.
struct BoundKernel {
  cuda::RawModule module;
  std::string name;
  std::vector<std::string> param_names;
  std::array<std::optional<cuda::RawFunction>, 64> fns;

  cuda::RawFunction& function(int device) {
    if (!cuda::is_available()) throw Error("CUDA is not available: " + cuda::unavailable_reason());
    if (device < 0 || device >= int(fns.size())) throw ValueError("bad device index");
    auto& slot = fns[size_t(device)];
    if (!slot) {
      slot = module.function(name, device);
      if (!param_names.empty()) slot->set_param_names(param_names);
    }
    return *slot;
  }

  int launch_device(nb::handle args) const {
    for (Py_ssize_t i = 0, n = PySequence_Fast_GET_SIZE(args.ptr()); i < n; ++i) {
      nb::handle a = PySequence_Fast_GET_ITEM(args.ptr(), i);
      if (nb::isinstance<Array>(a)) {
        const Device d = nb::cast<const Array&>(a).device();
        if (d.is_cuda()) return d.index;
      }
    }
    const Device d = default_device();
    return d.is_cuda() ? d.index : 0;
  }

  void launch(nb::handle grid, nb::handle block, nb::handle args, size_t shared_mem,
              nb::handle stream) {
    if (!PyTuple_Check(args.ptr()) && !PyList_Check(args.ptr())) {
      throw TypeError(std::string("args must be a tuple or list of kernel arguments, got ") +
                      nb::type_name(args.type()).c_str());
    }
    unsigned g[3], b[3];
    to_dims(grid, g, "grid");
    to_dims(block, b, "block");
    const int device = launch_device(args);
    cuda::RawFunction& fn = function(device);
    const auto& params = fn.params();
    const size_t n = size_t(PySequence_Fast_GET_SIZE(args.ptr()));
    ArgPack pack;
    constexpr size_t kInline = 32;
    cuda::RawFunction::Arg inline_out[kInline];
    std::vector<cuda::RawFunction::Arg> heap_out(n > kInline ? n : 0);
    cuda::RawFunction::Arg* out = n > kInline ? heap_out.data() : inline_out;
    for (size_t i = 0; i < n; ++i) {
      nb::handle a = PySequence_Fast_GET_ITEM(args.ptr(), Py_ssize_t(i));
      const size_t want = params && i < params->size() ? (*params)[i].size : 0;
      out[i] = convert(a, i, want, device, fn, pack);
    }
    fn.launch(g, b, shared_mem, to_stream(stream), out, n);
  }

  // One argument as bytes in `pack` (the data pointer is filled in once all are packed).
  static cuda::RawFunction::Arg convert(nb::handle a, size_t i, size_t want, int device,
                                        const cuda::RawFunction& fn, ArgPack& pack) {
    auto put = [&](const void* src, size_t size, const char* what) {
      unsigned char* dst = pack.reserve(size);
      std::memcpy(dst, src, size);
      return cuda::RawFunction::Arg{dst, size, what};
    };
    if (nb::isinstance<Array>(a)) {
      const Array& arr = nb::cast<const Array&>(a);
      if (!arr.device().is_cuda() || arr.device().index != device) {
        throw ValueError("kernel '" + fn.name() + "': argument " + std::to_string(i) +
                         " is an array on " + arr.device().str() +
                         "; the kernel runs on cuda:" + std::to_string(device) +
                         " (move it with .to(\"cuda:" + std::to_string(device) + "\"))");
      }
      // The kernel may write any pointer it is given: pending readers of this memory run
      // first (the write barrier), and caches keyed by the data see a new version.
      arr.eval();
      prepare_write(*arr.storage());
      arr.storage()->bump_version();
      void* p = arr.size() ? arr.data() : arr.storage()->data();
      return put(&p, sizeof(p), "an array (a pointer)");
    }
    if (PyBool_Check(a.ptr())) {
      const bool v = a.ptr() == Py_True;
      return put(&v, 1, "a Python bool");
    }
    if (PyLong_Check(a.ptr())) {
      // A Python int takes the size of its parameter when the driver reports it (int or long
      // long), else 8 bytes (as CuPy passes it).
      if (want == 4) {
        long long v = 0;
        if (!nb::try_cast<long long>(a, v) || v < -(1LL << 31) || v >= (1LL << 32)) {
          throw OverflowError("kernel '" + fn.name() + "': " + fn.describe_param(i) +
                              " cannot hold the Python int " + nb::str(a).c_str());
        }
        const int32_t v32 = int32_t(uint32_t(v));
        return put(&v32, 4, "a Python int");
      }
      long long v = 0;
      if (!nb::try_cast<long long>(a, v)) {
        unsigned long long u = 0;
        if (!nb::try_cast<unsigned long long>(a, u)) {
          throw OverflowError("kernel '" + fn.name() + "': argument " + std::to_string(i) +
                              " does not fit in 64 bits");
        }
        std::memcpy(&v, &u, 8);
      }
      return put(&v, 8, "a Python int (int64)");
    }
    if (PyFloat_Check(a.ptr())) {
      const double v = PyFloat_AsDouble(a.ptr());
      return put(&v, 8, "a float64 (Python floats are doubles)");
    }
    if (PyComplex_Check(a.ptr())) {
      const double v[2] = {PyComplex_RealAsDouble(a.ptr()), PyComplex_ImagAsDouble(a.ptr())};
      return put(v, 16, "a Python complex (complex128)");
    }
    if (PyBytes_Check(a.ptr())) {  // a struct, by value
      return put(PyBytes_AS_STRING(a.ptr()), size_t(PyBytes_GET_SIZE(a.ptr())), "bytes");
    }
    if (PyObject_CheckBuffer(a.ptr())) {
      Py_buffer view;
      if (PyObject_GetBuffer(a.ptr(), &view, PyBUF_RECORDS_RO) == 0) {
        const bool scalar = view.ndim == 0;
        cuda::RawFunction::Arg r{nullptr, 0, "a NumPy scalar"};
        if (scalar) r = put(view.buf, size_t(view.len), "a NumPy scalar");
        PyBuffer_Release(&view);
        if (scalar) return r;
      } else {
        PyErr_Clear();
      }
    }
    if (nb::hasattr(a, "__cuda_array_interface__")) {
      nb::object data = a.attr("__cuda_array_interface__")["data"];
      const uintptr_t p = nb::cast<uintptr_t>(data[0]);
      return put(&p, sizeof(p), "a CUDA array (a pointer)");
    }
    throw TypeError("kernel '" + fn.name() + "': argument " + std::to_string(i) + " (" +
                    fn.describe_param(i) + ") is a " + nb::type_name(a.type()).c_str() +
                    "; expected an accelpy CUDA array, an object with "
                    "__cuda_array_interface__, a NumPy scalar (numpy.int32(n), ...) or a Python "
                    "int/float/bool. Copy NumPy arrays to the GPU first (accelpy.asarray, or "
                    "driver.In/Out/InOut)");
  }
};

nb::dict attributes_dict(const cuda::FunctionAttributes& a) {
  nb::dict d;
  d["max_threads_per_block"] = a.max_threads_per_block;
  d["shared_size_bytes"] = a.shared_size_bytes;
  d["const_size_bytes"] = a.const_size_bytes;
  d["local_size_bytes"] = a.local_size_bytes;
  d["num_regs"] = a.num_regs;
  d["ptx_version"] = a.ptx_version;
  d["binary_version"] = a.binary_version;
  d["max_dynamic_shared_size_bytes"] = a.max_dynamic_shared_size_bytes;
  return d;
}

const void* host_buffer(nb::handle obj, Py_buffer& view, bool writable) {
  if (PyObject_GetBuffer(obj.ptr(), &view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) != 0) {
    PyErr_Clear();
    throw TypeError(std::string("expected a ") + (writable ? "writable " : "") +
                    "C-contiguous host buffer (a NumPy array), got " +
                    nb::type_name(obj.type()).c_str());
  }
  return view.buf;
}

}  // namespace

void bind_kernels(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_raw", "Users' CUDA kernels (see accelpy.RawKernel).");
  g_compile_error = nb::steal(PyErr_NewExceptionWithDoc(
      "accelpy._kernels.CompileError",
      "NVRTC could not compile a kernel. Attributes: log (NVRTC's log), name (the kernel or "
      "module), source_lines (the lines the log points at).",
      PyExc_RuntimeError, nullptr));
  m.attr("CompileError") = g_compile_error;
  nb::register_exception_translator(&translate_compile_error);

  nb::class_<cuda::RawModule>(m, "RawModule")
      .def(
          "__init__",
          [](cuda::RawModule* self, std::string code, std::string name,
             std::vector<std::string> options, std::vector<std::string> name_expressions,
             bool with_prelude, std::string cache_dir, nb::bytes image) {
            new (self) cuda::RawModule(cuda::ProgramSpec{
                std::move(code), std::move(name), std::move(options), std::move(name_expressions),
                with_prelude, std::move(cache_dir), std::string(image.c_str(), image.size())});
          },
          "code"_a, "name"_a, "options"_a, "name_expressions"_a, "with_prelude"_a = false,
          "cache_dir"_a = "", "image"_a = nb::bytes(""))
      .def(
          "compile",
          [](const cuda::RawModule& mod, int cc) {
            const cuda::ProgramImage* img = nullptr;
            {
              nb::gil_scoped_release nogil;
              img = &mod.compile(cc);
            }
            nb::dict d;
            d["log"] = img->log;
            d["cubin"] = img->cubin;
            d["from_disk"] = img->from_disk;
            d["image_bytes"] = img->image.size();
            return d;
          },
          "cc"_a = 0, "Compiles now (for compute capability cc, default: the device's).")
      .def("lowered_name", &cuda::RawModule::lowered_name, "expression"_a)
      .def("global_", &cuda::RawModule::global, "name"_a, "device"_a);

  // Python's RawKernel subclasses this type, so a launch is one call into C++ (__call__).
  nb::class_<BoundKernel>(m, "Kernel")
      .def(
          "__init__",
          [](BoundKernel* self, const cuda::RawModule& mod, std::string name,
             std::vector<std::string> param_names) {
            new (self) BoundKernel{mod, std::move(name), std::move(param_names), {}};
          },
          "module"_a, "name"_a, "param_names"_a)
      .def("__call__", &BoundKernel::launch, "grid"_a, "block"_a, "args"_a, nb::kw_only(),
           "shared_mem"_a = 0, "stream"_a = nb::none(),
           "Launches the kernel: grid and block are ints or tuples of up to 3 ints, args a tuple "
           "of arguments, shared_mem the dynamic shared memory in bytes, stream a stream (default: "
           "the current one). Runs on the device of the first CUDA array argument, else the "
           "current device.")
      .def(
          "_attributes",
          [](BoundKernel& k, int device) {
            return attributes_dict(k.function(device).attributes());
          },
          "device"_a)
      .def(
          "_params",
          [](BoundKernel& k, int device) -> nb::object {
            const auto& p = k.function(device).params();
            if (!p) return nb::none();
            nb::list out;
            for (const cuda::ParamInfo& i : *p) out.append(nb::make_tuple(i.offset, i.size));
            return out;
          },
          "device"_a)
      .def("_handle", [](BoundKernel& k, int device) {
        return reinterpret_cast<uintptr_t>(k.function(device).handle());
      });

  m.def("default_compute_capability", &cuda::default_compute_capability);
  m.def("offending_lines", &cuda::offending_lines, "source"_a, "log"_a);
  m.def(
      "check_launch",
      [](int device, int max_threads, nb::handle grid, nb::handle block, size_t shared) {
        unsigned g[3], b[3];
        to_dims(grid, g, "grid");
        to_dims(block, b, "block");
        cuda::FunctionAttributes a;
        a.max_threads_per_block = max_threads;
        cuda::check_launch(device, a, g, b, shared);
      },
      "device"_a, "max_threads"_a, "grid"_a, "block"_a, "shared_mem"_a);

  // Host buffers are held (and the GIL released) for the copy; `sync` waits for it.
  m.def(
      "memcpy_htod",
      [](uintptr_t dst, nb::handle src, nb::handle stream, bool sync) {
        const uintptr_t s = to_stream(stream);
        Py_buffer view;
        host_buffer(src, view, false);
        std::unique_ptr<Py_buffer, void (*)(Py_buffer*)> release(&view, PyBuffer_Release);
        nb::gil_scoped_release nogil;
        cuda::memcpy_htod(dst, view.buf, size_t(view.len), s, sync);
      },
      "dst"_a, "src"_a, "stream"_a = nb::none(), "sync"_a = true);
  m.def(
      "memcpy_dtoh",
      [](nb::handle dst, uintptr_t src, nb::handle stream, bool sync) {
        const uintptr_t s = to_stream(stream);
        Py_buffer view;
        host_buffer(dst, view, true);
        std::unique_ptr<Py_buffer, void (*)(Py_buffer*)> release(&view, PyBuffer_Release);
        nb::gil_scoped_release nogil;
        cuda::memcpy_dtoh(view.buf, src, size_t(view.len), s, sync);
      },
      "dst"_a, "src"_a, "stream"_a = nb::none(), "sync"_a = true);
  m.def(
      "memcpy_dtod",
      [](uintptr_t dst, uintptr_t src, size_t nbytes, nb::handle stream, bool sync) {
        const uintptr_t s = to_stream(stream);
        nb::gil_scoped_release nogil;
        cuda::memcpy_dtod(dst, src, nbytes, s, sync);
      },
      "dst"_a, "src"_a, "nbytes"_a, "stream"_a = nb::none(), "sync"_a = true);
  m.def("mem_get_info", &cuda::mem_get_info, "device"_a);
}

}  // namespace accel::python
