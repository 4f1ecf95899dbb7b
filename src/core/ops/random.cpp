// The random generator's front-end: checks arguments, reserves counter blocks, and makes the
// lazy generator nodes whose arithmetic is kernels/random.h.
#include "accel/random.hpp"

#include <string>

#include "accel/errors.hpp"
#include "src/core/graph.hpp"

namespace accel::random {

namespace {

void check_float(DType dtype, const char* what) {
  if (dtype != DType::Float32 && dtype != DType::Float64) {
    throw TypeError(std::string("Unsupported dtype ") + std::string(dtype_name(dtype)) + " for " +
                    what + ": expected float32 or float64");
  }
}

ScalarArg u64(uint64_t v) {
  ScalarArg s;
  s.dtype = DType::UInt64;
  *reinterpret_cast<uint64_t*>(s.bytes) = v;
  return s;
}

__int128 int128_of(const Scalar& s) {
  if (s.kind() == DTypeKind::UnsignedInt) return __int128(s.as_uint());
  if (s.kind() == DTypeKind::SignedInt || s.kind() == DTypeKind::Bool) return __int128(s.as_int());
  throw TypeError(std::string("integers: bounds must be integers, got a value of dtype ") +
                  std::string(dtype_name(s.dtype())));
}

std::string str128(__int128 v) {
  if (v >= 0 && v <= __int128(UINT64_MAX)) return std::to_string(uint64_t(v));
  if (v < 0 && v >= __int128(INT64_MIN)) return std::to_string(int64_t(v));
  return v < 0 ? "(below -2**63)" : "(above 2**64 - 1)";
}

// The smallest and largest values of integer dtype (or bool) `dt`.
void int_range(DType dt, __int128& lo, __int128& hi) {
  if (dt == DType::Bool) {
    lo = 0;
    hi = 1;
    return;
  }
  const int bits = int(itemsize(dt)) * 8;
  if (kind(dt) == DTypeKind::UnsignedInt) {
    lo = 0;
    hi = (__int128(1) << bits) - 1;
  } else {
    lo = -(__int128(1) << (bits - 1));
    hi = (__int128(1) << (bits - 1)) - 1;
  }
}

}  // namespace

uint64_t Generator::reserve(const Shape& shape, DType dtype) {
  const uint64_t lanes = itemsize(dtype) == 8 ? 2 : 4;
  const uint64_t n = uint64_t(shape_size(shape));
  const uint64_t at = offset_;
  offset_ += (n + lanes - 1) / lanes;
  return at;
}

Array Generator::random(const Shape& shape, DType dtype, Device device) {
  check_new_shape(shape);
  check_float(dtype, "random");
  const uint64_t at = reserve(shape, dtype);
  return make_pending(OpKind::RandomUniform, dtype, shape, device, {u64(key_), u64(at)});
}

Array Generator::standard_normal(const Shape& shape, DType dtype, Device device) {
  check_new_shape(shape);
  check_float(dtype, "standard_normal");
  const uint64_t at = reserve(shape, dtype);
  return make_pending(OpKind::RandomNormal, dtype, shape, device, {u64(key_), u64(at)});
}

Array Generator::standard_exponential(const Shape& shape, DType dtype, Device device) {
  check_new_shape(shape);
  check_float(dtype, "standard_exponential");
  const uint64_t at = reserve(shape, dtype);
  return make_pending(OpKind::RandomExponential, dtype, shape, device, {u64(key_), u64(at)});
}

Array Generator::integers(const Scalar& low, const Scalar& high, const Shape& shape, DType dtype,
                          bool endpoint, Device device) {
  check_new_shape(shape);
  if (!is_integer(dtype) && dtype != DType::Bool) {
    throw TypeError(std::string("Unsupported dtype ") + std::string(dtype_name(dtype)) +
                    " for integers: expected an integer dtype or bool");
  }
  const __int128 lo = int128_of(low), hi_arg = int128_of(high);
  const __int128 hi = endpoint ? hi_arg : hi_arg - 1;  // inclusive
  __int128 min, max;
  int_range(dtype, min, max);
  const std::string name(dtype_name(dtype));
  if (lo < min) throw ValueError("low " + str128(lo) + " is out of bounds for " + name);
  if (hi > max) throw ValueError("high " + str128(hi_arg) + " is out of bounds for " + name);
  if (lo > hi) {
    throw ValueError(endpoint
                         ? "low > high (low " + str128(lo) + ", high " + str128(hi_arg) + ")"
                         : "low >= high (low " + str128(lo) + ", high " + str128(hi_arg) + ")");
  }
  const uint64_t at = reserve(shape, dtype);
  const uint64_t span = uint64_t(hi - lo);
  return make_pending(OpKind::RandomIntegers, dtype, shape, device,
                      {u64(key_), u64(at), u64(uint64_t(lo)), u64(span)});
}

Array Generator::permutation(int64_t n, int64_t count, Device device) {
  if (n < 0) throw ValueError("permutation: n must be non-negative, got " + std::to_string(n));
  if (count < 0 || count > n) {
    throw ValueError("Cannot take a larger sample than population when replace is False");
  }
  if (n > (int64_t(1) << 62)) throw ValueError("permutation: n must be at most 2**62");
  const uint64_t block = offset_++;
  return make_pending(OpKind::RandomPermutation, DType::Int64, {count}, device,
                      {u64(key_), u64(block), u64(uint64_t(n))});
}

}  // namespace accel::random
