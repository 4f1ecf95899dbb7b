// Controls of the fusion planner: the debug log of the groups it runs, and the bound on the
// memory that pending work may keep alive.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace accel {

// One group as it ran: what the fusion debug log reports.
struct FusionRecord {
  std::string kind;                  // "elementwise", "reduction" or "single"
  std::string device;                // "cpu", "cuda:0"
  std::vector<std::string> ops;      // per step, in order: "multiply<float32>"
  std::vector<std::string> inputs;   // per input: "float32[4096] contiguous"
  std::vector<std::string> outputs;  // per output: "float32[4096] <- step 2"
  std::string kernel;                // the backend's kernel name ("cpu" for the CPU's loops)
  std::string cache;                 // "hit" or "miss" (CUDA: "memory hit", "disk hit", "compiled")
  bool structure_seen = false;       // a group of this structure ran before (since the reset)
  size_t param_bytes = 0;            // kernel parameter bytes, as the planner counts them
  // Memory traffic the group needs at least: each input's distinct elements (a broadcast axis
  // counts once) and each output's elements, in bytes.
  size_t bytes_read = 0;
  size_t bytes_written = 0;
};

// Receives every group run while set (null: off). ACCELPY_DEBUG_FUSION=1 in the environment
// starts the process with a logger that writes one line per group to stderr.
using FusionLogger = std::function<void(const FusionRecord&)>;
void set_fusion_logger(FusionLogger logger);
bool fusion_logging();
// The one-line form of a record, as the stderr logger writes it.
std::string format_fusion_record(const FusionRecord& record);

// The bytes of computed arrays that pending work alone may keep alive (inputs nothing else holds
// any more) before the work that holds them is evaluated. ACCELPY_MAX_PENDING_BYTES sets the
// initial value (default 1 GiB).
size_t max_pending_bytes();
void set_max_pending_bytes(size_t bytes);
// The bytes of computed arrays that pending work alone keeps alive now.
size_t pending_bytes();

}  // namespace accel
