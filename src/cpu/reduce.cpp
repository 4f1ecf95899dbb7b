// Reductions on the CPU: sum, prod, max, min, argmax, argmin, any, all over any set of axes,
// consuming the values of their group's elementwise steps block by block (program.hpp).
//
// The iteration space is reordered so that each output's elements are one linear range:
// kept axes first, reduced axes last ("inner" reduction: every output reduces a run), or,
// when the fastest-varying memory axis is kept and there are enough outputs to fill a block,
// reduced axes first ("outer": each block updates a row of column accumulators). Float sums
// are pairwise within blocks and cascade pairwise across blocks, so they are at least as
// accurate as NumPy's; across threads, partial results merge in a fixed order.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <type_traits>
#include <vector>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/reduce_ops.h"
#include "src/cpu/program.hpp"
#include "src/cpu/reduce.hpp"
#include "src/cpu/small_group.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

// The semantics (accumulator types, identities, combine rules) are those of
// kernels/reduce_ops.h, shared with the CUDA backend; this file chooses the evaluation order.

// Float sums are pairwise. Integer sums wrap modulo 2^n (ops::Add computes in the unsigned
// type), where the order does not matter: a plain loop, which compilers vectorize well (GCC 12
// at -O3 also miscompiles the eight-accumulator loop below for int8).
template <class A, class T>
A pairwise_sum(const T* x, int64_t n) {
  if constexpr (!(is_float_v<A> || is_complex_v<A>)) {
    A s = A(0);
    for (int64_t i = 0; i < n; ++i) s = ops::Add{}(s, cast<A>(x[i]));
    return s;
  } else {
    // Plain operators on purpose: routed through the functors, GCC 12 keeps the eight
    // accumulators in memory and this loop runs 3x slower.
    if (n < 8) {
      A s = A(0);
      for (int64_t i = 0; i < n; ++i) s = s + A(x[i]);
      return s;
    }
    if (n <= 128) {
      A r[8];
      for (int j = 0; j < 8; ++j) r[j] = A(x[j]);
      int64_t i = 8;
      for (; i + 8 <= n; i += 8) {
        for (int j = 0; j < 8; ++j) r[j] = r[j] + A(x[i + j]);
      }
      A s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
      for (; i < n; ++i) s = s + A(x[i]);
      return s;
    }
    int64_t half = n / 2;
    half -= half % 8;
    return pairwise_sum<A>(x, half) + pairwise_sum<A>(x + half, n - half);
  }
}

// Partial sums of consecutive blocks, combined like a binary counter: error grows with the
// logarithm of the number of blocks, not linearly.
template <class T>
struct Cascade {
  using S = reduce::Sum<T>;
  typename S::Acc level[64];
  uint64_t count = 0;
  void push(typename S::Acc v) {
    int l = 0;
    for (; (count >> l) & 1; ++l) v = S::combine(level[l], v);
    level[l] = v;
    ++count;
  }
  typename S::Acc total() const {
    typename S::Acc s = S::init();
    for (int l = 63; l >= 0; --l) {
      if ((count >> l) & 1) s = S::combine(s, level[l]);
    }
    return s;
  }
};

// Each reducer R has an Acc for "inner" reductions (init, run over a run of values, merge a
// later partial, store) and a Col for "outer" ones (column accumulators updated row by row;
// `first` marks the first row a thread sees). Identities, how a value enters an accumulator and
// how accumulators combine are reduce_ops.h's (the reducer Sem); the loops here choose the order.

// The column side of reducers whose column accumulator is Sem's own: every value enters by
// Sem::lift and partial results combine by Sem::combine.
template <class Sem>
struct SemColumns {
  using Col = typename Sem::Acc;
  Col col_init() const { return Sem::init(); }
  void col_run(Col* c, const typename Sem::In* x, int64_t n, int64_t, bool) const {
    for (int64_t j = 0; j < n; ++j) c[j] = Sem::combine(c[j], Sem::lift(x[j], 0));
  }
  void col_merge(Col* a, const Col* b, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) a[j] = Sem::combine(a[j], b[j]);
  }
  typename Sem::Out col_result(const Col& c) const { return Sem::result(c); }
};
template <class T>
struct SumR : SemColumns<reduce::Sum<T>> {
  using Sem = reduce::Sum<T>;
  using In = T;
  using Out = T;
  using A = typename Sem::Acc;
  using Acc = Cascade<T>;
  Acc init() const { return {}; }
  void run(Acc& acc, const T* x, int64_t n, int64_t) const { acc.push(pairwise_sum<A>(x, n)); }
  void merge(Acc& a, const Acc& b) const { a.push(b.total()); }
  Out result(const Acc& a) const { return Sem::result(a.total()); }
};

template <class T>
struct ProdR : SemColumns<reduce::Prod<T>> {
  using Sem = reduce::Prod<T>;
  using In = T;
  using Out = T;
  using Acc = typename Sem::Acc;
  Acc init() const { return Sem::init(); }
  void run(Acc& acc, const T* x, int64_t n, int64_t) const {
    for (int64_t i = 0; i < n; ++i) acc = Sem::combine(acc, Sem::lift(x[i], 0));
  }
  void merge(Acc& a, const Acc& b) const { a = Sem::combine(a, b); }
  Out result(const Acc& a) const { return Sem::result(a); }
};

// The max (or min) of float32/float64 values in one cache line of independent lanes (vector
// types: GCC 12 left the same loop over an array of lanes scalar, a compare and a NaN test per
// element); the scalar fold below chains every element through one comparison. Returns false
// where the lanes could differ from the scalar fold: a NaN (the first one is the result) or a
// zero result (the fold keeps the last of tied +0 and -0).
template <class T, bool Max>
bool fold_lanes(const T* x, int64_t n, T& out) {
  constexpr int L = 64 / sizeof(T);
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef T Lanes __attribute__((vector_size(64)));
  typedef I Mask __attribute__((vector_size(64)));
  Lanes m;
  std::memcpy(&m, x, sizeof m);
  Mask nan = m != m;
  int64_t i = L;
  for (; i + L <= n; i += L) {
    Lanes v;
    std::memcpy(&v, x + i, sizeof v);
    m = (Max ? v > m : v < m) ? v : m;
    nan |= v != v;
  }
  T r = m[0];
  I any = nan[0];
  for (int j = 1; j < L; ++j) {
    r = (Max ? m[j] > r : m[j] < r) ? m[j] : r;
    any |= nan[j];
  }
  for (; i < n; ++i) {
    any |= x[i] != x[i];
    r = (Max ? x[i] > r : x[i] < r) ? x[i] : r;
  }
  out = r;
  return !any && r != T(0);
}

// max/min. Never empty: the front-end rejects empty max/min as NumPy does. Column accumulators
// are plain values: every column sees its first row before any merge.
template <class T, class Op>
struct FoldR {
  using Sem = reduce::Fold<T, Op>;
  using In = T;
  using Out = T;
  using Acc = typename Sem::Acc;
  using Col = T;
  Acc init() const { return Sem::init(); }
  void run(Acc& acc, const T* x, int64_t n, int64_t) const {
    if (n == 0) return;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      constexpr bool kMax = std::is_same_v<Op, ops::Maximum>;
      T r;
      if (n >= 64 && (kMax || std::is_same_v<Op, ops::Minimum>)&&fold_lanes<T, kMax>(x, n, r)) {
        acc = Sem::lift(acc.valid ? Sem::fold(acc.v, r) : r, 0);
        return;
      }
    }
    T v = acc.valid ? Sem::fold(acc.v, x[0]) : x[0];
    for (int64_t i = 1; i < n; ++i) v = Sem::fold(v, x[i]);
    acc = Sem::lift(v, 0);
  }
  void merge(Acc& a, const Acc& b) const { a = Sem::combine(a, b); }
  Out result(const Acc& a) const { return Sem::result(a); }
  Col col_init() const { return T(); }
  void col_run(Col* c, const T* x, int64_t n, int64_t, bool first) const {
    for (int64_t j = 0; j < n; ++j) c[j] = first ? x[j] : Sem::fold(c[j], x[j]);
  }
  void col_merge(Col* a, const Col* b, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) a[j] = Sem::fold(a[j], b[j]);
  }
  Out col_result(const Col& c) const { return c; }
};

// argmax/argmin: the first index of the extreme value; a NaN counts as extreme, so the first
// NaN wins, as in NumPy. Values arrive in index order: a later one replaces the best only when
// strictly more extreme.
template <class T, bool Max>
struct ArgR {
  using Sem = reduce::Arg<T, Max>;
  using In = T;
  using Out = int64_t;
  using Acc = typename Sem::Acc;
  using Col = Acc;
  Acc init() const { return Sem::init(); }
  void run(Acc& acc, const T* x, int64_t n, int64_t index0) const {
    for (int64_t i = 0; i < n; ++i) {
      if (acc.i < 0 || Sem::replaces(x[i], acc.v)) acc = Sem::lift(x[i], index0 + i);
    }
  }
  void merge(Acc& a, const Acc& b) const { a = Sem::combine(a, b); }
  Out result(const Acc& a) const { return Sem::result(a); }
  Col col_init() const { return Sem::init(); }
  void col_run(Col* c, const T* x, int64_t n, int64_t row, bool) const {
    for (int64_t j = 0; j < n; ++j) {
      if (c[j].i < 0 || Sem::replaces(x[j], c[j].v)) c[j] = Sem::lift(x[j], row);
    }
  }
  void col_merge(Col* a, const Col* b, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) merge(a[j], b[j]);
  }
  Out col_result(const Col& c) const { return Sem::result(c); }
};

// any/all over bool input (the front-end casts to bool).
template <bool All>
struct BoolR : SemColumns<reduce::Logical<All>> {
  using Sem = reduce::Logical<All>;
  using In = bool;
  using Out = bool;
  using Acc = bool;
  Acc init() const { return Sem::init(); }
  void run(Acc& acc, const bool* x, int64_t n, int64_t) const {
    // Stops once the result is decided (the accumulator left its identity).
    for (int64_t i = 0; i < n && acc == Sem::init(); ++i) acc = Sem::combine(acc, x[i]);
  }
  void merge(Acc& a, const Acc& b) const { a = Sem::combine(a, b); }
  Out result(const Acc& a) const { return Sem::result(a); }
};

// Below this many input elements a reduction runs on one thread.
constexpr int64_t kParallelMin = 1 << 15;

struct Geometry {
  int64_t outputs;  // product of the kept axes
  int64_t reduced;  // product of the reduced axes
};

// Whether an inner reduction splits each output's range across the threads (few, long outputs).
bool inner_splits(const Geometry& g, int threads) {
  return !(g.outputs >= threads || g.outputs * g.reduced < kParallelMin || g.reduced <= kBlock);
}

// Whether an outer reduction accumulates bands of rows per thread (few columns, many rows).
bool outer_bands(const Geometry& g, int threads) {
  return !(g.outputs >= int64_t(threads) * kBlock || g.reduced * g.outputs < kParallelMin);
}

// Kept axes first: output o reduces linear range [o * reduced, (o + 1) * reduced).
template <class R>
void run_inner(const R& r, const Program& prog, const StepArg& arg, typename R::Out* out,
               const Geometry& g) {
  using T = typename R::In;
  const int64_t rn = g.reduced, no = g.outputs;
  auto reduce_one = [&](int64_t o, int64_t lo, int64_t hi, typename R::Acc& acc,
                        Program::Scratch& s) {
    for (int64_t b = lo; b < hi; b += kBlock) {
      const int64_t n = std::min(kBlock, hi - b);
      prog.run(o * rn + b, n, s);
      r.run(acc, reinterpret_cast<const T*>(prog.values(arg, s)), n, b);
    }
  };
  const int threads = num_threads();
  if (!inner_splits(g, threads)) {
    const int64_t per_block = rn > 0 && rn <= kBlock ? kBlock / rn : 1;
    const int64_t grain = no * rn < kParallelMin ? no : std::max<int64_t>(per_block, 1);
    parallel_for(no, grain, [&](int64_t lo, int64_t hi, int) {
      Program::Scratch s;
      if (rn > 0 && rn <= kBlock) {
        for (int64_t o = lo; o < hi; o += per_block) {  // several whole outputs per block
          const int64_t cnt = std::min(per_block, hi - o);
          prog.run(o * rn, cnt * rn, s);
          const T* x = reinterpret_cast<const T*>(prog.values(arg, s));
          for (int64_t j = 0; j < cnt; ++j) {
            typename R::Acc acc = r.init();
            r.run(acc, x + j * rn, rn, 0);
            out[o + j] = r.result(acc);
          }
        }
      } else {
        for (int64_t o = lo; o < hi; ++o) {
          typename R::Acc acc = r.init();
          reduce_one(o, 0, rn, acc, s);
          out[o] = r.result(acc);
        }
      }
    });
    return;
  }
  // Few outputs, each long: split every output's range across the threads.
  auto parts = std::make_unique<typename R::Acc[]>(threads);
  for (int64_t o = 0; o < no; ++o) {
    std::fill(parts.get(), parts.get() + threads, r.init());
    parallel_for(rn, kBlock, [&](int64_t lo, int64_t hi, int t) {
      Program::Scratch s;
      reduce_one(o, lo, hi, parts[t], s);
    });
    for (int t = 1; t < threads; ++t) r.merge(parts[0], parts[t]);
    out[o] = r.result(parts[0]);
  }
}

// Reduced axes first: row `row` of the reduced space covers [row * outputs, (row+1) * outputs),
// and each block updates a run of column accumulators.
template <class R>
void run_outer(const R& r, const Program& prog, const StepArg& arg, typename R::Out* out,
               const Geometry& g) {
  using T = typename R::In;
  using Col = typename R::Col;
  const int64_t rows = g.reduced, cols = g.outputs;
  auto accumulate = [&](int64_t c0, int64_t len, int64_t row_lo, int64_t row_hi, Col* acc,
                        Program::Scratch& s) {
    for (int64_t row = row_lo; row < row_hi; ++row) {
      prog.run(row * cols + c0, len, s);
      r.col_run(acc, reinterpret_cast<const T*>(prog.values(arg, s)), len, row, row == row_lo);
    }
  };
  const int threads = num_threads();
  if (!outer_bands(g, threads)) {
    parallel_for(
        cols, rows * cols < kParallelMin ? cols : kBlock, [&](int64_t lo, int64_t hi, int) {
          Program::Scratch s;
          auto acc = std::make_unique<Col[]>(static_cast<size_t>(std::min(kBlock, hi - lo)));
          for (int64_t c0 = lo; c0 < hi; c0 += kBlock) {
            const int64_t len = std::min(kBlock, hi - c0);
            std::fill(acc.get(), acc.get() + len, r.col_init());
            accumulate(c0, len, 0, rows, acc.get(), s);
            for (int64_t j = 0; j < len; ++j) out[c0 + j] = r.col_result(acc[j]);
          }
        });
    return;
  }
  // Few columns, many rows: each thread accumulates a band of rows; bands merge in order.
  for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
    const int64_t len = std::min(kBlock, cols - c0);
    std::vector<std::unique_ptr<Col[]>> parts;
    for (int t = 0; t < threads; ++t) {
      parts.push_back(std::make_unique<Col[]>(static_cast<size_t>(len)));
      std::fill(parts[t].get(), parts[t].get() + len, r.col_init());
    }
    std::vector<char> used(threads, 0);
    parallel_for(rows, 1, [&](int64_t lo, int64_t hi, int t) {
      Program::Scratch s;
      accumulate(c0, len, lo, hi, parts[t].get(), s);
      used[t] = 1;
    });
    for (int t = 1; t < threads; ++t) {
      if (used[t]) r.col_merge(parts[0].get(), parts[t].get(), len);
    }
    for (int64_t j = 0; j < len; ++j) out[c0 + j] = r.col_result(parts[0][j]);
  }
}

template <class R>
void run_with(const R& r, const Group& group, bool outer, const std::vector<int>& perm,
              const Geometry& geo) {
  const Program prog(group, int(group.steps.size()) - 1, make_layout(group, perm));
  const Step& last = group.steps.back();
  Array dest;
  for (const GroupOutput& o : group.outputs) {
    if (o.step == int(group.steps.size()) - 1) dest = o.dest;
  }
  // The loops write the outputs in C order of the kept axes; a result laid out otherwise (NumPy's
  // order for a reduction of a transposed input) is written there, then copied into place.
  const bool direct = dest.is_contiguous();
  const Array home = direct ? dest : Array::empty(dest.shape(), dest.dtype(), dest.device());
  char* out =
      static_cast<char*>(home.storage()->data()) + home.offset() * int64_t(itemsize(home.dtype()));
  auto* typed = reinterpret_cast<typename R::Out*>(out);
  if (outer) {
    run_outer(r, prog, last.args[0], typed, geo);
  } else {
    run_inner(r, prog, last.args[0], typed, geo);
  }
  if (!direct) copy_view(home, dest);
}

// The order a reduction group sums in: kept axes first (inner) or reduced axes first (outer).
struct Order {
  Geometry geo{1, 1};
  bool outer = false;
  std::vector<int> perm;  // the iteration space's dimensions, outermost first
};

Order reduction_order(const Group& group) {
  const Node& node = *group.steps.back().node;
  const int nd = int(group.shape.size());
  std::vector<int> kept, reduced;
  Order order;
  Geometry& geo = order.geo;
  for (int d = 0; d < nd; ++d) {
    if ((node.params.axes >> d) & 1) {
      reduced.push_back(d);
      geo.reduced *= group.shape[d];
    } else {
      kept.push_back(d);
      geo.outputs *= group.shape[d];
    }
  }
  // Outer when the fastest-moving memory axis of the reduced values is kept and there are
  // enough outputs for column blocks to pay off. Values computed by the group's steps are laid
  // out as they would be in memory of their own (their node's layout): the order of summation, and
  // so the result, is the same whether a chain is fused into the reduction or not
  // (ACCELPY_FUSION=0).
  bool outer = false;
  const StepArg& arg = group.steps.back().args[0];
  const Strides values = arg.kind == StepArg::Input  ? group.inputs[arg.index].strides()
                         : arg.kind == StepArg::Step ? group.steps[arg.index].node->strides
                                                     : contiguous_strides(group.shape);
  if (arg.kind != StepArg::Scalar && geo.outputs >= 16 && geo.reduced > 1) {
    int fastest = -1;
    for (int d = 0; d < nd; ++d) {
      // Broadcast (stride-0) axes do not move through memory: they cannot be the fastest.
      if (group.shape[d] <= 1 || values[d] == 0) continue;
      const int64_t s = std::abs(values[d]);
      if (fastest < 0 || s < std::abs(values[fastest])) fastest = d;
    }
    outer = fastest >= 0 && !((node.params.axes >> fastest) & 1);
  }
  order.outer = outer;
  order.perm = outer ? reduced : kept;
  const std::vector<int>& rest = outer ? kept : reduced;
  order.perm.insert(order.perm.end(), rest.begin(), rest.end());
  return order;
}

}  // namespace

void copy_view(const Array& src, const Array& dst) {
  const size_t isz = itemsize(src.dtype());
  const auto* s = static_cast<const char*>(src.storage()->data());
  auto* d = static_cast<char*>(dst.storage()->data());
  const Shape& shape = src.shape();
  const int64_t n = shape_size(shape);
  SmallVector<int64_t, 6> idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t so = src.offset(), doff = dst.offset();
    for (size_t j = 0; j < shape.size(); ++j) {
      so += idx[j] * src.strides()[j];
      doff += idx[j] * dst.strides()[j];
    }
    std::memcpy(d + doff * int64_t(isz), s + so * int64_t(isz), isz);
    for (size_t j = shape.size(); j-- > 0;) {
      if (++idx[j] < shape[j]) break;
      idx[j] = 0;
    }
  }
}

bool reduction_order_depends_on_threads(const Group& group) {
  const Order o = reduction_order(group);
  return o.outer ? outer_bands(o.geo, num_threads()) : inner_splits(o.geo, num_threads());
}

namespace {

// A reduction of every axis of at most a block of values computed by the small-group
// interpreter: what run_inner does for one output of at most kBlock values (one run of the
// reducer over them all), without the block executor's setup.
template <class R>
void run_small(const R& r, const char* values, const Group& group, char* out) {
  typename R::Acc acc = r.init();
  r.run(acc, reinterpret_cast<const typename R::In*>(values), shape_size(group.shape), 0);
  *reinterpret_cast<typename R::Out*>(out) = r.result(acc);
}

template <class F>
void with_reducer(const Node& node, F&& f) {
  dispatch_dtype(node.compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (node.op) {
      case OpKind::Sum:
        return f(SumR<T>{});
      case OpKind::Prod:
        return f(ProdR<T>{});
      case OpKind::Max:
        return f(FoldR<T, ops::Maximum>{});
      case OpKind::Min:
        return f(FoldR<T, ops::Minimum>{});
      case OpKind::ArgMax:
        return f(ArgR<T, true>{});
      case OpKind::ArgMin:
        return f(ArgR<T, false>{});
      case OpKind::Any:
        return f(BoolR<false>{});
      case OpKind::All:
        return f(BoolR<true>{});
      default:
        break;
    }
  });
}

// The reduction's result when it lies in C order (the reducer writes it in place), else null.
const Array* contiguous_result(const Group& group) {
  for (const GroupOutput& o : group.outputs) {
    if (o.step == int(group.steps.size()) - 1) return o.dest.is_contiguous() ? &o.dest : nullptr;
  }
  return nullptr;
}

}  // namespace

void run_reduction(const Group& group) {
  const Node& node = *group.steps.back().node;
  if (const Array* dest = contiguous_result(group)) {
    if (const char* values = run_small_reduction_values(group)) {
      char* out = static_cast<char*>(dest->storage()->data()) +
                  dest->offset() * int64_t(itemsize(dest->dtype()));
      with_reducer(node, [&](const auto& r) { run_small(r, values, group, out); });
      return;
    }
  }
  const Order order = reduction_order(group);
  const Geometry& geo = order.geo;
  const bool outer = order.outer;
  const std::vector<int>& perm = order.perm;
  if (geo.outputs == 0) return;

  with_reducer(node, [&](const auto& r) { run_with(r, group, outer, perm, geo); });
}

}  // namespace accel::cpu
