// The host-side part of the staged transfers that needs no GPU: the streaming copy.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "src/cuda/driver/transfer.hpp"

namespace accel::cuda {
namespace {

// Every head/body/tail split: sizes around the 64-byte body step, misaligned ends on both sides.
TEST(CudaTransfer, StreamCopyEqualsMemcpy) {
  std::mt19937 gen(12345);
  std::vector<unsigned char> src(1 << 16), dst(src.size() + 64), want(dst.size());
  for (unsigned char& b : src) b = static_cast<unsigned char>(gen());
  for (size_t n : {size_t(0), size_t(1), size_t(15), size_t(16), size_t(63), size_t(64), size_t(65),
                   size_t(200), size_t(4097), size_t(60000)}) {
    for (size_t so : {0, 1, 7, 16}) {
      for (size_t dof : {0, 3, 8, 17}) {
        for (size_t i = 0; i < dst.size(); ++i) dst[i] = want[i] = static_cast<unsigned char>(i);
        std::memcpy(want.data() + dof, src.data() + so, n);
        host_stream_copy(dst.data() + dof, src.data() + so, n);
        ASSERT_EQ(dst, want) << "n=" << n << " src+" << so << " dst+" << dof;
      }
    }
  }
}

}  // namespace
}  // namespace accel::cuda
