// accelpy._core._raw: users' CUDA kernels (python/accelpy/_kernels.py, driver.py and
// compiler.py build the public API on top). Bindings only: the launch call and its arguments
// are parsed in raw_launch.cpp, every check and the launch itself live in
// src/cuda/raw_kernel.cpp.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstring>
#include <memory>

#include "accel/cpu_user_kernels.hpp"
#include "accel/cuda.hpp"
#include "accel/raw_kernel.hpp"
#include "accel/storage.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"
#include "src/python/process_ref.hpp"
#include "src/python/raw_launch.hpp"

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
      .def(
          "compile_cpu",
          [](const cuda::RawModule& mod) {
            std::shared_ptr<const cpu::UserModule> m;
            {
              nb::gil_scoped_release nogil;
              m = cpu::UserModule::get(mod.spec());
            }
            nb::dict d;
            d["log"] = m->log();
            d["from_disk"] = m->from_disk();
            return d;
          },
          "Compiles for the CPU device now (the machine's C++ compiler).")
      .def(
          "global_cpu",
          [](const cuda::RawModule& mod, const std::string& name) {
            return cpu::UserModule::get(mod.spec())->global(name);
          },
          "name"_a)
      .def("lowered_name", &cuda::RawModule::lowered_name, "expression"_a)
      .def("global_", &cuda::RawModule::global, "name"_a, "device"_a);

  // Python's RawKernel subclasses this type and inherits its tp_call, so a launch is one call
  // into C++: kernel(grid, block, args, *, shared_mem=0, stream=None) (raw_launch.cpp).
  init_raw_launch();
  static PyType_Slot kernel_slots[] = {{Py_tp_call, reinterpret_cast<void*>(&kernel_call)},
                                       {0, nullptr}};
  nb::class_<BoundKernel>(m, "Kernel", nb::type_slots(kernel_slots))
      .def(
          "__init__",
          [](BoundKernel* self, const cuda::RawModule& mod, std::string name,
             std::vector<std::string> param_names) {
            new (self) BoundKernel{mod, std::move(name), std::move(param_names), {}, {}};
          },
          "module"_a, "name"_a, "param_names"_a)
      .def(
          "_time_launches",
          [](BoundKernel& k, nb::handle grid, nb::handle block, nb::handle args, size_t count) {
            return k.time_launches(grid.ptr(), block.ptr(), args.ptr(), count);
          },
          "grid"_a, "block"_a, "args"_a, "count"_a,
          "Seconds per launch of `count` launches with the arguments packed once (the driver's "
          "own cost; for benchmarks).")
      .def(
          "_attributes",
          [](BoundKernel& k, int device) {
            return attributes_dict(k.function(device).attributes());
          },
          "device"_a)
      .def(
          "_params",
          [](BoundKernel& k, int device) -> nb::object {
            // -1: the CPU device, whose parameter sizes come from the compiled signature.
            const auto& p = device < 0 ? k.cpu_function().params() : k.function(device).params();
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
  m.def(
      "kernels_on_cpu", [] { return cpu::kernels_forced_on_cpu() || !cuda::is_available(); },
      "Whether users' kernels run on the CPU device (no GPU, or ACCELPY_KERNELS_ON_CPU=1).");
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
