// The lazy-evaluation contract of the core (eval.cpp, graph.cpp, storage.cpp): arguments are
// checked at the call, arithmetic waits until something needs it, dropped work costs nothing,
// fused chains run as one group, and writes keep NumPy's order (the write barrier).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "src/core/eval.hpp"
#include "src/core/graph.hpp"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

using test::make;
using test::slice;
using test::StatsDelta;
using test::values;

// Turns fusion off for one scope (ACCELPY_FUSION=0 does it for the process).
class FusionOff {
 public:
  FusionOff() : was_(fusion_enabled()) { set_fusion_enabled(false); }
  ~FusionOff() { set_fusion_enabled(was_); }

 private:
  bool was_;
};

class Lazy : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = test::fresh_seed();
    RecordProperty("seed", int(seed_));
    SCOPED_TRACE(seed_);
  }
  std::vector<double> random(size_t n) { return test::random_values(n, seed_++); }
  uint32_t seed_ = 0;
};

std::vector<double> map(const std::vector<double>& a, double (*f)(double)) {
  std::vector<double> out(a);
  for (double& v : out) v = f(v);
  return out;
}

// ---- eager validation -------------------------------------------------------------------

TEST_F(Lazy, ArgumentsAreCheckedAtTheCall) {
  const Array a = make(random(6), {2, 3});
  const Array b = make(random(4), {4});
  const StatsDelta stats;
  EXPECT_THROW(add(a, b), ValueError);
  EXPECT_THROW(subtract(astype(a, DType::Bool), true), TypeError);
  EXPECT_THROW(sum(a, std::vector<int64_t>{2}), AxisError);
  EXPECT_THROW(reshape(a, {4, 2}), ValueError);
  EXPECT_THROW(index(a, {int64_t{2}}), IndexError);
  EXPECT_EQ(stats.groups(), 0u);
}

TEST_F(Lazy, AFailedCallLeavesNoPendingReader) {
  // where() converts its condition to bool (a pending Cast reading `cond`) before it finds that
  // 1000 does not fit int8: the half-built node must not survive as a reader of `cond`.
  const Array cond = make(random(5));
  const Array x = astype(make(random(5)), DType::Int8);
  x.eval();
  EXPECT_THROW(where(cond, x, 1000), OverflowError);
  const StatsDelta stats;
  assign(cond, 1.0);  // the write barrier finds nothing to evaluate
  EXPECT_EQ(stats.groups(), 1u);
}

// ---- deferral and cost ------------------------------------------------------------------

TEST_F(Lazy, ArithmeticIsDeferredUntilNeeded) {
  const std::vector<double> av = random(8);
  const Array a = make(av);
  const StatsDelta stats;
  const Array y = sqrt(multiply(a, a));
  EXPECT_TRUE(y.is_pending());
  EXPECT_FALSE(a.is_pending());
  EXPECT_EQ(stats.groups(), 0u);
  EXPECT_EQ(values(y), map(av, std::fabs));
  EXPECT_FALSE(y.is_pending());
}

TEST_F(Lazy, DroppedPendingWorkCostsNothing) {
  const Array a = make(random(1000));
  const StatsDelta stats;
  for (int i = 0; i < 50; ++i) {
    const Array t = add(multiply(a, double(i)), sum(a));
    EXPECT_TRUE(t.is_pending());
  }
  EXPECT_EQ(stats.groups(), 0u);
  // The dropped readers of `a` are gone: writing into `a` computes only the write.
  assign(a, 0.0);
  EXPECT_EQ(stats.groups(), 1u);
  EXPECT_EQ(stats.nodes(), 2u);  // the fill and the copy into a
}

TEST_F(Lazy, FusedChainRunsAsOneGroup) {
  const std::vector<double> av = random(3000), bv = random(3000);
  const Array a = make(av), b = make(bv);
  const StatsDelta stats;
  const Array out = subtract(multiply(sqrt(add(multiply(a, a), multiply(b, b))), 2.0), a);
  EXPECT_EQ(stats.groups(), 0u);
  out.eval();
  EXPECT_EQ(stats.groups(), 1u);
  EXPECT_EQ(stats.nodes(), 6u);
  EXPECT_EQ(stats.written(), 1u);  // intermediates never touch memory
  const std::vector<double> got = values(out);
  for (size_t i = 0; i < av.size(); ++i) {
    EXPECT_DOUBLE_EQ(got[i], std::sqrt(av[i] * av[i] + bv[i] * bv[i]) * 2.0 - av[i]);
  }
}

TEST_F(Lazy, WithoutFusionEveryNodeIsAGroup) {
  const FusionOff off;
  const Array a = make(random(100)), b = make(random(100));
  const StatsDelta stats;
  subtract(multiply(sqrt(add(multiply(a, a), multiply(b, b))), 2.0), a).eval();
  EXPECT_EQ(stats.groups(), 6u);
  EXPECT_EQ(stats.nodes(), 6u);
  EXPECT_EQ(stats.written(), 6u);
}

TEST_F(Lazy, ElementwiseChainFusesIntoItsReduction) {
  const std::vector<double> av = random(5000);
  const Array a = make(av);
  const StatsDelta stats;
  const Array s = sum(add(multiply(a, a), 1.0));
  s.eval();
  EXPECT_EQ(stats.groups(), 1u);
  EXPECT_EQ(stats.nodes(), 3u);
  double expect = 0;
  for (double v : av) expect += v * v + 1.0;
  EXPECT_NEAR(values(s)[0], expect, 1e-9 * expect);
}

TEST_F(Lazy, ReferencedIntermediateIsWrittenOnceAndNotRecomputed) {
  const std::vector<double> av = random(64);
  const Array a = make(av);
  const StatsDelta stats;
  const Array t = multiply(a, a);  // still referenced here, as a live Python array would be
  const Array u = add(t, 1.0);
  u.eval();
  EXPECT_EQ(stats.groups(), 1u);   // fused...
  EXPECT_EQ(stats.nodes(), 2u);    // ...each node computed once...
  EXPECT_EQ(stats.written(), 2u);  // ...and t written out on the way
  EXPECT_FALSE(t.is_pending());
  const std::vector<double> tv = values(t);
  EXPECT_EQ(stats.groups(), 1u);  // reading t computed nothing more
  for (size_t i = 0; i < av.size(); ++i) EXPECT_EQ(tv[i], av[i] * av[i]);
}

TEST_F(Lazy, ReferencedIntermediateIsNotFusedIntoAReduction) {
  const Array a = make(random(64));
  const StatsDelta stats;
  const Array t = multiply(a, a);
  const Array s = sum(t);
  s.eval();
  EXPECT_FALSE(t.is_pending());
  EXPECT_EQ(stats.nodes(), 2u);
  values(t);
  EXPECT_EQ(stats.nodes(), 2u);
}

TEST_F(Lazy, EvalOfSeveralArraysSharesWork) {
  const std::vector<double> av = random(100);
  const Array a = make(av);
  Array u, v;
  {
    const Array t = exp(a);  // dropped: only u and v hold it
    u = add(t, 1.0);
    v = multiply(t, 2.0);
  }
  const StatsDelta stats;
  eval({u, v});
  EXPECT_EQ(stats.nodes(), 3u);  // exp ran once
  const std::vector<double> uv = values(u), vv = values(v);
  EXPECT_EQ(stats.nodes(), 3u);
  for (size_t i = 0; i < av.size(); ++i) {  // accel's exp need not be libm's to the last bit
    EXPECT_NEAR(uv[i], std::exp(av[i]) + 1.0, 1e-14 * uv[i]);
    EXPECT_NEAR(vv[i], std::exp(av[i]) * 2.0, 1e-14 * vv[i]);
  }
}

TEST_F(Lazy, SeparateEvaluationsComputeASharedIntermediateOnce) {
  const Array a = make(random(100));
  Array u, v;
  {
    const Array t = exp(a);
    u = add(t, 1.0);
    v = multiply(t, 2.0);
  }
  const StatsDelta stats;
  u.eval();  // t is still read by v: written out, not fused away
  v.eval();
  EXPECT_EQ(stats.nodes(), 3u);
}

// ---- deep chains ------------------------------------------------------------------------

TEST_F(Lazy, LongLoopsMatchSequentialArithmetic) {
  Array b = zeros({5});
  double expect = 0;
  for (int i = 0; i < 10000; ++i) {
    b = add(b, 0.5);
    expect = expect + 0.5;
  }
  for (double v : values(b)) EXPECT_EQ(v, expect);

  Array c = zeros({3}, DType::Float32);
  float expect32 = 0;
  for (int i = 0; i < 3000; ++i) {
    c = add(c, 0.1);  // weak 0.1 becomes float32(0.1), as NumPy's NEP 50
    expect32 = expect32 + 0.1f;
  }
  std::vector<float> got(3);
  to_host(c, got.data());
  for (float v : got) EXPECT_EQ(v, expect32);
}

TEST_F(Lazy, PendingChainsStayBounded) {
  Array b = make(random(4));
  const StatsDelta stats;
  for (int i = 0; i < 1000; ++i) b = add(b, 1.0);
  // Evaluated every kMaxPendingDepth steps, so each plan stays small.
  EXPECT_GE(stats.groups(), 1000u / kMaxPendingDepth - 1);
  EXPECT_LE(b.storage()->producer()->depth, kMaxPendingDepth);
}

// A chain of `n` pending nodes built directly, past the depth limit that the front-ends keep.
Array raw_chain(const Array& start, int n) {
  Array b = start;
  for (int i = 0; i < n; ++i) {
    auto node = std::make_shared<Node>(OpKind::Negative, b.dtype(), b.device(), b.shape(),
                                       std::vector<Operand>{Operand{b}});
    b = Array::pending(std::move(node));
  }
  return b;
}

TEST_F(Lazy, DroppingAVeryDeepChainDoesNotRecurse) {
  const Array a = make({1, 2, 3});
  const StatsDelta stats;
  { const Array deep = raw_chain(a, 300000); }
  EXPECT_EQ(stats.groups(), 0u);
}

TEST_F(Lazy, EvaluatingAVeryDeepChainDoesNotRecurse) {
  const Array a = make({1, -2, 3});
  const Array deep = raw_chain(a, 100001);  // odd: negated
  deep.eval();
  EXPECT_EQ(values(deep), (std::vector<double>{-1, 2, -3}));
}

// ---- views of pending results -----------------------------------------------------------

TEST_F(Lazy, ViewsOfAPendingResultSeeTheComputedData) {
  const std::vector<double> av = random(12);
  std::vector<double> y(av);
  for (double& v : y) v += 1;
  Array sliced, reversed, transposed, reshaped;
  {
    const Array p = add(make(av, {3, 4}), 1.0);
    sliced = index(p, {slice(1, 3), slice({}, {}, 2)});
    reversed = index(reshape(p, {12}), {slice({}, {}, -3)});
    transposed = transpose(p);
    reshaped = reshape(p, {2, 6});
  }
  EXPECT_TRUE(sliced.is_pending());
  const StatsDelta stats;
  sliced.eval();
  EXPECT_EQ(stats.groups(), 1u);
  // The other views share the storage just computed.
  EXPECT_FALSE(transposed.is_pending());
  EXPECT_FALSE(reversed.is_pending());
  EXPECT_EQ(values(sliced), (std::vector<double>{y[4], y[6], y[8], y[10]}));
  EXPECT_EQ(values(reversed), (std::vector<double>{y[11], y[8], y[5], y[2]}));
  EXPECT_EQ(values(transposed)[1], y[4]);
  EXPECT_EQ(values(reshaped), y);
}

TEST_F(Lazy, OpsOnViewsOfPendingResults) {
  const std::vector<double> av = random(6);
  const Array p = multiply(make(av, {2, 3}), 2.0);
  const Array flipped = index(p, {slice(), slice({}, {}, -1)});
  const Array q = add(transpose(p), transpose(flipped));  // q[i, j] = p[j, i] + p[j, 2 - i]
  const std::vector<double> got = values(q);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(got[i * 2 + j], 2 * av[j * 3 + i] + 2 * av[j * 3 + 2 - i]);
    }
  }
}

TEST_F(Lazy, ConcatenateOfOnePendingArray) {
  const std::vector<double> av = random(4);
  const Array c = concatenate({add(make(av), 1.0)});
  const Array d = concatenate({add(make(av), 1.0), zeros({0})});
  for (size_t i = 0; i < av.size(); ++i) {
    EXPECT_EQ(values(c)[i], av[i] + 1);
    EXPECT_EQ(values(d)[i], av[i] + 1);
  }
}

}  // namespace
}  // namespace accel
