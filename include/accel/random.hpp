// Random numbers: a counter-based generator (Philox4x32-10) whose draws are lazy generator nodes,
// so `rng.random(n) * 2 + 1` runs as one kernel, on the CPU and on CUDA alike.
//
// A Generator is a key and a block offset. A draw of n values computes element i from block
// `offset + i / L` (L values per Philox block: 4 for 32-bit dtypes, 2 for 64-bit ones) and
// advances the offset past the blocks it used, so the numbers depend only on the seed and the
// sequence of calls, never on the device, the thread count or the fusion: uniforms and integers
// are bit-identical on the CPU and on GPUs, and so are normals and exponentials (their logarithm
// and sine/cosine are polynomials in kernels/random.h rather than each side's libm, whose
// results differ by an ulp or two). The streams are not NumPy's (PCG64): the same seed gives
// different numbers than numpy.random.default_rng.
#pragma once

#include <cstdint>

#include "accel/array.hpp"
#include "accel/scalar.hpp"

namespace accel::random {

class Generator {
 public:
  explicit Generator(uint64_t key, uint64_t offset = 0) : key_(key), offset_(offset) {}

  uint64_t key() const { return key_; }
  // The next Philox block a draw will use.
  uint64_t offset() const { return offset_; }
  void set_offset(uint64_t offset) { offset_ = offset; }

  // Uniform in [0, 1), float32 or float64.
  Array random(const Shape& shape, DType dtype = DType::Float64, Device device = default_device());
  // Standard normal, float32 or float64 (Box-Muller).
  Array standard_normal(const Shape& shape, DType dtype = DType::Float64,
                        Device device = default_device());
  // Standard exponential, float32 or float64.
  Array standard_exponential(const Shape& shape, DType dtype = DType::Float64,
                             Device device = default_device());
  // Integers in [low, high) (or [low, high] with endpoint) of an integer dtype or bool, without
  // modulo bias; ValueError when the bounds are out of the dtype's range or empty.
  Array integers(const Scalar& low, const Scalar& high, const Shape& shape,
                 DType dtype = DType::Int64, bool endpoint = false,
                 Device device = default_device());
  // The first `count` elements (int64) of a pseudo-random permutation of [0, n) (a keyed
  // Feistel network, kernels/random.h), count <= n; the whole permutation when count == n.
  Array permutation(int64_t n, int64_t count, Device device = default_device());

 private:
  uint64_t reserve(const Shape& shape, DType dtype);  // the offset of a draw; advances past it

  uint64_t key_;
  uint64_t offset_;
};

}  // namespace accel::random
