// The write barrier (storage.cpp, eval.cpp's evaluate_into): a pending reader of x, then a
// write into x, then reading the reader must give the value from before the write, as NumPy's
// eager evaluation does; and a write whose value reads its own destination must see the old
// data (NumPy's overlap handling).
#include <gtest/gtest.h>

#include <vector>

#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

using test::make;
using test::slice;
using test::StatsDelta;
using test::values;

std::vector<double> scaled(std::vector<double> v, double k, double add = 0) {
  for (double& x : v) x = x * k + add;
  return v;
}

class WriteBarrier : public ::testing::Test {
 protected:
  void SetUp() override { seed_ = test::fresh_seed(); }
  std::vector<double> random(size_t n) {
    SCOPED_TRACE(seed_);
    return test::random_values(n, seed_++);
  }
  uint32_t seed_ = 0;
};

TEST_F(WriteBarrier, InPlaceOperator) {
  const std::vector<double> xv = random(10);
  const Array x = make(xv);
  const Array r = multiply(x, 2.0);
  assign(x, add(x, 1.0));  // x += 1
  EXPECT_EQ(values(r), scaled(xv, 2));
  EXPECT_EQ(values(x), scaled(xv, 1, 1));
}

TEST_F(WriteBarrier, InPlaceOperatorIsOneGroup) {
  // The write computes its own read of x: no separate barrier evaluation, no temporary.
  const Array x = make(random(10));
  const StatsDelta stats;
  assign(x, add(x, 1.0));
  EXPECT_EQ(stats.groups(), 1u);
  EXPECT_EQ(stats.written(), 1u);
}

TEST_F(WriteBarrier, AValueStillHeldIsAlsoWrittenToItsOwnMemory) {
  const std::vector<double> xv = random(10);
  const Array x = make(xv);
  const Array r = add(x, 1.0);
  const StatsDelta stats;
  assign(x, r);  // x[...] = r, r still referenced
  EXPECT_EQ(stats.groups(), 1u);
  EXPECT_EQ(stats.written(), 2u);
  EXPECT_FALSE(r.is_pending());
  EXPECT_EQ(values(r), scaled(xv, 1, 1));
  EXPECT_EQ(values(x), scaled(xv, 1, 1));
}

TEST_F(WriteBarrier, WholeArrayAndSliceAssignment) {
  const std::vector<double> xv = random(6);
  const Array x = make(xv);
  const Array r1 = multiply(x, 2.0);
  assign(x, 5.0);  // x[...] = 5
  const Array r2 = add(x, 1.0);
  index_assign(x, {slice(1, 3)}, 7.0);  // x[1:3] = 7
  EXPECT_EQ(values(r1), scaled(xv, 2));
  EXPECT_EQ(values(r2), std::vector<double>(6, 6.0));
  EXPECT_EQ(values(x), (std::vector<double>{5, 7, 7, 5, 5, 5}));
}

TEST_F(WriteBarrier, WriteThroughAView) {
  const std::vector<double> xv = random(6);
  const Array x = make(xv, {2, 3});
  const Array r = sum(x, std::vector<int64_t>{0});
  const Array v = transpose(x);
  index_assign(v, {int64_t{1}}, -1.0);  // x.T[1] = -1, i.e. x[:, 1] = -1
  EXPECT_EQ(values(r), (std::vector<double>{xv[0] + xv[3], xv[1] + xv[4], xv[2] + xv[5]}));
  EXPECT_EQ(values(x), (std::vector<double>{xv[0], -1, xv[2], xv[3], -1, xv[5]}));
}

TEST_F(WriteBarrier, WriteThroughAViewOfAPendingArray) {
  const std::vector<double> bv = random(6);
  const Array x = add(make(bv), 1.0);  // pending
  const Array r = multiply(x, 2.0);
  const Array v = index(x, {slice(1, 4)});
  assign(v, 7.0);
  EXPECT_EQ(values(r), scaled(bv, 2, 2));
  const std::vector<double> xs = values(x);
  EXPECT_EQ(xs[0], bv[0] + 1);
  EXPECT_EQ(xs[2], 7.0);
  EXPECT_EQ(xs[5], bv[5] + 1);
}

TEST_F(WriteBarrier, ReadersOfReadersAndReductions) {
  const std::vector<double> xv = random(8);
  const Array x = make(xv);
  const Array s = add(sqrt(multiply(x, x)), 1.0);
  const Array total = sum(x);
  const Array rev = multiply(index(x, {slice({}, {}, -1)}), 1.0);
  index_assign(x, {slice(2, 5)}, 100.0);
  double expect_total = 0;
  for (double v : xv) expect_total += v;
  EXPECT_NEAR(values(total)[0], expect_total, 1e-12);
  const std::vector<double> sv = values(s), rv = values(rev);
  for (size_t i = 0; i < xv.size(); ++i) {
    EXPECT_EQ(sv[i], std::fabs(xv[i]) + 1);
    EXPECT_EQ(rv[i], xv[xv.size() - 1 - i]);
  }
}

TEST_F(WriteBarrier, ShiftWithinOneArray) {
  const std::vector<double> av = random(5000);  // several blocks
  const Array a = make(av);
  index_assign(a, {slice(1)}, index(a, {slice({}, -1)}));  // a[1:] = a[:-1]
  const std::vector<double> got = values(a);
  EXPECT_EQ(got[0], av[0]);
  for (size_t i = 1; i < av.size(); ++i) ASSERT_EQ(got[i], av[i - 1]) << i;
  const Array b = make(av);
  index_assign(b, {slice({}, -1)}, index(b, {slice(1)}));  // b[:-1] = b[1:]
  const std::vector<double> gb = values(b);
  for (size_t i = 0; i + 1 < av.size(); ++i) ASSERT_EQ(gb[i], av[i + 1]) << i;
}

TEST_F(WriteBarrier, AddTransposeInPlace) {
  const std::vector<double> av = random(9);
  const Array a = make(av, {3, 3});
  assign(a, add(a, transpose(a)));  // a += a.T
  const std::vector<double> got = values(a);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(got[i * 3 + j], av[i * 3 + j] + av[j * 3 + i]);
  }
}

TEST_F(WriteBarrier, ValueFromAPendingReaderOfTheDestination) {
  const std::vector<double> xv = random(6);
  const Array x = make(xv);
  const Array r = multiply(x, 2.0);
  index_assign(x, {slice({}, {}, -1)}, add(r, 1.0));  // x[::-1] = r + 1
  const std::vector<double> got = values(x);
  for (size_t i = 0; i < xv.size(); ++i) EXPECT_EQ(got[i], 2 * xv[5 - i] + 1);
  EXPECT_EQ(values(r), scaled(xv, 2));
}

TEST_F(WriteBarrier, InPlaceOperatorsInALoop) {
  const std::vector<double> xv = random(4);
  const Array x = make(xv);
  std::vector<Array> snapshots;
  std::vector<std::vector<double>> expected;
  std::vector<double> now = xv;
  for (int i = 0; i < 20; ++i) {
    snapshots.push_back(multiply(x, 1.0));
    expected.push_back(now);
    assign(x, add(x, double(i)));  // x += i
    for (double& v : now) v += i;
  }
  for (int i = 0; i < 20; ++i) EXPECT_EQ(values(snapshots[i]), expected[i]) << i;
  EXPECT_EQ(values(x), now);
}

TEST_F(WriteBarrier, TwoStoragesOverOneBuffer) {
  // NumPy memory wrapped twice (ap.asarray(n) twice): a write through one is seen by the
  // pending readers of the other, and an overlapping copy between them reads the old data.
  std::vector<double> buf = random(3000);
  const std::vector<double> orig = buf;
  auto wrap = [&](int64_t offset, int64_t n) {
    return Array::wrap(buf.data() + offset, DType::Float64, {n}, {1}, Device::cpu(), nullptr, true);
  };
  const Array whole = wrap(0, 3000);
  const Array head = wrap(0, 2999);
  const Array r = multiply(head, 2.0);
  index_assign(whole, {slice(1)}, head);  // whole[1:] = whole[:-1], through another storage
  const std::vector<double> got = values(whole);
  EXPECT_EQ(got[0], orig[0]);
  for (size_t i = 1; i < orig.size(); ++i) ASSERT_EQ(got[i], orig[i - 1]) << i;
  const std::vector<double> rv = values(r);
  for (size_t i = 0; i < rv.size(); ++i) ASSERT_EQ(rv[i], 2 * orig[i]) << i;
}

TEST_F(WriteBarrier, FailedWriteLeavesReadersConsistent) {
  const std::vector<double> xv = random(4);
  const Array x = make(xv);
  const Array r = multiply(x, 2.0);
  EXPECT_THROW(assign(x, make(random(3))), ValueError);
  EXPECT_TRUE(r.is_pending());
  assign(x, 0.0);
  EXPECT_EQ(values(r), scaled(xv, 2));
}

TEST_F(WriteBarrier, ReadOnlyViewsRejectWrites) {
  const Array x = make(random(3));
  const Array b = broadcast_to(x, {2, 3});
  EXPECT_THROW(assign(b, 1.0), ValueError);
  EXPECT_THROW(index_assign(b, {int64_t{0}}, 1.0), ValueError);
}

}  // namespace
}  // namespace accel
