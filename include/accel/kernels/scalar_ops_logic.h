// Bitwise, comparison and logical elementwise ops: part of scalar_ops.h (which includes this
// file at its end), kept apart only for size. The rules of scalar_ops.h apply.
#pragma once

#include "scalar_ops.h"

namespace accel {
namespace ops {

// ---- bitwise --------------------------------------------------------------------------------

struct BitwiseAnd {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
struct BitwiseOr {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};
struct BitwiseXor {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};
struct BitwiseInvert {
  template <class T>
  ACCEL_HD T operator()(T a) const {
    if constexpr (is_same_v<T, bool>) {
      return !a;
    } else {
      return static_cast<T>(~a);
    }
  }
};
struct BitwiseLeftShift {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return detail::shift_left(a, b);
  }
};
struct BitwiseRightShift {
  template <class T>
  ACCEL_HD T operator()(T a, T b) const {
    return detail::shift_right(a, b);
  }
};

// ---- comparisons and logic ------------------------------------------------------------------

struct Equal {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return a == b;
  }
};
struct NotEqual {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return a != b;
  }
};
struct Less {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less(a, b);
  }
};
struct LessEqual {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less_equal(a, b);
  }
};
struct Greater {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less(b, a);
  }
};
struct GreaterEqual {
  template <class T>
  ACCEL_HD bool operator()(T a, T b) const {
    return less_equal(b, a);
  }
};

struct LogicalAnd {
  ACCEL_HD bool operator()(bool a, bool b) const { return a && b; }
};
struct LogicalOr {
  ACCEL_HD bool operator()(bool a, bool b) const { return a || b; }
};
struct LogicalXor {
  ACCEL_HD bool operator()(bool a, bool b) const { return a != b; }
};
struct LogicalNot {
  ACCEL_HD bool operator()(bool a) const { return !a; }
};

// Classification: integers and bool are always finite.
struct Isfinite {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      return math::isfinite(a);
    } else {
      return true;
    }
  }
};
struct Isinf {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      return math::isinf(a);
    } else {
      return false;
    }
  }
};
struct Isnan {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      return math::isnan(a);
    } else {
      return false;
    }
  }
};
struct Signbit {
  template <class T>
  ACCEL_HD bool operator()(T a) const {
    return math::signbit(a);
  }
};

}  // namespace ops
}  // namespace accel
