// The launch path of users' kernels (accelpy.RawKernel, accelpy.driver): the Python call, the
// arguments turned into bytes and the launch configuration parsed, in one pass over the call's
// objects. bind_kernels.cpp binds the rest of accelpy._core._raw.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "accel/cpu_user_kernels.hpp"
#include "accel/raw_kernel.hpp"
#include "src/python/bindings.hpp"

namespace accel::python {

// grid / block: an int or a tuple (or list) of up to three ints; missing dimensions are 1.
void to_dims(nb::handle obj, unsigned out[3], const char* what);

// None (0: the current stream), a CUstream handle as an int, or an object with .ptr / .handle.
uintptr_t to_stream(nb::handle s);

// A kernel of a module with its per-device functions, launched from Python.
struct BoundKernel {
  cuda::RawModule module;
  std::string name;
  std::vector<std::string> param_names;
  std::array<std::optional<cuda::RawFunction>, 64> fns;
  std::optional<cpu::UserKernel> cpu_fn;  // the kernel built for the CPU device, once used

  cuda::RawFunction& function(int device);
  cpu::UserKernel& cpu_function();
  // kernel(grid, block, args, shared_mem=, stream=): checks, packs and launches.
  void launch(PyObject* grid, PyObject* block, PyObject* args, size_t shared_mem, PyObject* stream);
  // The same launch `count` times with the arguments packed once: the host cost of the
  // driver's cuLaunchKernel alone (bench/raw_kernels.py's floor). Returns seconds per launch.
  double time_launches(PyObject* grid, PyObject* block, PyObject* args, size_t count);
};

// The Kernel type's tp_call: `kernel(grid, block, args, *, shared_mem=0, stream=None)` parsed
// without nanobind's generic dispatch (the call is the hot path of users' kernels).
PyObject* kernel_call(PyObject* self, PyObject* args, PyObject* kwargs) noexcept;

// Looks up what the launch path compares types with (accelpy.ndarray, numpy.generic); called
// once the array type is bound.
void init_raw_launch();

}  // namespace accel::python
