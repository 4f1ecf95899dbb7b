// Bindings of the fusion planner's controls: counters, the debug log, the pending-memory bound.
#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "accel/eval_stats.hpp"
#include "accel/fusion.hpp"
#include "src/python/bindings.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

nb::dict record_dict(const FusionRecord& r) {
  nb::dict d;
  d["kind"] = r.kind;
  d["device"] = r.device;
  d["ops"] = r.ops;
  d["inputs"] = r.inputs;
  d["outputs"] = r.outputs;
  d["kernel"] = r.kernel;
  d["cache"] = r.cache;
  d["structure_seen"] = r.structure_seen;
  d["param_bytes"] = r.param_bytes;
  d["line"] = format_fusion_record(r);
  return d;
}

}  // namespace

void bind_fusion(nb::module_& m) {
  m.def(
      "_fusion_stats",
      [] {
        const EvalStats s = eval_stats();
        nb::dict d;
        d["groups_run"] = s.groups_run;
        d["nodes_run"] = s.nodes_run;
        d["outputs_written"] = s.outputs_written;
        d["structures"] = s.structures;
        d["structure_hits"] = s.structure_hits;
        d["early_evaluations"] = s.early_evaluations;
        return d;
      },
      "The evaluator's counters since the last reset, with the distinct group structures run "
      "(a bound on the kernels compiled) and the evaluations started early by the "
      "pending-memory bound.");
  m.def(
      "_set_fusion_logger",
      [](nb::object callback) {
        if (callback.is_none()) return set_fusion_logger(nullptr);
        set_fusion_logger([callback](const FusionRecord& r) {
          nb::gil_scoped_acquire gil;
          callback(record_dict(r));
        });
      },
      "callback"_a.none(), "Calls callback(record: dict) for every group run (None: off).");
  m.def("_fusion_logging", &fusion_logging);
  m.def("max_pending_bytes", &max_pending_bytes,
        "The bytes of computed arrays that pending work alone may keep alive before it is "
        "evaluated (ACCELPY_MAX_PENDING_BYTES, default 1 GiB).");
  m.def("set_max_pending_bytes", &set_max_pending_bytes, "nbytes"_a,
        "Sets the bytes of computed arrays that pending work alone may keep alive; past it, the "
        "pending work holding them is evaluated.");
  m.def("_pending_bytes", &pending_bytes,
        "The bytes of computed arrays that pending work alone keeps alive now.");
}

}  // namespace accel::python
