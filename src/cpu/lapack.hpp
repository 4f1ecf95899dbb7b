// The CPU's linear algebra: LAPACK from the BLAS library blas_loader.hpp found (NumPy's bundled
// OpenBLAS, or the system's), through its Fortran interface.
#pragma once

#include "src/core/backend_linalg.hpp"

namespace accel::cpu {

LinalgBackend& cpu_linalg();

}  // namespace accel::cpu
