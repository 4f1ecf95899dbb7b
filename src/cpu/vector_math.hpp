// Vectorized float32/float64 loops for the transcendental functions, from SLEEF.
//
// The compiler vectorizes the arithmetic loops, but a loop calling sinf/expf from the C library
// stays scalar: ~10x slower per element than NumPy's SIMD implementations. SLEEF (the vector
// math library PyTorch also uses) has SIMD versions of each function with at most 1.0 ULP of
// error (its u10 variants), as accurate as the C library and NumPy. It is used when the build
// finds it (Debian's libsleef-dev); without it the loops stay the C library's.
#pragma once

#include "src/cpu/elementwise_loops.hpp"

namespace accel::cpu {

// Replaces the float32 and float64 loops of the functions SLEEF covers, for the instruction set
// the CPU backend is compiled for (AVX-512, AVX2, SSE4.1). No-op without SLEEF.
void add_vector_math_loops(loops::Table& table);

// Replaces the loops of complex abs and float hypot with AVX2 ones, bit-identical to the
// functors (exact_simd_loops.cpp). No-op without AVX2 and FMA.
void add_exact_simd_loops(loops::Table& table);

// Which implementation the transcendental loops use: "sleef-avx512f", ..., or "libm".
const char* vector_math_backend();

}  // namespace accel::cpu
