// Data types and NumPy 2 type promotion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace accel {

// Declared in NumPy's loop order (bool, then integers by width with signed before unsigned,
// then floats, then complex): type resolution picks the first supported dtype in this order.
enum class DType : uint8_t {
  Bool,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Complex64,
  Complex128,
};
inline constexpr int kNumDTypes = 15;

enum class DTypeKind : uint8_t { Bool, SignedInt, UnsignedInt, Float, Complex };

struct DTypeInfo {
  std::string_view name;  // NumPy's name: "float32", "bfloat16", ...
  uint8_t itemsize;
  DTypeKind kind;
};

const DTypeInfo& dtype_info(DType dt);
inline size_t itemsize(DType dt) { return dtype_info(dt).itemsize; }
inline std::string_view dtype_name(DType dt) { return dtype_info(dt).name; }
inline DTypeKind kind(DType dt) { return dtype_info(dt).kind; }
inline bool is_bool(DType dt) { return dt == DType::Bool; }
inline bool is_integer(DType dt) {
  return kind(dt) == DTypeKind::SignedInt || kind(dt) == DTypeKind::UnsignedInt;
}
inline bool is_floating(DType dt) { return kind(dt) == DTypeKind::Float; }
inline bool is_complex(DType dt) { return kind(dt) == DTypeKind::Complex; }
inline bool is_inexact(DType dt) { return is_floating(dt) || is_complex(dt); }
// The address alignment an element needs: its size, a complex number's part size (NumPy's
// dtype.alignment and C++'s alignof agree).
inline size_t element_alignment(DType dt) { return itemsize(dt) / (is_complex(dt) ? 2 : 1); }
inline bool is_aligned_for(const void* p, DType dt) {
  return reinterpret_cast<uintptr_t>(p) % element_alignment(dt) == 0;
}

std::optional<DType> dtype_from_name(std::string_view name);

// complex64 -> float32, complex128 -> float64, others unchanged.
DType real_dtype(DType dt);
// float16/bfloat16/float32 -> complex64, float64 -> complex128; complex unchanged.
DType complex_dtype(DType dt);

// NumPy's "safe" casting: every value of `from` is represented exactly in `to`.
bool can_cast_safely(DType from, DType to);
// NumPy's can_cast with a casting rule: "no", "equiv", "safe", "same_kind" or "unsafe".
bool can_cast(DType from, DType to, std::string_view casting);

// NumPy 2 promote_types: the first dtype, in loop order, that both cast to safely
// (int64 + uint64 -> float64, float16 + bfloat16 -> float32).
DType promote_types(DType a, DType b);
// The same over a set of dtypes (bit i: DType i), as NumPy promotes a sequence: the first dtype
// all of them cast to safely, which pairwise promotion can miss (uint8, int8, float16 -> float16).
DType promote_types_of(uint32_t dtype_bits);

// Defaults, as NumPy's on 64-bit Linux.
inline constexpr DType kDefaultInt = DType::Int64;
inline constexpr DType kDefaultFloat = DType::Float64;
inline constexpr DType kDefaultComplex = DType::Complex128;
inline constexpr DType kDefaultIndex = DType::Int64;

// A set of dtypes, as a bit mask over DType values.
using DTypeSet = uint32_t;
constexpr DTypeSet dtype_bit(DType dt) { return DTypeSet{1} << static_cast<int>(dt); }
constexpr bool contains(DTypeSet set, DType dt) { return (set & dtype_bit(dt)) != 0; }

namespace dtypes {
inline constexpr DTypeSet kBool = dtype_bit(DType::Bool);
inline constexpr DTypeSet kSignedInts = dtype_bit(DType::Int8) | dtype_bit(DType::Int16) |
                                        dtype_bit(DType::Int32) | dtype_bit(DType::Int64);
inline constexpr DTypeSet kUnsignedInts = dtype_bit(DType::UInt8) | dtype_bit(DType::UInt16) |
                                          dtype_bit(DType::UInt32) | dtype_bit(DType::UInt64);
inline constexpr DTypeSet kInts = kSignedInts | kUnsignedInts;
inline constexpr DTypeSet kRealFloats = dtype_bit(DType::Float16) | dtype_bit(DType::BFloat16) |
                                        dtype_bit(DType::Float32) | dtype_bit(DType::Float64);
inline constexpr DTypeSet kComplex = dtype_bit(DType::Complex64) | dtype_bit(DType::Complex128);
inline constexpr DTypeSet kFloats = kRealFloats | kComplex;  // "inexact"
inline constexpr DTypeSet kIntegral = kBool | kInts;
inline constexpr DTypeSet kNumeric = kInts | kFloats;
inline constexpr DTypeSet kRealNumeric = kInts | kRealFloats;
inline constexpr DTypeSet kNoComplex = kBool | kInts | kRealFloats;
inline constexpr DTypeSet kAll = kBool | kNumeric;
}  // namespace dtypes

}  // namespace accel
