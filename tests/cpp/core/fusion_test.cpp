// The fusion planner seen from C++: common subexpressions run once while every array keeps its
// memory, results nobody else reads are merged into one group, the structure counter ignores
// sizes and scalars, the debug logger sees every group, and pending work keeps at most the
// configured bytes alive.
#include <gtest/gtest.h>

#include <vector>

#include "accel/fusion.hpp"
#include "src/core/eval.hpp"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

using test::make;
using test::StatsDelta;
using test::values;

TEST(Fusion, CommonSubexpressionsRunOnceAndStayDistinct) {
  const Array a = make({1, 2, 3, 4}), b = make({5, 6, 7, 8});
  Array x = sqrt(add(multiply(a, b), 1.0));
  Array y = sqrt(add(multiply(a, b), 1.0));
  StatsDelta d;
  eval({x, y});
  EXPECT_EQ(d.groups(), 1u);
  EXPECT_EQ(d.nodes(), 3u);
  EXPECT_EQ(d.written(), 2u);
  EXPECT_NE(x.storage(), y.storage());
  EXPECT_EQ(values(x), values(y));
  EXPECT_DOUBLE_EQ(values(y)[2], std::sqrt(22.0));
}

TEST(Fusion, IndependentResultsShareOneGroup) {
  const Array a = make({1, 2, 3}), b = make({4, 5, 6});
  const Array u = add(a, b), v = multiply(a, b), w = subtract(a, b);
  StatsDelta d;
  eval({u, v, w});
  EXPECT_EQ(d.groups(), 1u);
  EXPECT_EQ(values(v), (std::vector<double>{4, 10, 18}));
  EXPECT_EQ(values(w), (std::vector<double>{-3, -3, -3}));
}

TEST(Fusion, StructuresIgnoreSizesAndScalars) {
  reset_eval_stats();
  for (int n : {3, 30, 300}) {
    const Array r = multiply(add(make(std::vector<double>(size_t(n), 1.0)), double(n)), 0.5);
    r.eval();
  }
  // The three runs of `(x + s) * 0.5`, plus the copies make() evaluates: two structures.
  EXPECT_LE(eval_stats().structures, 2u);
  EXPECT_GE(eval_stats().structure_hits, 2u);
}

TEST(Fusion, LoggerSeesEveryGroup) {
  std::vector<FusionRecord> seen;
  set_fusion_logger([&](const FusionRecord& r) { seen.push_back(r); });
  const Array a = make({1, 2, 3, 4});
  const Array s = sum(multiply(a, a));
  s.eval();
  set_fusion_logger(nullptr);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, "reduction");
  EXPECT_EQ(seen[0].ops, (std::vector<std::string>{"multiply<float64>", "sum<float64>"}));
  EXPECT_EQ(seen[0].kernel, "cpu");
  EXPECT_NE(format_fusion_record(seen[0]).find("multiply<float64>"), std::string::npos);
  EXPECT_EQ(values(s)[0], 30.0);
}

TEST(Fusion, PendingMemoryIsBounded) {
  const size_t was = max_pending_bytes();
  const int64_t n = 4096;
  set_max_pending_bytes(size_t(n) * 8 * 3);
  const uint64_t early = eval_stats().early_evaluations;
  Array acc = make(std::vector<double>(size_t(n), 0.0));
  for (int i = 0; i < 20; ++i) {
    acc = add(acc, make(std::vector<double>(size_t(n), double(i))));
    // The check runs as each node is made, while the caller still holds its operands: the
    // newest array comes on top of the limit.
    EXPECT_LE(pending_bytes(), size_t(n) * 8 * 4);
  }
  set_max_pending_bytes(was);
  EXPECT_GT(eval_stats().early_evaluations, early);
  EXPECT_EQ(values(acc)[17], 190.0);
}

}  // namespace
}  // namespace accel
