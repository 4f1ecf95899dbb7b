// The CPU's scatter-add (bincount, histogram).
#pragma once

#include "src/core/backend_scatter.hpp"

namespace accel::cpu {

ScatterBackend& cpu_scatter();

}  // namespace accel::cpu
