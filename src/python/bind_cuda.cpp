// accelpy._core._cuda: devices, streams, events, memory and caches (python/accelpy/cuda.py
// builds the public module on top). Bindings only.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>

#include "accel/cuda.hpp"
#include "accel/errors.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

int device_index(nb::handle obj) {
  if (obj.is_none()) {
    const Device d = default_device();
    return d.is_cuda() ? d.index : 0;
  }
  if (PyLong_Check(obj.ptr())) return nb::cast<int>(obj);
  const Device d = to_device(obj);
  if (!d.is_cuda()) throw ValueError("expected a CUDA device, got '" + d.str() + "'");
  return d.index;
}

nb::dict props_dict(const cuda::DeviceProperties& p) {
  nb::dict d;
  d["name"] = p.name;
  d["major"] = p.major;
  d["minor"] = p.minor;
  d["total_memory"] = p.total_memory;
  d["multi_processor_count"] = p.multiprocessor_count;
  d["l2_cache_size"] = p.l2_cache_size;
  d["max_threads_per_multi_processor"] = p.max_threads_per_multiprocessor;
  d["max_threads_per_block"] = p.max_threads_per_block;
  d["max_shared_memory_per_block"] = p.max_shared_memory_per_block;
  d["warp_size"] = p.warp_size;
  d["clock_rate_khz"] = p.clock_rate_khz;
  d["memory_clock_rate_khz"] = p.memory_clock_rate_khz;
  d["memory_bus_width"] = p.memory_bus_width;
  d["pci_bus_id"] = p.pci_bus_id;
  return d;
}

}  // namespace

void bind_cuda(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_cuda", "CUDA runtime support (see accelpy.cuda).");
  m.def("is_available", &cuda::is_available);
  m.def("device_count", &cuda::device_count);
  m.def("unavailable_reason", &cuda::unavailable_reason);
  m.def(
      "device_properties",
      [](nb::handle device) { return props_dict(cuda::device_properties(device_index(device))); },
      "device"_a = nb::none());
  m.def("libraries", [] {
    nb::list out;
    for (const cuda::LibraryInfo& l : cuda::libraries()) {
      nb::dict d;
      d["name"] = l.name;
      d["found"] = l.found;
      d["path"] = l.path;
      d["version"] = l.version;
      d["detail"] = l.detail;
      d["tried"] = l.tried;
      out.append(d);
    }
    return out;
  });
  m.def("add_library_search_dirs", &cuda::add_library_search_dirs, "dirs"_a);
  m.def(
      "synchronize",
      [](nb::handle device) {
        nb::gil_scoped_release nogil;
        cuda::synchronize(device_index(device));
      },
      "device"_a = nb::none());

  nb::class_<cuda::Stream>(m, "Stream")
      .def_static(
          "create",
          [](nb::handle device, bool non_blocking) {
            return cuda::Stream::create(device_index(device), non_blocking);
          },
          "device"_a = nb::none(), "non_blocking"_a = true)
      .def_static(
          "default",
          [](nb::handle device) { return cuda::Stream::default_stream(device_index(device)); },
          "device"_a = nb::none())
      .def_static(
          "current", [](nb::handle device) { return cuda::Stream::current(device_index(device)); },
          "device"_a = nb::none())
      .def_prop_ro("device_index", &cuda::Stream::device)
      .def_prop_ro("handle",
                   [](const cuda::Stream& s) { return reinterpret_cast<uintptr_t>(s.handle()); })
      .def("synchronize",
           [](const cuda::Stream& s) {
             nb::gil_scoped_release nogil;
             s.synchronize();
           })
      .def("query", &cuda::Stream::query)
      .def("wait_event", &cuda::Stream::wait, "event"_a)
      .def("__eq__", [](const cuda::Stream& a, const cuda::Stream& b) { return a == b; })
      .def("__hash__",
           [](const cuda::Stream& s) { return reinterpret_cast<uintptr_t>(s.handle()); });
  m.def("set_current_stream", &cuda::set_current_stream, "stream"_a);

  nb::class_<cuda::Event>(m, "Event")
      .def_static(
          "create",
          [](nb::handle device, bool timing, bool blocking) {
            return cuda::Event::create(device_index(device), timing, blocking);
          },
          "device"_a = nb::none(), "enable_timing"_a = true, "blocking"_a = false)
      .def("record", &cuda::Event::record, "stream"_a)
      .def("synchronize",
           [](const cuda::Event& e) {
             nb::gil_scoped_release nogil;
             e.synchronize();
           })
      .def("query", &cuda::Event::query)
      .def("elapsed_ms", &cuda::Event::elapsed_ms, "end"_a)
      .def_prop_ro("device_index", &cuda::Event::device);

  m.def(
      "memory_stats",
      [](nb::handle device) {
        const cuda::MemoryStats s = cuda::memory_stats(device_index(device));
        nb::dict d;
        d["allocated_bytes"] = s.allocated;
        d["peak_allocated_bytes"] = s.peak_allocated;
        d["reserved_bytes"] = s.reserved;
        d["limit_bytes"] = s.limit;
        d["device_free_bytes"] = s.device_free;
        d["device_total_bytes"] = s.device_total;
        d["allocations"] = s.allocations;
        d["frees"] = s.frees;
        d["oom_retries"] = s.oom_retries;
        d["small_cached_blocks"] = s.small_cached_blocks;
        d["small_cached_bytes"] = s.small_cached_bytes;
        return d;
      },
      "device"_a = nb::none());
  m.def(
      "free_cache", [](nb::handle device) { cuda::free_cache(device_index(device)); },
      "device"_a = nb::none());
  m.def(
      "set_memory_limit",
      [](size_t bytes, nb::handle device) { cuda::set_memory_limit(device_index(device), bytes); },
      "bytes"_a, "device"_a = nb::none());

  m.def("pinned_alloc",
        [](size_t nbytes) { return reinterpret_cast<uintptr_t>(cuda::pinned_alloc(nbytes)); });
  m.def("pinned_free", [](uintptr_t p) { cuda::pinned_free(reinterpret_cast<void*>(p)); });
  m.def(
      "copy_to_host_async",
      [](const Array& src, uintptr_t dst, size_t nbytes) {
        if (nbytes < src.nbytes()) {
          throw ValueError("destination holds " + std::to_string(nbytes) + " bytes, the array " +
                           std::to_string(src.nbytes()));
        }
        cuda::copy_to_host_async(src, reinterpret_cast<void*>(dst));
      },
      "src"_a, "dst"_a, "nbytes"_a);
  m.def("kernel_cache_stats", [] {
    const cuda::KernelCacheStats s = cuda::kernel_cache_stats();
    nb::dict d;
    d["compiled"] = s.compiled;
    d["disk_hits"] = s.disk_hits;
    d["memory_hits"] = s.memory_hits;
    d["kernels"] = s.kernels;
    d["compile_ms"] = s.compile_ms;
    d["upgrades_pending"] = s.upgrades_pending;
    d["upgraded"] = s.upgraded;
    d["upgrade_failures"] = s.upgrade_failures;
    d["cache_dir"] = s.cache_dir;
    return d;
  });
  m.def("graphs_enabled", &cuda::graphs_enabled);
  m.def("set_graphs_enabled", &cuda::set_graphs_enabled, "enabled"_a);
  m.def("graph_stats", [] {
    const cuda::GraphStats s = cuda::graph_stats();
    nb::dict d;
    d["graphs_built"] = s.graphs_built;
    d["graph_launches"] = s.graph_launches;
    d["kernels_replayed"] = s.kernels_replayed;
    d["nodes_rebound"] = s.nodes_rebound;
    d["kernels_unrecorded"] = s.kernels_unrecorded;
    d["enabled"] = s.enabled;
    return d;
  });
  m.def("reset_graph_stats", &cuda::reset_graph_stats);
  m.def("_wait_stats", [] {
    const cuda::WaitStats s = cuda::wait_stats();
    nb::dict d;
    d["fast"] = s.fast;
    d["slow"] = s.slow;
    d["interrupted"] = s.interrupted;
    return d;
  });
  m.def("wait_for_optimized_kernels", &cuda::wait_for_optimized_kernels, "timeout"_a,
        nb::call_guard<nb::gil_scoped_release>());
  m.def("finish_upgrades", &cuda::finish_upgrades, nb::call_guard<nb::gil_scoped_release>());
  m.def(
      "_launch_faulting_kernel",
      [](nb::handle device) { cuda::launch_faulting_kernel(device_index(device)); },
      "device"_a = nb::none());
}

}  // namespace accel::python
