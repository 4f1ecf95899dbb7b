// Matrix products on the CPU: through the loaded CBLAS (blas_loader.hpp) for float32, float64,
// complex64 and complex128 (float16/bfloat16 converted to float32 around an sgemm), and
// accelpy's own tiled, thread-pooled GEMM for integers, bool, and when no BLAS was found.
#pragma once

#include "src/core/backend_matmul.hpp"

namespace accel::cpu {

void gemm(const Gemm& g);

// The built-in GEMM alone (tests compare it with the BLAS path).
void builtin_gemm(const Gemm& g);

// Whether gemm() calls a BLAS for this dtype (the BLAS was found and covers it).
bool blas_covers(DType dtype);

}  // namespace accel::cpu
