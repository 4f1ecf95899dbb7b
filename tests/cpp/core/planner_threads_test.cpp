// Planning is thread-safe: two threads planning graphs that share a pending node (both read
// the same lazy array) each get their own node indices. The index lives in the plan
// (src/core/node_index.hpp); a per-node field that every collect overwrote made one thread's
// plan lose the shared node while the other planned.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "accel/storage.hpp"
#include "src/core/graph.hpp"
#include "src/core/plan.hpp"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

TEST(PlannerThreads, SharedNodesKeepEachPlansIndices) {
  const Array a = test::make(test::random_values(16, test::fresh_seed()));
  const Array shared = add(multiply(a, 2.0), 1.0);  // pending, read by both threads' graphs
  ASSERT_TRUE(shared.is_pending());
  // Each thread's graph has another number of nodes before the shared ones' consumers, so the
  // two plans number the shared nodes differently.
  std::vector<Array> tails;
  for (int t = 0; t < 2; ++t) {
    Array x = shared;
    for (int i = 0; i < 3 + 5 * t; ++i) x = add(x, a);
    tails.push_back(x);
  }
  std::atomic<int> wrong{0};
  std::atomic<bool> go{false};
  auto plan_repeatedly = [&](const Array& target) {
    while (!go.load()) std::this_thread::yield();
    Storage* s = target.storage().get();
    for (int iter = 0; iter < 2000; ++iter) {
      plan::Plan p;
      plan::collect(std::span<Storage* const>(&s, 1), p);
      for (size_t i = 0; i < p.nodes.size(); ++i) {
        if (p.index_of(p.nodes[i].node) != int(i)) ++wrong;
      }
      plan::analyze_references(std::span<Storage* const>(&s, 1), p);
      for (const plan::PlanNode& pn : p.nodes) {
        for (int c : pn.consumers) {
          if (c < 0 || size_t(c) >= p.nodes.size()) ++wrong;
        }
      }
    }
  };
  std::thread t0(plan_repeatedly, tails[0]);
  std::thread t1(plan_repeatedly, tails[1]);
  go = true;
  t0.join();
  t1.join();
  EXPECT_EQ(wrong.load(), 0);
  // Both graphs still evaluate to NumPy's values.
  const std::vector<double> av = test::values(a);
  for (int t = 0; t < 2; ++t) {
    const std::vector<double> got = test::values(tails[t]);
    for (size_t i = 0; i < av.size(); ++i) {
      EXPECT_DOUBLE_EQ(got[i], av[i] * 2.0 + 1.0 + av[i] * (3 + 5 * t)) << i;
    }
  }
}

}  // namespace
}  // namespace accel
