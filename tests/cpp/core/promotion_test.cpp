// NumPy 2's promotion and casting tables (dtype.cpp): promote_types and can_cast against
// tables printed once by NumPy for its 14 dtypes, and bfloat16 (which NumPy lacks) against the
// rule documented in dtype.hpp, derived from NumPy's safe-cast table plus bfloat16's own safe
// casts. Also NEP 50's weak Python scalars (type_rules.cpp's result_type_of).
#include <gtest/gtest.h>

#include <string>

#include "accel/ops.hpp"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

constexpr DType B = DType::Bool, I8 = DType::Int8, U8 = DType::UInt8, I16 = DType::Int16,
                U16 = DType::UInt16, I32 = DType::Int32, U32 = DType::UInt32, I64 = DType::Int64,
                U64 = DType::UInt64, F16 = DType::Float16, BF16 = DType::BFloat16,
                F32 = DType::Float32, F64 = DType::Float64, C64 = DType::Complex64,
                C128 = DType::Complex128;

// NumPy's dtypes, in the order of the tables' rows and columns (NumPy's loop order).
constexpr DType kNumPy[14] = {B, I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64, C64, C128};

// np.promote_types(row, column), NumPy 2.4.6
constexpr DType kPromote[14][14] = {
    {B, I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64, C64, C128},           // bool
    {I8, I8, I16, I16, I32, I32, I64, I64, F64, F16, F32, F64, C64, C128},         // int8
    {U8, I16, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64, C64, C128},         // uint8
    {I16, I16, I16, I16, I32, I32, I64, I64, F64, F32, F32, F64, C64, C128},       // int16
    {U16, I32, U16, I32, U16, I32, U32, I64, U64, F32, F32, F64, C64, C128},       // uint16
    {I32, I32, I32, I32, I32, I32, I64, I64, F64, F64, F64, F64, C128, C128},      // int32
    {U32, I64, U32, I64, U32, I64, U32, I64, U64, F64, F64, F64, C128, C128},      // uint32
    {I64, I64, I64, I64, I64, I64, I64, I64, F64, F64, F64, F64, C128, C128},      // int64
    {U64, F64, U64, F64, U64, F64, U64, F64, U64, F64, F64, F64, C128, C128},      // uint64
    {F16, F16, F16, F32, F32, F64, F64, F64, F64, F16, F32, F64, C64, C128},       // float16
    {F32, F32, F32, F32, F32, F64, F64, F64, F64, F32, F32, F64, C64, C128},       // float32
    {F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, C128, C128},      // float64
    {C64, C64, C64, C64, C64, C128, C128, C128, C128, C64, C64, C128, C64, C128},  // complex64
    {C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128,
     C128},  // complex128
};
// np.can_cast(row, column, 'no')
constexpr const char* kCast_no[14] = {
    "10000000000000",  // bool
    "01000000000000",  // int8
    "00100000000000",  // uint8
    "00010000000000",  // int16
    "00001000000000",  // uint16
    "00000100000000",  // int32
    "00000010000000",  // uint32
    "00000001000000",  // int64
    "00000000100000",  // uint64
    "00000000010000",  // float16
    "00000000001000",  // float32
    "00000000000100",  // float64
    "00000000000010",  // complex64
    "00000000000001",  // complex128
};
// np.can_cast(row, column, 'equiv')
constexpr const char* kCast_equiv[14] = {
    "10000000000000",  // bool
    "01000000000000",  // int8
    "00100000000000",  // uint8
    "00010000000000",  // int16
    "00001000000000",  // uint16
    "00000100000000",  // int32
    "00000010000000",  // uint32
    "00000001000000",  // int64
    "00000000100000",  // uint64
    "00000000010000",  // float16
    "00000000001000",  // float32
    "00000000000100",  // float64
    "00000000000010",  // complex64
    "00000000000001",  // complex128
};
// np.can_cast(row, column, 'safe')
constexpr const char* kCast_safe[14] = {
    "11111111111111",  // bool
    "01010101011111",  // int8
    "00111111111111",  // uint8
    "00010101001111",  // int16
    "00001111101111",  // uint16
    "00000101000101",  // int32
    "00000011100101",  // uint32
    "00000001000101",  // int64
    "00000000100101",  // uint64
    "00000000011111",  // float16
    "00000000001111",  // float32
    "00000000000101",  // float64
    "00000000000011",  // complex64
    "00000000000001",  // complex128
};
// np.can_cast(row, column, 'same_kind')
constexpr const char* kCast_same_kind[14] = {
    "11111111111111",  // bool
    "01010101011111",  // int8
    "01111111111111",  // uint8
    "01010101011111",  // int16
    "01111111111111",  // uint16
    "01010101011111",  // int32
    "01111111111111",  // uint32
    "01010101011111",  // int64
    "01111111111111",  // uint64
    "00000000011111",  // float16
    "00000000011111",  // float32
    "00000000011111",  // float64
    "00000000000011",  // complex64
    "00000000000011",  // complex128
};
// np.can_cast(row, column, 'unsafe')
constexpr const char* kCast_unsafe[14] = {
    "11111111111111",  // bool
    "11111111111111",  // int8
    "11111111111111",  // uint8
    "11111111111111",  // int16
    "11111111111111",  // uint16
    "11111111111111",  // int32
    "11111111111111",  // uint32
    "11111111111111",  // int64
    "11111111111111",  // uint64
    "11111111111111",  // float16
    "11111111111111",  // float32
    "11111111111111",  // float64
    "11111111111111",  // complex64
    "11111111111111",  // complex128
};

constexpr const char* const* kCastTables[] = {kCast_no, kCast_equiv, kCast_safe, kCast_same_kind,
                                              kCast_unsafe};
constexpr const char* kRules[] = {"no", "equiv", "safe", "same_kind", "unsafe"};

std::string name(DType dt) { return std::string(dtype_name(dt)); }

TEST(Promotion, MatchesNumPysTable) {
  for (int i = 0; i < 14; ++i) {
    for (int j = 0; j < 14; ++j) {
      EXPECT_EQ(promote_types(kNumPy[i], kNumPy[j]), kPromote[i][j])
          << name(kNumPy[i]) << " + " << name(kNumPy[j]);
    }
  }
}

TEST(Casting, MatchesNumPysTablesForEveryRule) {
  for (int r = 0; r < 5; ++r) {
    for (int i = 0; i < 14; ++i) {
      for (int j = 0; j < 14; ++j) {
        EXPECT_EQ(can_cast(kNumPy[i], kNumPy[j], kRules[r]), kCastTables[r][i][j] == '1')
            << name(kNumPy[i]) << " -> " << name(kNumPy[j]) << " (" << kRules[r] << ")";
      }
    }
    EXPECT_EQ(can_cast_safely(kNumPy[r], kNumPy[r + 5]), kCast_safe[r][r + 5] == '1');
  }
}

// bfloat16 (8 significand bits, float32's exponent range) holds bool, int8 and uint8 exactly
// and fits exactly into float32 and wider; nothing else casts safely to or from it.
bool safe_to_bf16(DType from) { return from == B || from == I8 || from == U8 || from == BF16; }
bool safe_from_bf16(DType to) {
  return to == BF16 || to == F32 || to == F64 || to == C64 || to == C128;
}

// Safe casts among all 15 dtypes: NumPy's table, extended by the bfloat16 facts above.
bool safe(DType from, DType to) {
  if (from == BF16) return safe_from_bf16(to);
  if (to == BF16) return safe_to_bf16(from);
  int i = 0, j = 0;
  while (kNumPy[i] != from) ++i;
  while (kNumPy[j] != to) ++j;
  return kCast_safe[i][j] == '1';
}

TEST(Promotion, BFloat16FollowsTheDocumentedRule) {
  // promote_types: the first dtype in loop order that both cast to safely.
  for (int k = 0; k < kNumDTypes; ++k) {
    const DType other = static_cast<DType>(k);
    DType expect = C128;
    for (int c = kNumDTypes - 1; c >= 0; --c) {
      if (safe(BF16, DType(c)) && safe(other, DType(c))) expect = DType(c);
    }
    EXPECT_EQ(promote_types(BF16, other), expect) << "bfloat16 + " << name(other);
    EXPECT_EQ(promote_types(other, BF16), expect) << name(other) << " + bfloat16";
  }
  // The rows spelled out, as ml_dtypes promotes where it defines a result.
  EXPECT_EQ(promote_types(BF16, B), BF16);
  EXPECT_EQ(promote_types(BF16, U8), BF16);
  EXPECT_EQ(promote_types(BF16, I16), F32);
  EXPECT_EQ(promote_types(BF16, F16), F32);
  EXPECT_EQ(promote_types(BF16, U32), F64);
  EXPECT_EQ(promote_types(BF16, C64), C64);
}

TEST(Casting, BFloat16) {
  for (int k = 0; k < kNumDTypes; ++k) {
    const DType other = static_cast<DType>(k);
    const bool same = other == BF16;
    EXPECT_EQ(can_cast(BF16, other, "no"), same);
    EXPECT_EQ(can_cast(other, BF16, "equiv"), same);
    EXPECT_EQ(can_cast(BF16, other, "safe"), safe_from_bf16(other)) << name(other);
    EXPECT_EQ(can_cast(other, BF16, "safe"), safe_to_bf16(other)) << name(other);
    // same_kind: safe, or towards a float or complex of any width (NumPy's rule for floats).
    EXPECT_EQ(can_cast(BF16, other, "same_kind"), is_inexact(other)) << name(other);
    EXPECT_EQ(can_cast(other, BF16, "same_kind"), !is_complex(other)) << name(other);
    EXPECT_TRUE(can_cast(BF16, other, "unsafe"));
    EXPECT_TRUE(can_cast(other, BF16, "unsafe"));
  }
}

TEST(Promotion, IsSymmetricAndIdempotent) {
  for (int i = 0; i < kNumDTypes; ++i) {
    for (int j = 0; j < kNumDTypes; ++j) {
      const DType a = DType(i), b = DType(j);
      EXPECT_EQ(promote_types(a, b), promote_types(b, a));
      EXPECT_TRUE(can_cast_safely(a, promote_types(a, b)));
    }
    EXPECT_EQ(promote_types(DType(i), DType(i)), DType(i));
  }
}

DType result_of(DType array, const ArrayOrScalar& scalar) {
  return result_type({empty({0}, array), scalar});
}

TEST(Promotion, WeakPythonScalars) {
  // NEP 50: a Python scalar adopts the array's dtype unless its kind is higher.
  EXPECT_EQ(result_of(I8, 1), I8);
  EXPECT_EQ(result_of(U8, int64_t{-1}), U8);  // the value is checked later, by the op
  EXPECT_EQ(result_of(F16, 1.5), F16);
  EXPECT_EQ(result_of(BF16, 2), BF16);
  EXPECT_EQ(result_of(I32, 1.5), F64);
  EXPECT_EQ(result_of(B, 1), I64);
  EXPECT_EQ(result_of(B, true), B);
  EXPECT_EQ(result_of(F32, std::complex<double>(1, 1)), C64);
  EXPECT_EQ(result_of(F64, std::complex<double>(1, 1)), C128);
  EXPECT_EQ(result_of(I16, std::complex<double>(1, 1)), C128);
  EXPECT_EQ(result_of(C64, 2.0), C64);
  // Typed scalars (NumPy scalars) promote like arrays.
  EXPECT_EQ(result_of(I8, Scalar::weak_int(1).cast(I64)), I64);
  EXPECT_EQ(result_of(F32, Scalar::weak_float(1).cast(F64)), F64);
  // Only scalars: Python's own types map to the defaults.
  EXPECT_EQ(result_type({1, 2.5}), F64);
  EXPECT_EQ(result_type({true, 2}), I64);
  EXPECT_EQ(result_type({1, std::complex<double>(0, 1)}), C128);
}

TEST(Promotion, PythonIntegersPast64Bits) {
  // An integer to the type rules, a value only inexact dtypes hold (NumPy: float32 + 2**64).
  const Scalar huge = Scalar::weak_huge_int(18446744073709551616.0);
  EXPECT_EQ(result_of(F32, huge), F32);
  EXPECT_EQ(result_of(I8, huge), I8);
  EXPECT_FALSE(huge.fits(I64));
  EXPECT_FALSE(huge.fits(DType::UInt64));
  EXPECT_TRUE(huge.fits(F16));
  EXPECT_EQ(huge.cast(F32).as_double(), 18446744073709551616.0);
  EXPECT_EQ(Scalar::weak_huge_int(-1e30).cast(F64).as_double(), -1e30);
  const Array x = astype(test::make({1, 2, 3}), F32);
  EXPECT_EQ(test::values(add(x, huge))[0], double(18446744073709551616.0f));
  EXPECT_THROW(add(astype(x, I8), huge), OverflowError);
}

}  // namespace
}  // namespace accel
