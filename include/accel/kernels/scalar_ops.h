// The scalar semantics of every elementwise operation, written once.
//
// The CPU backend instantiates these functors in its loops; the CUDA code generator embeds this
// file (with platform.h, half.h, complex.h and math.h) into every NVRTC program and calls the
// same functors. Each functor computes in one "compute dtype" T chosen by the type rules
// (src/core/type_rules.cpp); its result is T, bool, or the real type of T, as the op table
// (elementwise_ops.def) says. Semantics follow NumPy 2: where C leaves a case undefined
// (integer division by zero, oversized shifts, float-to-int overflow) the result here is
// NumPy's on x86-64, computed without undefined behaviour, so both backends agree.
#pragma once

#include "complex.h"
#include "half.h"
#include "math.h"
#include "platform.h"

namespace accel {

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

template <class T>
inline constexpr bool is_float_v = is_same_v<T, float> || is_same_v<T, double> || is_half_v<T>;

// ---------------------------------------------------------------------------------------------
// Casts. Every dtype conversion goes through cast<To>(from).

namespace detail {

// C's truncating float-to-int conversion as x86-64 performs it (cvttsd2si): NaN and values out
// of range give the "integer indefinite" value, the most negative integer of the width.
ACCEL_HD int32_t trunc_to_i32(double x) {
  if (!(x > -2147483649.0 && x < 2147483648.0)) return numeric_limits<int32_t>::lowest();
  return static_cast<int32_t>(x);
}
ACCEL_HD int64_t trunc_to_i64(double x) {
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
    return numeric_limits<int64_t>::lowest();
  return static_cast<int64_t>(x);
}
ACCEL_HD uint64_t trunc_to_u64(double x) {
  if (x < 9223372036854775808.0) return static_cast<uint64_t>(trunc_to_i64(x));
  return static_cast<uint64_t>(trunc_to_i64(x - 9223372036854775808.0)) ^ 0x8000000000000000ULL;
}

template <class To>
ACCEL_HD To float_to_int(double x) {
  if constexpr (is_same_v<To, int64_t>) {
    return trunc_to_i64(x);
  } else if constexpr (is_same_v<To, uint64_t>) {
    return trunc_to_u64(x);
  } else if constexpr (is_same_v<To, uint32_t>) {
    return static_cast<uint32_t>(trunc_to_i64(x));
  } else {
    return static_cast<To>(trunc_to_i32(x));  // int8/16/32 and uint8/16 go through int32
  }
}

}  // namespace detail

template <class To, class From>
ACCEL_HD To cast(From x) {
  if constexpr (is_same_v<To, From>) {
    return x;
  } else if constexpr (is_same_v<To, bool>) {
    if constexpr (is_complex_v<From>) {
      return x.re != real_t<From>(0) || x.im != real_t<From>(0);
    } else if constexpr (is_half_v<From>) {
      return static_cast<float>(x) != 0.0f;
    } else {
      return x != From(0);
    }
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) {
      return To(cast<real_t<To>>(x.re), cast<real_t<To>>(x.im));
    } else {
      return cast<To>(x.re);  // NumPy discards the imaginary part (with a ComplexWarning)
    }
  } else if constexpr (is_complex_v<To>) {
    return To(cast<real_t<To>>(x), real_t<To>(0));
  } else if constexpr (is_same_v<From, bool>) {
    return To(x ? 1 : 0);
  } else if constexpr (is_int_v<To> && is_float_v<From>) {
    return detail::float_to_int<To>(static_cast<double>(x));
  } else if constexpr (is_half_v<To>) {
    if constexpr (is_same_v<From, float> || is_same_v<From, double>) {
      return To(x);
    } else if constexpr (is_half_v<From>) {
      return To(static_cast<float>(x));
    } else {
      return To(static_cast<double>(x));  // integers: exact in double up to 2^53, as NumPy
    }
  } else if constexpr (is_half_v<From>) {
    return static_cast<To>(static_cast<float>(x));
  } else {
    return static_cast<To>(x);  // int<->int wraps modulo 2^n (C++20); int->float rounds
  }
}

// ---------------------------------------------------------------------------------------------
// Elementwise operations. Functor names match the enum names in elementwise_ops.def.

namespace detail {
// Integer arithmetic wraps modulo 2^n as in NumPy; computing in the unsigned type avoids the
// undefined behaviour of signed overflow.
template <class T>
ACCEL_HD T wrap_add(T a, T b) {
  using U = make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
ACCEL_HD T wrap_sub(T a, T b) {
  using U = make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T>
ACCEL_HD T wrap_mul(T a, T b) {
  using U = make_unsigned_t<T>;
  // uint16*uint16 promotes to (signed) int and can overflow it; widen explicitly.
  using W = typename make_unsigned<decltype(U() * U())>::type;
  return static_cast<T>(
      static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
}
}  // namespace detail

namespace ops {

struct Add {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (is_int_v<T>) {
      return detail::wrap_add(a, b);
    } else {
      return a + b;
    }
  }
};

struct Subtract {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      return detail::wrap_sub(a, b);
    } else {
      return a - b;
    }
  }
};

struct Multiply {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (is_int_v<T>) {
      return detail::wrap_mul(a, b);
    } else {
      return a * b;
    }
  }
};

struct Divide {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return a / b;
  }
};

struct Negative {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_unsigned_int_v<T>) {
      return static_cast<T>(T(0) - a);  // wraps, as NumPy
    } else if constexpr (is_signed_int_v<T>) {
      return detail::wrap_sub(T(0), a);  // the most negative value wraps to itself
    } else {
      return -a;
    }
  }
};

struct Conj {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      return T(a.re, -a.im);
    } else {
      return a;
    }
  }
};

struct Sqrt {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    return math::sqrt(a);
  }
};

struct Sin {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    return math::sin(a);
  }
};

struct Exp {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    return math::exp(a);
  }
};

// Comparisons. Complex numbers order lexicographically, as NumPy's do (a NaN in either imaginary
// part makes an ordered comparison of unequal real parts false).
template <class T>
ACCEL_HD bool less(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return (a.re < b.re && !math::isnan(a.im) && !math::isnan(b.im)) ||
           (a.re == b.re && a.im < b.im);
  } else {
    return a < b;
  }
}
template <class T>
ACCEL_HD bool less_equal(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return (a.re < b.re && !math::isnan(a.im) && !math::isnan(b.im)) ||
           (a.re == b.re && a.im <= b.im);
  } else {
    return a <= b;
  }
}

struct Equal {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return a == b;
  }
};
struct Less {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less(a, b);
  }
};

// maximum/minimum propagate NaN (the first operand's when both are NaN), as NumPy's; complex
// values compare lexicographically. The max/min reductions fold with these same functors.
struct Maximum {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      const bool ge = (a.re > b.re && !math::isnan(a.im) && !math::isnan(b.im)) ||
                      (a.re == b.re && a.im >= b.im);
      return (ge || math::isnan(a.re) || math::isnan(a.im)) ? a : b;
    } else if constexpr (is_float_v<T>) {
      return (a >= b || math::isnan(a)) ? a : b;
    } else {
      return a >= b ? a : b;
    }
  }
};
struct Minimum {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      const bool le = (a.re < b.re && !math::isnan(a.im) && !math::isnan(b.im)) ||
                      (a.re == b.re && a.im <= b.im);
      return (le || math::isnan(a.re) || math::isnan(a.im)) ? a : b;
    } else if constexpr (is_float_v<T>) {
      return (a <= b || math::isnan(a)) ? a : b;
    } else {
      return a <= b ? a : b;
    }
  }
};

struct LogicalNot {
  ACCEL_HD bool operator()(bool a) const { return !a; }
};

}  // namespace ops
}  // namespace accel
