#include "accel/scalar.hpp"

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "accel/kernels/scalar_ops.h"

namespace accel {

Scalar Scalar::weak_bool(bool v) {
  Scalar s;
  s.dtype_ = DType::Bool;
  s.weak_ = true;
  s.v_.b = v;
  return s;
}

Scalar Scalar::weak_int(int64_t v) {
  Scalar s;
  s.dtype_ = DType::Int64;
  s.weak_ = true;
  s.v_.i = v;
  return s;
}

Scalar Scalar::weak_uint(uint64_t v) {
  Scalar s;
  s.dtype_ = DType::UInt64;
  s.weak_ = true;
  s.v_.u = v;
  return s;
}

Scalar Scalar::weak_huge_int(double v) {
  Scalar s;
  s.dtype_ = v < 0 ? DType::Int64 : DType::UInt64;
  s.weak_ = true;
  s.huge_ = true;
  s.v_.f = v;
  return s;
}

Scalar Scalar::weak_float(double v) {
  Scalar s;
  s.dtype_ = DType::Float64;
  s.weak_ = true;
  s.v_.f = v;
  return s;
}

Scalar Scalar::weak_complex(std::complex<double> v) {
  Scalar s;
  s.dtype_ = DType::Complex128;
  s.weak_ = true;
  s.v_.f = v.real();
  s.im_ = v.imag();
  return s;
}

Scalar Scalar::from_bytes(DType dt, const void* bytes) {
  Scalar s;
  s.dtype_ = dt;
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = *static_cast<const T*>(bytes);
    if constexpr (is_same_v<T, bool>) {
      s.v_.b = v;
    } else if constexpr (is_signed_int_v<T>) {
      s.v_.i = v;
    } else if constexpr (is_unsigned_int_v<T>) {
      s.v_.u = v;
    } else if constexpr (is_complex_v<T>) {
      s.v_.f = v.re;
      s.im_ = v.im;
    } else {
      s.v_.f = static_cast<double>(static_cast<real_t<T>>(v));  // float16 etc. widen exactly
    }
  });
  return s;
}

bool Scalar::as_bool() const {
  if (huge_) return true;
  switch (kind()) {
    case DTypeKind::Bool:
      return v_.b;
    case DTypeKind::SignedInt:
      return v_.i != 0;
    case DTypeKind::UnsignedInt:
      return v_.u != 0;
    case DTypeKind::Float:
      return v_.f != 0;
    case DTypeKind::Complex:
      return v_.f != 0 || im_ != 0;
  }
  return false;
}

int64_t Scalar::as_int() const {
  if (huge_) return v_.f < 0 ? INT64_MIN : INT64_MAX;  // the sign is what comparisons ask
  switch (kind()) {
    case DTypeKind::Bool:
      return v_.b;
    case DTypeKind::SignedInt:
      return v_.i;
    case DTypeKind::UnsignedInt:
      return static_cast<int64_t>(v_.u);
    case DTypeKind::Float:
    case DTypeKind::Complex:
      return accel::cast<int64_t>(v_.f);
  }
  return 0;
}

uint64_t Scalar::as_uint() const {
  if (huge_) return v_.f < 0 ? 0 : UINT64_MAX;
  switch (kind()) {
    case DTypeKind::SignedInt:
      return static_cast<uint64_t>(v_.i);
    case DTypeKind::UnsignedInt:
      return v_.u;
    case DTypeKind::Float:
    case DTypeKind::Complex:
      return accel::cast<uint64_t>(v_.f);
    default:
      return static_cast<uint64_t>(as_int());
  }
}

double Scalar::as_double() const {
  if (huge_) return v_.f;
  switch (kind()) {
    case DTypeKind::Bool:
      return v_.b;
    case DTypeKind::SignedInt:
      return static_cast<double>(v_.i);
    case DTypeKind::UnsignedInt:
      return static_cast<double>(v_.u);
    default:
      return v_.f;
  }
}

std::complex<double> Scalar::as_complex() const {
  return {as_double(), kind() == DTypeKind::Complex ? im_ : 0.0};
}

bool Scalar::fits(DType dt) const {
  if (!is_integer(dt)) return true;
  if (huge_) return false;
  if (kind() != DTypeKind::SignedInt && kind() != DTypeKind::UnsignedInt) return true;
  return dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_int_v<T>) {
      if (kind() == DTypeKind::UnsignedInt)
        return v_.u <= static_cast<uint64_t>(numeric_limits<T>::max());
      if (v_.i < 0) {
        return is_signed_int_v<T> && v_.i >= static_cast<int64_t>(numeric_limits<T>::lowest());
      }
      return static_cast<uint64_t>(v_.i) <= static_cast<uint64_t>(numeric_limits<T>::max());
    } else {
      return true;
    }
  });
}

void Scalar::store(DType dt, void* out) const {
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v{};
    if (huge_) {
      *static_cast<T*>(out) = accel::cast<T>(v_.f);
      return;
    }
    switch (kind()) {
      case DTypeKind::Bool:
        v = accel::cast<T>(v_.b);
        break;
      case DTypeKind::SignedInt:
        v = accel::cast<T>(v_.i);
        break;
      case DTypeKind::UnsignedInt:
        v = accel::cast<T>(v_.u);
        break;
      case DTypeKind::Float:
        v = accel::cast<T>(v_.f);
        break;
      case DTypeKind::Complex:
        v = accel::cast<T>(complex128(v_.f, im_));
        break;
    }
    *static_cast<T*>(out) = v;
  });
}

Scalar Scalar::cast(DType dt) const {
  alignas(16) unsigned char bytes[16];
  store(dt, bytes);
  return from_bytes(dt, bytes);
}

}  // namespace accel
