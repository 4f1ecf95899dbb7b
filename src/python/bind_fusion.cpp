// Bindings of evaluation and the fusion planner's controls: eval, the counters, the debug log, the
// pending-memory bound, the CPU backend's threads.
#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "accel/eval_stats.hpp"
#include "accel/fusion.hpp"
#include "accel/kernels/platform.h"
#include "src/core/eager.hpp"
#include "src/core/eval.hpp"
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
  d["bytes_read"] = r.bytes_read;
  d["bytes_written"] = r.bytes_written;
  d["line"] = format_fusion_record(r);
  return d;
}

// The evaluator's counters (EvalStats) as a dict; with the planner's own when `fusion`.
nb::dict stats_dict(bool fusion) {
  const EvalStats s = eval_stats();
  nb::dict d;
  d["groups_run"] = s.groups_run;
  d["nodes_run"] = s.nodes_run;
  d["outputs_written"] = s.outputs_written;
  if (fusion) {
    d["structures"] = s.structures;
    d["structure_hits"] = s.structure_hits;
    d["early_evaluations"] = s.early_evaluations;
    d["plan_cache_hits"] = s.plan_cache_hits;
    d["plan_cache_misses"] = s.plan_cache_misses;
  }
  return d;
}

}  // namespace

void bind_fusion(nb::module_& m) {
  // A one-array overload first: no argument tuple on the common path.
  m.def(
      "eval", [](const Array& a) { a.eval(); }, "a"_a,
      "Evaluates the array now, and everything it depends on.",
      nb::sig("def eval(a: ndarray) -> None"));
  m.def(
      "eval",
      [](nb::args arrays) {
        std::vector<Array> list;
        for (nb::handle h : arrays) {
          if (!nb::isinstance<Array>(h)) {
            const nb::handle t = h.type();
            const std::string what = nb::cast<std::string>(nb::str(t.attr("__module__"))) + "." +
                                     nb::cast<std::string>(nb::str(t.attr("__qualname__")));
            throw nb::type_error(("eval() takes accelpy arrays, got " + what).c_str());
          }
          list.push_back(nb::cast<Array>(h));
        }
        eval(list);
      },
      "Evaluates the given arrays now, together, and everything they depend on.",
      nb::sig("def eval(*arrays: ndarray) -> None"));
  m.def("_num_threads", &cpu_num_threads, "Threads the CPU backend uses.");
  m.def("_set_num_threads", &set_cpu_num_threads, "n"_a, "Sets the threads the CPU backend uses.");
  m.def("_set_fusion", &set_fusion_enabled);
  m.def("_fusion_enabled", &fusion_enabled);
  m.def(
      "_fusion_stats", [] { return stats_dict(true); },
      "The evaluator's counters since the last reset, with the distinct group structures run "
      "(a bound on the kernels compiled), the evaluations started early by the "
      "pending-memory bound, and the evaluations planned and those whose plan was cached.");
  m.def(
      "_eval_stats", [] { return stats_dict(false); },
      "The evaluator's counters since the last reset: groups (kernels) run, nodes computed, "
      "results written to memory.");
  m.def("_reset_eval_stats", &reset_eval_stats, "Sets the evaluator's counters to zero.");
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
  m.def("eager_elements", &eager::max_elements,
        "The largest result (in elements) of an elementwise operation over computed CPU arrays "
        "that is computed at the call instead of deferred (ACCELPY_EAGER_ELEMENTS, default 2048; "
        "0: every operation is deferred).");
  m.def("set_eager_elements", &eager::set_max_elements, "n"_a,
        "Sets the largest result (in elements) computed at the call; 0 defers every operation.");
  m.def("_pending_bytes", &pending_bytes,
        "The bytes of computed arrays that pending work alone keeps alive now.");
}

}  // namespace accel::python
