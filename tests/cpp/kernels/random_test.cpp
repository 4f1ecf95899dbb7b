// kernels/random.h: Philox known answers, the conversions to floats and bounded integers, and
// the accuracy of the logarithm and sine/cosine the normals and exponentials use.
#include "accel/kernels/random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace accel::rng {
namespace {

TEST(Philox, KnownAnswers) {
  // Random123's tests/kat_vectors, "philox4x32 10".
  struct Case {
    uint32_t in[6];
    uint32_t out[4];
  } cases[] = {
      {{0, 0, 0, 0, 0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{~0u, ~0u, ~0u, ~0u, ~0u, ~0u}, {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Case& c : cases) {
    const Block b = philox4x32_10(c.in[0], c.in[1], c.in[2], c.in[3], c.in[4], c.in[5]);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(b.w[j], c.out[j]);
  }
}

TEST(Philox, ElementFunctionsMatchBlocks) {
  const uint64_t key = 0x0123456789abcdefULL, offset = 77;
  for (int64_t i = 0; i < 64; ++i) {
    float f[4];
    uniform_block<float>(block_at(key, offset + uint64_t(i) / 4), f);
    EXPECT_EQ(uniform_at<float>(i, key, offset), f[i % 4]);
    double d[2];
    normal_block<double>(block_at(key, offset + uint64_t(i) / 2), d);
    EXPECT_EQ(normal_at<double>(i, key, offset), d[i % 2]);
  }
}

TEST(RandomConversions, UniformEndpoints) {
  const Block zeros{{0, 0, 0, 0}}, ones{{~0u, ~0u, ~0u, ~0u}};
  float f[4];
  double d[2];
  uniform_block<float>(zeros, f);
  EXPECT_EQ(f[0], 0.0f);
  uniform_block<float>(ones, f);
  EXPECT_EQ(f[3], 1.0f - 0x1p-24f);  // below 1
  uniform_block<double>(ones, d);
  EXPECT_EQ(d[1], 1.0 - 0x1p-53);
  // The (0, 1] uniforms the logarithms read never reach 0.
  EXPECT_EQ(open_uniform<float>(zeros, 0), 0x1p-32f);
  EXPECT_EQ(open_uniform<double>(zeros, 0), 0x1p-53);
  EXPECT_EQ(open_uniform<float>(ones, 0), 1.0f);
  float e[4];
  exponential_block<float>(ones, e);
  EXPECT_EQ(e[0], 0.0f);
  EXPECT_FALSE(std::signbit(e[0]));
}

template <class T>
double ulps(T got, double exact) {
  const T r = T(exact);
  const double ulp = std::ldexp(1.0, std::ilogb(r) - (sizeof(T) == 4 ? 23 : 52));
  return std::fabs(double(got) - exact) / ulp;
}

// Within 2 ulps (float) and 4 ulps (double, near 1 where log is small) of the exact values:
// ample for random-number transforms, and the same on every backend.
TEST(RandomMath, LogAccuracy) {
  for (int i = 1; i < 200000; ++i) {
    const float x = std::ldexp(1.0f + float(i % 9973) / 9973.0f, -(i % 33));
    if (x == 1.0f) continue;
    EXPECT_LT(ulps(log_positive(x), std::log(double(x))), 2.0) << x;
    const double xd = std::ldexp(1.0 + double(i) / 200000.0, -(i % 54));
    EXPECT_LE(ulps(log_positive(xd), double(std::log((long double)xd))), 4.0) << xd;
  }
  EXPECT_EQ(log_positive(1.0f), 0.0f);
  EXPECT_EQ(log_positive(1.0), 0.0);
}

TEST(RandomMath, SinCosAccuracy) {
  for (uint64_t k = 0; k < (1u << 24); k += 37) {
    float s, c;
    sincos_turns<float>(k, s, c);
    const double t = 2 * M_PI * double(k) * 0x1p-24;
    if (std::fabs(std::sin(t)) > 1e-3) {
      EXPECT_LT(ulps(s, std::sin(t)), 2.0) << k;
    }
    if (std::fabs(std::cos(t)) > 1e-3) {
      EXPECT_LT(ulps(c, std::cos(t)), 2.0) << k;
    }
    const uint64_t kd = k << 29 | ((k * 2654435761u) & ((1u << 29) - 1));
    double sd, cd;
    sincos_turns<double>(kd, sd, cd);
    const long double td = 2 * 3.141592653589793238462643383279502884L * (long double)kd * 0x1p-53L;
    if (std::fabs(std::sin(double(td))) > 1e-3) {
      EXPECT_LE(ulps(sd, double(sinl(td))), 4.0) << kd;
    }
    if (std::fabs(std::cos(double(td))) > 1e-3) {
      EXPECT_LE(ulps(cd, double(cosl(td))), 4.0) << kd;
    }
  }
}

TEST(RandomIntegers, RejectionKeepsEveryValueEquallyLikely) {
  // span + 1 = 3 * 2^30: a quarter of the words are rejected and redrawn.
  const uint64_t span = 3ull * (1ull << 30) - 1;
  std::vector<int> counts(3, 0);
  for (uint64_t b = 0; b < 30000; ++b) {
    uint32_t v[4];
    integers_block<uint32_t>(block_at(5, b), 5, b, 0, span, v);
    for (uint32_t x : v) {
      ASSERT_LE(x, span);
      ++counts[x >> 30];
    }
  }
  for (int c : counts) EXPECT_NEAR(c, 40000, 1000);  // 5 sigma is ~900
}

TEST(RandomIntegers, FullRangesAndWrap) {
  int8_t v8[4];
  integers_block<int8_t>(block_at(1, 0), 1, 0, uint64_t(int64_t(-128)), 255, v8);
  for (int8_t x : v8) EXPECT_GE(x, -128);
  uint64_t v64[2];
  const Block b = block_at(3, 9);
  integers_block<uint64_t>(b, 3, 9, 0, ~0ull, v64);
  EXPECT_EQ(v64[0], word64(b, 0));  // the full span is the raw words
  EXPECT_EQ(v64[1], word64(b, 2));
  int64_t s64[2];
  integers_block<int64_t>(b, 3, 9, uint64_t(int64_t(-10)), 0, s64);
  EXPECT_EQ(s64[0], -10);
}

}  // namespace
}  // namespace accel::rng
