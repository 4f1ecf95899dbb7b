// accelpy.Device and the default device: where arrays live and where new ones go.
#include <nanobind/stl/string.h>

#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

thread_local std::vector<Device> g_device_stack;

}  // namespace

void bind_device(nb::module_& m) {
  nb::class_<Device>(m, "Device",
                     "Where arrays live: 'cpu' or 'cuda:N'. Also a context manager that "
                     "makes new arrays go there.")
      .def(
          "__init__", [](Device* d, nb::handle spec) { new (d) Device(to_device(spec)); },
          "device"_a, nb::sig("def __init__(self, device: DeviceLike) -> None"))
      .def_prop_ro("type", [](const Device& d) { return d.is_cpu() ? "cpu" : "cuda"; })
      .def_prop_ro("index", [](const Device& d) { return d.index; })
      .def("__str__", &Device::str)
      .def("__repr__",
           [](const Device& d) {
             return d.is_cpu() ? std::string("device(type='cpu')")
                               : "device(type='cuda', index=" + std::to_string(d.index) + ")";
           })
      .def(
          "__eq__",
          [](const Device& d, nb::handle other) {
            try {
              return d == to_device(other);
            } catch (const Error&) {
              return false;
            }
          },
          nb::sig("def __eq__(self, other: object, /) -> bool"))
      .def("__hash__", [](const Device& d) { return int(d.type) * 1024 + d.index; })
      .def("__enter__",
           [](const Device& d) {
             g_device_stack.push_back(default_device());
             set_default_device(d);
             return d;
           })
      .def(
          "__exit__",
          [](const Device&, nb::args) {
            set_default_device(g_device_stack.back());
            g_device_stack.pop_back();
          },
          nb::sig("def __exit__(self, *args: object) -> None"));
  m.def("get_default_device", &default_device, "The device new arrays go to.",
        nb::sig("def get_default_device() -> Device"));
  m.def(
      "set_default_device", [](nb::handle d) { set_default_device(to_device(d)); }, "device"_a,
      "Sets the device new arrays go to (as `with accelpy.device(...)` does for a block).",
      nb::sig("def set_default_device(device: DeviceLike) -> None"));
}

}  // namespace accel::python
