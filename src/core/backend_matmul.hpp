// The matmul family's interface to a backend: one strided-batched GEMM.
//
// The front-end (src/core/ops/matmul.cpp) does everything else: NumPy's shape rules, type
// promotion, broadcasting of batch dimensions (a batch stride of 0), loops over batch dimensions
// that cannot be merged into one stride, and copies of operands no BLAS layout describes. A
// backend sees only problems with m, n, k and batch all >= 1.
#pragma once

#include <cstdint>

#include "accel/dtype.hpp"

namespace accel {

// A matrix operand of a batched GEMM. Element (b, i, j) lives at
// data + b * batch_stride + i * row_stride + j * col_stride (in elements). One of row_stride and
// col_stride is 1 and the other is at least the other dimension's length (a BLAS layout: row-major
// with a leading dimension, or column-major, i.e. transposed); both are >= 1.
struct GemmOperand {
  const void* data = nullptr;
  int64_t batch_stride = 0;  // >= 0; 0 broadcasts one matrix over the batch
  int64_t row_stride = 0;
  int64_t col_stride = 0;
  // Whether the layout is column-major (the BLAS "transposed" flag for a row-major call).
  bool col_major() const { return row_stride == 1 && col_stride != 1; }
  int64_t leading_dim() const { return col_major() ? col_stride : row_stride; }
};

// C[b] = A[b] @ B[b] for b in [0, batch): A is m x k, B is k x n, C is m x n row-major and
// contiguous (C[b] starts at c + b * m * n). A, B and C have the same dtype, any of accelpy's:
// float16/bfloat16 accumulate in float32, integers wrap as NumPy's do, bool is "or of ands".
struct Gemm {
  DType dtype = DType::Float32;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  GemmOperand a, b;
  void* c = nullptr;
};

}  // namespace accel
