// The C++ type of each DType, and dispatch from a run-time DType to a template.
#pragma once

#include <utility>

#include "accel/dtype.hpp"
#include "accel/kernels/complex.h"
#include "accel/kernels/half.h"

namespace accel {

template <DType D>
struct dtype_traits;
#define ACCEL_DTYPE_TRAIT(D, T)   \
  template <>                     \
  struct dtype_traits<DType::D> { \
    using type = T;               \
  };
ACCEL_DTYPE_TRAIT(Bool, bool)
ACCEL_DTYPE_TRAIT(Int8, int8_t)
ACCEL_DTYPE_TRAIT(UInt8, uint8_t)
ACCEL_DTYPE_TRAIT(Int16, int16_t)
ACCEL_DTYPE_TRAIT(UInt16, uint16_t)
ACCEL_DTYPE_TRAIT(Int32, int32_t)
ACCEL_DTYPE_TRAIT(UInt32, uint32_t)
ACCEL_DTYPE_TRAIT(Int64, int64_t)
ACCEL_DTYPE_TRAIT(UInt64, uint64_t)
ACCEL_DTYPE_TRAIT(Float16, float16)
ACCEL_DTYPE_TRAIT(BFloat16, bfloat16)
ACCEL_DTYPE_TRAIT(Float32, float)
ACCEL_DTYPE_TRAIT(Float64, double)
ACCEL_DTYPE_TRAIT(Complex64, complex64)
ACCEL_DTYPE_TRAIT(Complex128, complex128)
#undef ACCEL_DTYPE_TRAIT

template <DType D>
using dtype_t = typename dtype_traits<D>::type;

template <class T>
struct type_tag {
  using type = T;
};

// Calls f(type_tag<T>{}) with T the C++ type of `dt`.
template <class F>
decltype(auto) dispatch_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::Bool:
      return f(type_tag<bool>{});
    case DType::Int8:
      return f(type_tag<int8_t>{});
    case DType::UInt8:
      return f(type_tag<uint8_t>{});
    case DType::Int16:
      return f(type_tag<int16_t>{});
    case DType::UInt16:
      return f(type_tag<uint16_t>{});
    case DType::Int32:
      return f(type_tag<int32_t>{});
    case DType::UInt32:
      return f(type_tag<uint32_t>{});
    case DType::Int64:
      return f(type_tag<int64_t>{});
    case DType::UInt64:
      return f(type_tag<uint64_t>{});
    case DType::Float16:
      return f(type_tag<float16>{});
    case DType::BFloat16:
      return f(type_tag<bfloat16>{});
    case DType::Float32:
      return f(type_tag<float>{});
    case DType::Float64:
      return f(type_tag<double>{});
    case DType::Complex64:
      return f(type_tag<complex64>{});
    case DType::Complex128:
      return f(type_tag<complex128>{});
  }
  __builtin_unreachable();
}

// Calls f(std::integral_constant<DType, D>{}) for every dtype D, in order.
template <class F>
void for_each_dtype(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (f(std::integral_constant<DType, static_cast<DType>(I)>{}), ...);
  }
  (std::make_integer_sequence<int, kNumDTypes>{});
}

}  // namespace accel
