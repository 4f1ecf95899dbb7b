// The CPU BLAS loader: candidate order, failures reported with their reason, symbol decoration,
// and a real call through the loaded library.
#include "src/cpu/blas_loader.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdint>

namespace accel::cpu {
namespace {

TEST(BlasLoader, EnvOverrideIsTheOnlyCandidate) {
  const char* old = getenv("ACCELPY_BLAS");
  const std::string saved = old ? old : "";
  setenv("ACCELPY_BLAS", "/nonexistent/libmyblas.so", 1);
  const std::vector<std::string> c = blas_candidates();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "/nonexistent/libmyblas.so");
  const BlasStatus s = probe_blas(c);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.error.find("libmyblas.so"), std::string::npos) << s.error;
  ASSERT_EQ(s.tried.size(), 1u);
  setenv("ACCELPY_BLAS", "off", 1);
  EXPECT_TRUE(blas_candidates().empty());
  if (old) {
    setenv("ACCELPY_BLAS", saved.c_str(), 1);
  } else {
    unsetenv("ACCELPY_BLAS");
  }
}

TEST(BlasLoader, LibraryWithoutCblasIsSkippedWithReason) {
  // libdl/libc open fine but export no BLAS: the next candidate is tried, the reason kept.
  const BlasStatus s = probe_blas({"libc.so.6"});
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.error.find("cblas_dgemm"), std::string::npos) << s.error;
}

TEST(BlasLoader, SystemCandidatesComeLast) {
  const std::vector<std::string> c = blas_candidates();
  if (getenv("ACCELPY_BLAS")) return;
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.back(), "libblas.so.3");
}

// dgemm through whichever library was found (a machine without any BLAS has nothing to call).
TEST(BlasLoader, DgemmThroughLoadedLibrary) {
  const BlasStatus& s = blas_status();
  if (!s.ok) {
    EXPECT_EQ(blas_symbol("cblas_dgemm"), nullptr);
    EXPECT_FALSE(s.error.empty());
    return;
  }
  void* f = blas_symbol("cblas_dgemm");
  ASSERT_NE(f, nullptr) << s.path;
  const double a[6] = {1, 2, 3, 4, 5, 6};     // 2x3 row-major
  const double b[6] = {7, 8, 9, 10, 11, 12};  // 3x2
  double c[4] = {0, 0, 0, 0};
  constexpr int kRowMajor = 101, kNoTrans = 111;
  if (s.int64) {
    using Fn = void (*)(int, int, int, int64_t, int64_t, int64_t, double, const double*, int64_t,
                        const double*, int64_t, double, double*, int64_t);
    reinterpret_cast<Fn>(f)(kRowMajor, kNoTrans, kNoTrans, 2, 2, 3, 1.0, a, 3, b, 2, 0.0, c, 2);
  } else {
    using Fn = void (*)(int, int, int, int, int, int, double, const double*, int, const double*,
                        int, double, double*, int);
    reinterpret_cast<Fn>(f)(kRowMajor, kNoTrans, kNoTrans, 2, 2, 3, 1.0, a, 3, b, 2, 0.0, c, 2);
  }
  EXPECT_EQ(c[0], 58);
  EXPECT_EQ(c[1], 64);
  EXPECT_EQ(c[2], 139);
  EXPECT_EQ(c[3], 154);
  EXPECT_EQ(blas_symbol("no_such_blas_routine"), nullptr);
}

}  // namespace
}  // namespace accel::cpu
