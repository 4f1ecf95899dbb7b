// The semantics of the reductions, shared by the CPU loops and the CUDA kernels: the
// accumulator type, its identity, how one value enters it, how two partial results combine,
// and the final result. The backends choose the order of evaluation (pairwise blocks on the
// CPU, trees of threads on the GPU); every combine here is associative and, for argmax/argmin,
// independent of that order: the first index of the extreme value wins, and a NaN counts as
// extreme (the first NaN wins), as in NumPy.
//
// Accumulators are plain aggregates (no constructors), so they can live in CUDA shared memory.
#pragma once

#include "scalar_ops.h"

namespace accel::reduce {

// Sums and products accumulate 16-bit floats in float (as NumPy's half sums do) and float32 /
// complex64 in double precision: a float32 sum is then correctly rounded in practice, so never
// less accurate than NumPy's pairwise float32 sum, whatever order a backend adds in. Memory
// bandwidth, not arithmetic, bounds these reductions on both backends.
template <class T>
struct acc_of {
  using type = T;
};
template <>
struct acc_of<float> {
  using type = double;
};
template <>
struct acc_of<complex64> {
  using type = complex128;
};
template <>
struct acc_of<float16> {
  using type = float;
};
template <>
struct acc_of<bfloat16> {
  using type = float;
};
template <class T>
using acc_t = typename acc_of<T>::type;

template <class T>
ACCEL_HD bool is_nan(T x) {
  if constexpr (is_complex_v<T>) {
    return math::isnan(x.re) || math::isnan(x.im);
  } else if constexpr (is_float_v<T>) {
    return math::isnan(x);
  } else {
    return false;
  }
}

template <class T>
struct Sum {
  using In = T;
  using Out = T;
  using Acc = acc_t<T>;
  ACCEL_HD static Acc init() { return Acc(0); }
  ACCEL_HD static Acc lift(T x, int64_t) { return cast<Acc>(x); }
  ACCEL_HD static Acc combine(Acc a, Acc b) { return ops::Add{}(a, b); }
  ACCEL_HD static Out result(Acc a) { return cast<Out>(a); }
};

template <class T>
struct Prod {
  using In = T;
  using Out = T;
  using Acc = acc_t<T>;
  ACCEL_HD static Acc init() { return Acc(1); }
  ACCEL_HD static Acc lift(T x, int64_t) { return cast<Acc>(x); }
  ACCEL_HD static Acc combine(Acc a, Acc b) {
    if constexpr (is_complex_v<Acc>) {
      return multiply_unfused(a, b);  // NumPy's reduce loop, not its SIMD multiply
    } else {
      return ops::Multiply{}(a, b);
    }
  }
  ACCEL_HD static Out result(Acc a) { return cast<Out>(a); }
};

// max/min fold with the elementwise maximum/minimum functors, so NaN propagates exactly as in
// the ufuncs. `valid` is false for the identity (max/min have none; the front-end rejects
// empty reductions, but a thread may see no element).
template <class T, class Op>
struct Fold {
  using In = T;
  using Out = T;
  struct Acc {
    T v;
    bool valid;
  };
  ACCEL_HD static Acc init() {
    Acc a;
    a.v = T();
    a.valid = false;
    return a;
  }
  ACCEL_HD static Acc lift(T x, int64_t) {
    Acc a;
    a.v = x;
    a.valid = true;
    return a;
  }
  // Two values, both present: the fold itself (loops over known elements call it directly).
  ACCEL_HD static T fold(T a, T b) { return Op{}(a, b); }
  ACCEL_HD static Acc combine(Acc a, Acc b) {
    if (!a.valid) return b;
    if (!b.valid) return a;
    a.v = fold(a.v, b.v);
    return a;
  }
  ACCEL_HD static Out result(Acc a) { return a.v; }
};
template <class T>
using Max = Fold<T, ops::Maximum>;
template <class T>
using Min = Fold<T, ops::Minimum>;

// Whether x is strictly more extreme than y (NaN ranks above everything, ties are not).
template <bool IsMax, class T>
ACCEL_HD bool more_extreme(T x, T y) {
  if (is_nan(y)) return false;
  if (is_nan(x)) return true;
  return IsMax ? ops::less(y, x) : ops::less(x, y);
}

template <class T, bool IsMax>
struct Arg {
  // Whether x, met after `best`, replaces it: strictly more extreme (earlier indices win ties).
  ACCEL_HD static bool replaces(T x, T best) { return more_extreme<IsMax>(x, best); }
  using In = T;
  using Out = int64_t;
  struct Acc {
    T v;
    int64_t i;  // -1: no element yet
  };
  ACCEL_HD static Acc init() {
    Acc a;
    a.v = T();
    a.i = -1;
    return a;
  }
  ACCEL_HD static Acc lift(T x, int64_t index) {
    Acc a;
    a.v = x;
    a.i = index;
    return a;
  }
  // Order-independent: the more extreme value wins, equal values go to the smaller index.
  ACCEL_HD static Acc combine(Acc a, Acc b) {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    if (more_extreme<IsMax>(b.v, a.v)) return b;
    if (more_extreme<IsMax>(a.v, b.v)) return a;
    return b.i < a.i ? b : a;
  }
  ACCEL_HD static Out result(Acc a) { return a.i; }
};
template <class T>
using ArgMax = Arg<T, true>;
template <class T>
using ArgMin = Arg<T, false>;

// any/all over bool (the front-end casts the input to bool).
template <bool IsAll>
struct Logical {
  using In = bool;
  using Out = bool;
  using Acc = bool;
  ACCEL_HD static Acc init() { return IsAll; }
  ACCEL_HD static Acc lift(bool x, int64_t) { return x; }
  ACCEL_HD static Acc combine(Acc a, Acc b) { return IsAll ? (a && b) : (a || b); }
  ACCEL_HD static Out result(Acc a) { return a; }
};
using Any = Logical<false>;
using All = Logical<true>;

}  // namespace accel::reduce
