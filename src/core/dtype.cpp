#include "accel/dtype.hpp"

#include <array>

namespace accel {

namespace {

constexpr std::array<DTypeInfo, kNumDTypes> kInfo = {{
    {"bool", 1, DTypeKind::Bool},
    {"int8", 1, DTypeKind::SignedInt},
    {"uint8", 1, DTypeKind::UnsignedInt},
    {"int16", 2, DTypeKind::SignedInt},
    {"uint16", 2, DTypeKind::UnsignedInt},
    {"int32", 4, DTypeKind::SignedInt},
    {"uint32", 4, DTypeKind::UnsignedInt},
    {"int64", 8, DTypeKind::SignedInt},
    {"uint64", 8, DTypeKind::UnsignedInt},
    {"float16", 2, DTypeKind::Float},
    {"bfloat16", 2, DTypeKind::Float},
    {"float32", 4, DTypeKind::Float},
    {"float64", 8, DTypeKind::Float},
    {"complex64", 8, DTypeKind::Complex},
    {"complex128", 16, DTypeKind::Complex},
}};

// Significand bits of each float dtype (and of the float part of complex).
int float_digits(DType dt) {
  switch (dt) {
    case DType::Float16:
      return 11;
    case DType::BFloat16:
      return 8;
    case DType::Float32:
    case DType::Complex64:
      return 24;
    default:
      return 53;
  }
}

int int_digits(DType dt) {  // value bits, without the sign
  const int bits = 8 * static_cast<int>(itemsize(dt));
  return kind(dt) == DTypeKind::SignedInt ? bits - 1 : bits;
}

int float_max_exponent(DType dt) {
  switch (dt) {
    case DType::Float16:
      return 16;
    case DType::BFloat16:
    case DType::Float32:
    case DType::Complex64:
      return 128;
    default:
      return 1024;
  }
}

}  // namespace

const DTypeInfo& dtype_info(DType dt) { return kInfo[static_cast<size_t>(dt)]; }

std::optional<DType> dtype_from_name(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kInfo[i].name == name) return static_cast<DType>(i);
  }
  return std::nullopt;
}

DType real_dtype(DType dt) {
  if (dt == DType::Complex64) return DType::Float32;
  if (dt == DType::Complex128) return DType::Float64;
  return dt;
}

DType complex_dtype(DType dt) {
  if (dt == DType::Float64) return DType::Complex128;
  if (is_floating(dt)) return DType::Complex64;
  return dt;
}

bool can_cast_safely(DType from, DType to) {
  if (from == to || from == DType::Bool) return true;
  const DTypeKind fk = kind(from), tk = kind(to);
  switch (fk) {
    case DTypeKind::Bool:
      return true;
    case DTypeKind::SignedInt:
    case DTypeKind::UnsignedInt:
      if (tk == DTypeKind::Bool) return false;
      if (tk == DTypeKind::SignedInt) return int_digits(to) >= int_digits(from);
      if (tk == DTypeKind::UnsignedInt) {
        return fk == DTypeKind::UnsignedInt && int_digits(to) >= int_digits(from);
      }
      // NumPy treats int64 -> float64 as safe although it rounds; mirror its table.
      if (itemsize(from) >= 8) return float_digits(to) == 53;
      return float_digits(to) >= int_digits(from);
    case DTypeKind::Float:
      if (tk == DTypeKind::Float) {
        return float_digits(to) >= float_digits(from) &&
               float_max_exponent(to) >= float_max_exponent(from);
      }
      if (tk == DTypeKind::Complex) {
        return float_digits(to) >= float_digits(from) &&
               float_max_exponent(to) >= float_max_exponent(from);
      }
      return false;
    case DTypeKind::Complex:
      return tk == DTypeKind::Complex && itemsize(to) >= itemsize(from);
  }
  return false;
}

bool can_cast(DType from, DType to, std::string_view casting) {
  if (casting == "unsafe") return true;
  if (casting == "no" || casting == "equiv") return from == to;
  if (casting == "safe") return can_cast_safely(from, to);
  if (casting == "same_kind") {
    if (can_cast_safely(from, to)) return true;
    const auto rank = [](DType dt) {
      switch (kind(dt)) {
        case DTypeKind::Bool:
          return 0;
        case DTypeKind::SignedInt:
        case DTypeKind::UnsignedInt:
          return 1;
        case DTypeKind::Float:
          return 2;
        case DTypeKind::Complex:
          return 3;
      }
      return 0;
    };
    // Within a kind downcasts are allowed; unsigned -> signed too (NumPy's 'same_kind').
    if (kind(from) == DTypeKind::SignedInt && kind(to) == DTypeKind::UnsignedInt) return false;
    return rank(to) >= rank(from);
  }
  return false;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType c = static_cast<DType>(i);
    if (can_cast_safely(a, c) && can_cast_safely(b, c)) return c;
  }
  return DType::Complex128;  // unreachable: everything casts safely to complex128
}

DType promote_types_of(uint32_t dtype_bits) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType c = static_cast<DType>(i);
    bool all = true;
    for (int j = 0; j < kNumDTypes && all; ++j) {
      if ((dtype_bits >> j) & 1u) all = can_cast_safely(static_cast<DType>(j), c);
    }
    if (all) return c;
  }
  return DType::Complex128;
}

}  // namespace accel
