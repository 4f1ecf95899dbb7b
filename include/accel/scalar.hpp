// Scalar values: Python scalars (weak, NEP 50) and typed scalars (NumPy scalars, 0-d values).
#pragma once

#include <complex>
#include <cstdint>

#include "accel/dtype.hpp"

namespace accel {

class Scalar {
 public:
  // Python's bool/int/float/complex: "weak" scalars that take the dtype of the array they meet.
  static Scalar weak_bool(bool v);
  static Scalar weak_int(int64_t v);
  // A Python int above INT64_MAX that still fits uint64.
  static Scalar weak_uint(uint64_t v);
  // A Python int that no 64-bit integer holds (its nearest double): an integer to NEP 50's type
  // rules, which fits only inexact dtypes (float32 + 2**64 is 1.8446744e19; int8 + 2**64
  // overflows).
  static Scalar weak_huge_int(double v);
  static Scalar weak_float(double v);
  static Scalar weak_complex(std::complex<double> v);
  // A value of a definite dtype read from one element of `dt` in memory.
  static Scalar from_bytes(DType dt, const void* bytes);

  // Weak scalars report the default dtype of their kind (bool, int64, float64, complex128;
  // uint64 for ints above INT64_MAX).
  DType dtype() const { return dtype_; }
  bool is_weak() const { return weak_; }
  bool is_huge_int() const { return huge_; }
  DTypeKind kind() const { return accel::kind(dtype_); }

  // The value widened: bool, int64 (or uint64 when unsigned), double, complex<double>.
  bool as_bool() const;
  int64_t as_int() const;
  uint64_t as_uint() const;
  double as_double() const;
  std::complex<double> as_complex() const;

  // Whether an integer value is representable in integer dtype `dt` (NEP 50 overflow check).
  bool fits(DType dt) const;
  // The same value with a definite dtype, converted with cast semantics (scalar_ops.h's cast).
  Scalar cast(DType dt) const;

  // Writes the value, converted to `dt`, into `out` (itemsize(dt) bytes).
  void store(DType dt, void* out) const;

 private:
  DType dtype_ = DType::Bool;
  bool weak_ = false;
  bool huge_ = false;  // weak_huge_int: the value is v_.f
  union {
    bool b;
    int64_t i;
    uint64_t u;
    double f;
  } v_{};
  double im_ = 0.0;  // imaginary part for complex values
};

}  // namespace accel
