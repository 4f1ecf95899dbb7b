// The CPU loops of the logic rows of elementwise_ops.def (see elementwise_loops.hpp).
#include "src/cpu/elementwise_loops.hpp"

namespace accel::cpu::loops {
template void add_part<Part::Logic>(Table&);
}  // namespace accel::cpu::loops
