// The CPU loops of the floating rows of elementwise_ops.def (see elementwise_loops.hpp).
#include "src/cpu/elementwise_loops.hpp"

namespace accel::cpu::loops {
template void add_part<Part::Floating>(Table&);
}  // namespace accel::cpu::loops
