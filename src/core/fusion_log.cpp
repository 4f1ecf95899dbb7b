// The fusion debug log (accel/fusion.hpp): one record per group the evaluator runs, sent to the
// logger while one is set. ACCELPY_DEBUG_FUSION=1 starts the process with a stderr logger.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "accel/fusion.hpp"
#include "src/core/eval_instrumentation.hpp"
#include "src/core/graph.hpp"
#include "src/core/plan.hpp"

namespace accel {

namespace {

FusionLogger& logger() {
  static FusionLogger* l = [] {
    auto* f = new FusionLogger;
    const char* v = std::getenv("ACCELPY_DEBUG_FUSION");
    if (v && *v && std::strcmp(v, "0") != 0) {
      *f = [](const FusionRecord& r) {
        std::fprintf(stderr, "%s\n", format_fusion_record(r).c_str());
      };
    }
    return f;
  }();
  return *l;
}

const char* class_name(int c) { return c == 0 ? "contiguous" : c == 1 ? "broadcast" : "strided"; }

std::string describe_array(const Array& a, const Shape& space) {
  std::string s(dtype_name(a.dtype()));
  s += "[";
  for (size_t d = 0; d < a.shape().size(); ++d) s += (d ? "," : "") + std::to_string(a.shape()[d]);
  s += "]";
  if (a.shape() == space) {
    s += std::string(" ") + class_name(instrumentation::layout_class(a, space));
  }
  return s;
}

// The distinct elements of a view, in bytes: a broadcast (stride 0) axis counts once.
size_t distinct_bytes(const Array& a) {
  size_t n = itemsize(a.dtype());
  for (size_t d = 0; d < a.shape().size(); ++d) {
    if (a.shape()[d] == 0) return 0;
    if (a.strides()[d] != 0) n *= size_t(a.shape()[d]);
  }
  return n;
}

// The bytes a group must read: per storage, its views' distinct elements, or the span they
// cover together when that is less (the shifted slices of a stencil read one array once).
size_t bytes_read(const std::vector<Array>& inputs) {
  size_t total = 0;
  std::vector<char> done(inputs.size(), 0);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (done[i]) continue;
    size_t sum = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t j = i; j < inputs.size(); ++j) {
      const Array& a = inputs[j];
      if (a.storage() != inputs[i].storage()) continue;
      done[j] = 1;
      const size_t b = distinct_bytes(a);
      if (b == 0) continue;
      sum += b;
      // Byte span of the view: from its lowest to its highest element.
      const auto isz = int64_t(itemsize(a.dtype()));
      int64_t first = a.offset() * isz, last = first;
      for (size_t d = 0; d < a.shape().size(); ++d) {
        const int64_t reach = (a.shape()[d] - 1) * a.strides()[d] * isz;
        (reach < 0 ? first : last) += reach;
      }
      lo = std::min(lo, first);
      hi = std::max(hi, last + isz);
    }
    total += sum == 0 ? 0 : std::min(sum, size_t(hi - lo));
  }
  return total;
}

}  // namespace

void instrumentation::log_group(Backend& backend, const Group& g, bool seen) {
  FusionRecord r;
  r.kind = g.kind == Group::Kind::Elementwise ? "elementwise"
           : g.kind == Group::Kind::Reduction ? "reduction"
           : g.kind == Group::Kind::Rows      ? "rows"
                                              : "single";
  r.device = g.device.str();
  for (const Step& st : g.steps) {
    r.ops.push_back(std::string(op_name(st.node->op)) + "<" +
                    std::string(dtype_name(st.node->dtype)) + ">");
  }
  for (const Array& in : g.inputs) r.inputs.push_back(describe_array(in, g.shape));
  r.bytes_read = bytes_read(g.inputs);
  for (const GroupOutput& o : g.outputs) {
    r.outputs.push_back(describe_array(o.dest, g.shape) + " <- step " + std::to_string(o.step));
    r.bytes_written += o.dest.nbytes();
  }
  r.structure_seen = seen;
  r.param_bytes = plan::param_bytes(g);
  backend.describe_last_run(r.kernel, r.cache);
  if (r.kernel.empty()) {
    r.kernel = g.device.is_cpu() ? "cpu" : "-";
    r.cache = seen ? "hit" : "miss";
  }
  logger()(r);
}

void set_fusion_logger(FusionLogger l) { logger() = std::move(l); }
bool fusion_logging() { return static_cast<bool>(logger()); }

std::string format_fusion_record(const FusionRecord& r) {
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  return "[accelpy fusion] " + r.kind + " on " + r.device + ": " + std::to_string(r.ops.size()) +
         " ops [" + join(r.ops) + "] inputs [" + join(r.inputs) + "] outputs [" + join(r.outputs) +
         "] kernel " + r.kernel + " (" + r.cache + ", structure " +
         (r.structure_seen ? "seen" : "new") + ", " + std::to_string(r.param_bytes) +
         " param bytes) bytes read " + std::to_string(r.bytes_read) + " written " +
         std::to_string(r.bytes_written);
}

}  // namespace accel
