// The CPU thread pool: how many CPUs it counts (affinity mask, cgroup quotas) and that
// parallel_for covers its range once.
#include "src/cpu/thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace accel::cpu {
namespace {

TEST(ThreadPool, QuotaInWholeCpusRoundedUp) {
  EXPECT_EQ(cpus_of_quota("200000 100000"), 2);
  EXPECT_EQ(cpus_of_quota("150000 100000"), 2);
  EXPECT_EQ(cpus_of_quota("50000 100000"), 1);
  EXPECT_EQ(cpus_of_quota("400000 100000\n"), 4);
  EXPECT_EQ(cpus_of_quota("max 100000"), 0);  // cgroup v2: no limit
  EXPECT_EQ(cpus_of_quota("-1 100000"), 0);   // cgroup v1: no limit
  EXPECT_EQ(cpus_of_quota(""), 0);            // no such file
  EXPECT_EQ(cpus_of_quota("100000 0"), 0);    // malformed
  EXPECT_EQ(cpus_of_quota("garbage"), 0);
}

TEST(ThreadPool, AvailableCpusFollowsTheAffinityMask) {
  const int all = available_cpus();
  EXPECT_GE(all, 1);
  EXPECT_LE(all, int(std::max(1u, std::thread::hardware_concurrency())));
#if defined(__linux__)
  cpu_set_t saved, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  int first = 0;
  while (!CPU_ISSET(first, &saved)) ++first;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  const int pinned = available_cpus();
  ASSERT_EQ(sched_setaffinity(0, sizeof(saved), &saved), 0);
  EXPECT_EQ(pinned, 1);
  EXPECT_EQ(available_cpus(), all);
#endif
}

TEST(ThreadPool, ParallelForCoversTheRangeOnce) {
  for (const int64_t n : {int64_t(1), int64_t(7), int64_t(1000), int64_t(100003)}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    parallel_for(n, 64, [&](int64_t lo, int64_t hi, int) {
      EXPECT_LT(lo, hi);
      for (int64_t i = lo; i < hi; ++i) hits[size_t(i)].fetch_add(1);
    });
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[size_t(i)].load(), 1) << "n=" << n;
  }
}

}  // namespace
}  // namespace accel::cpu
