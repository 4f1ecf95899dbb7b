// The per-thread lists of small blocks (include/accel/pool_allocator.hpp): every size is usable
// in full, a freed block is handed out again, blocks freed on another thread join that thread's
// lists, and lazy graphs built on one thread and evaluated and dropped on another compute the
// same values.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "accel/pool_allocator.hpp"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPooled = false;  // the sanitizer build takes every block from operator new
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kPooled = false;
#else
constexpr bool kPooled = true;
#endif
#else
constexpr bool kPooled = true;
#endif

TEST(PoolAllocator, EverySizeIsWritableInFull) {
  std::vector<std::pair<void*, size_t>> blocks;
  for (size_t bytes = 1; bytes <= pool::kMaxBlockBytes + 64; ++bytes) {
    void* p = pool::allocate(bytes);
    ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u) << bytes;
    std::memset(p, 0xab, bytes);
    blocks.emplace_back(p, bytes);
  }
  for (auto [p, bytes] : blocks) pool::deallocate(p, bytes);
}

TEST(PoolAllocator, FreedBlocksAreReused) {
  void* a = pool::allocate(40);
  pool::deallocate(a, 40);
  void* b = pool::allocate(48);  // the same 16-byte class
  if (kPooled) {
    EXPECT_EQ(a, b);
  }
  std::memset(b, 0, 48);
  pool::deallocate(b, 48);
}

TEST(PoolAllocator, BlocksFreedOnAnotherThreadJoinItsLists) {
  // Allocated here for 33 bytes, freed there, then handed out there for 48: the block has its
  // class's full size whichever thread allocated it.
  void* a = pool::allocate(33);
  std::thread([a] {
    pool::deallocate(a, 33);
    void* b = pool::allocate(48);
    if (kPooled) {
      EXPECT_EQ(a, b);
    }
    std::memset(b, 0xcd, 48);
    pool::deallocate(b, 48);
  }).join();
}

TEST(PoolAllocator, GraphsMadeOnOneThreadAndDroppedOnAnother) {
  const std::vector<double> v = test::random_values(10, test::fresh_seed());
  for (int round = 0; round < 20; ++round) {
    Array x = test::make(v);
    for (int i = 0; i < 100; ++i) x = add(multiply(x, 0.5), 1.0);  // evaluated every 64 deep
    ASSERT_TRUE(x.is_pending());
    std::vector<double> got;
    std::thread([&got, y = std::move(x)]() mutable {
      got = test::values(y);
      y = Array();
    }).join();
    for (size_t i = 0; i < v.size(); ++i) {
      double want = v[i];
      for (int k = 0; k < 100; ++k) want = want * 0.5 + 1.0;
      EXPECT_NEAR(got[i], want, 1e-12) << i;
    }
  }
}

}  // namespace
}  // namespace accel
