// Discrete Fourier transforms (numpy.fft's building blocks): complex, real-to-complex and
// complex-to-real transforms over any set of axes, batched over the others.
//
// These run eagerly through the device's FFT library (pocketfft on the CPU, cuFFT on CUDA
// devices, queued in stream order): the input is evaluated first. numpy.fft's functions (fft,
// rfft2, hfft, ...) are compositions of these three, written in python/accelpy/fft.py.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "accel/array.hpp"

namespace accel::fft {

// numpy's `norm=`: which direction is scaled by 1/n ("ortho": both by 1/sqrt(n)).
enum class Norm { Backward, Ortho, Forward };

// The n-dimensional complex transform over `axes` (distinct). Each axis is first cut or
// zero-padded to lengths[i] (>= 1). Real inputs become complex: float16/bfloat16/float32 ->
// complex64, other real dtypes -> complex128.
Array c2c(const Array& a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
          bool inverse, Norm norm);
// The forward transform of real input (rfftn): the last of `axes` keeps lengths.back()/2 + 1
// values. Complex input is a TypeError, as in NumPy.
Array r2c(const Array& a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
          Norm norm);
// The inverse of r2c (irfftn): `lengths` are the lengths of the real output; the last axis of
// the input is cut or padded to lengths.back()/2 + 1 first. Imaginary parts that a Hermitian
// input cannot have (the zero and Nyquist frequencies of the last axis) are ignored, as NumPy
// does. float16 input gives float16, complex64/float32 give float32, others float64.
Array c2r(const Array& a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
          Norm norm);

// The cuFFT plan cache of a CUDA device: plans keyed by (kind, precision, lengths, batch), the
// least recently used one dropped beyond max_size. Plans hold no work area (that comes from
// accelpy's allocator for each call), only cuFFT's own tables.
struct PlanCacheInfo {
  size_t size = 0;      // plans held
  size_t max_size = 0;  // bound (all devices)
  uint64_t hits = 0, misses = 0;
};
PlanCacheInfo plan_cache_info(int cuda_device);
void clear_plan_cache(int cuda_device);
// 0 disables caching (every call makes and destroys its plan).
void set_plan_cache_max_size(size_t max_size);

}  // namespace accel::fft
