// What a backend provides for FFTs (the core's front-end is src/core/ops/fft.cpp).
//
// The front-end hands over contiguous (C-order) arrays whose transformed axes are the last
// `rank` ones; everything before them is the batch. It evaluates the input first and
// allocates the output, so a backend only runs its library (pocketfft, cuFFT) in the device's
// stream order.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/dtype.hpp"

namespace accel {

enum class FftKind : uint8_t {
  C2C,  // complex -> complex, same lengths
  R2C,  // real -> complex; the last axis holds n/2 + 1 values
  C2R,  // complex (n/2 + 1 on the last axis) -> real; rank is 1 (see the front-end)
};

struct FftJob {
  FftKind kind = FftKind::C2C;
  DType real = DType::Float32;  // the precision: Float32 or Float64
  int64_t batch = 1;            // product of the leading (not transformed) dimensions
  std::vector<int64_t> n;       // logical lengths of the transformed axes (real side for R2C/C2R)
  bool forward = true;          // sign of the exponent (C2C; R2C is forward, C2R backward)
  double scale = 1;             // the result is multiplied by this (norm=), when applies_scale
  const void* in = nullptr;     // contiguous input; C2R may overwrite it (the front-end copies)
  void* out = nullptr;          // contiguous output, never the input
};

class FftBackend {
 public:
  virtual ~FftBackend() = default;
  // Queues the transform on the device's current stream (CPU: runs it).
  virtual void execute(const FftJob& job) = 0;
  // Whether execute() applies job.scale; when not (cuFFT never scales), the front-end
  // multiplies the result lazily, so the scaling fuses with what consumes it.
  virtual bool applies_scale() const = 0;
  // The largest rank one execute() handles; the front-end splits longer axis lists.
  virtual int max_rank() const = 0;
};

}  // namespace accel
