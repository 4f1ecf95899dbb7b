// The CPU backend's gathers, scatters and selection (src/core/backend_indexing.hpp).
#pragma once

#include "src/core/backend_indexing.hpp"

namespace accel::cpu {

IndexingBackend& cpu_indexing();

}  // namespace accel::cpu
