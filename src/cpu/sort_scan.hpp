// The CPU's sorting, scans, selection, gathers and binary searches (src/core/backend_sort.hpp).
#pragma once

#include "src/core/backend_sort.hpp"

namespace accel::cpu {

SortScanOps& cpu_sort_scan();

}  // namespace accel::cpu
