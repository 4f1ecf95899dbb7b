// The CPU GEMM: the built-in kernel against a naive triple loop for every dtype (integers wrap,
// bool is "or of ands"), over sizes that cross its tile edges, with transposed, strided and
// broadcast (batch stride 0) operands; and the BLAS path against the built-in one.
#include "src/cpu/gemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "accel/dtype_traits.hpp"

namespace accel::cpu {
namespace {

template <class T>
T random_value(std::mt19937_64& gen) {
  if constexpr (std::is_same_v<T, bool>) {
    return gen() & 1;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(gen());  // the full range: products and sums wrap
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    std::uniform_real_distribution<double> u(-1, 1);
    using R = decltype(T().re);
    return T(R(u(gen)), R(u(gen)));
  } else {
    std::uniform_real_distribution<double> u(-1, 1);
    return T(static_cast<float>(u(gen)));
  }
}

// Reference in the widest type of the same kind: exact for integers (mod 2^64, truncated).
template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return double(v.re) + 3.0 * double(v.im);  // any fixed linear mix catches a wrong part
  } else if constexpr (std::is_arithmetic_v<T>) {
    return double(v);
  } else {
    return double(static_cast<float>(v));  // float16, bfloat16
  }
}

struct Case {
  int64_t batch, m, n, k;
  bool a_col_major, b_col_major;
  bool broadcast_b;
};

template <DType D>
void run_case(const Case& cs, bool builtin) {
  using T = dtype_t<D>;
  std::mt19937_64 gen(1234 + cs.m * 7 + cs.n * 13 + cs.k);
  const int64_t lda = (cs.a_col_major ? cs.m : cs.k) + 3;  // padded leading dimensions
  const int64_t ldb = (cs.b_col_major ? cs.k : cs.n) + 1;
  const int64_t a_bs = lda * (cs.a_col_major ? cs.k : cs.m);
  const int64_t b_bs = cs.broadcast_b ? 0 : ldb * (cs.b_col_major ? cs.n : cs.k);
  // Plain arrays: std::vector<bool> has no data().
  const int64_t na = a_bs * cs.batch;
  const int64_t nb = std::max<int64_t>(b_bs, ldb * (cs.b_col_major ? cs.n : cs.k)) * cs.batch;
  std::unique_ptr<T[]> a(new T[size_t(na)]), b(new T[size_t(nb)]);
  std::unique_ptr<T[]> c(new T[size_t(cs.batch * cs.m * cs.n)]);
  for (int64_t i = 0; i < na; ++i) a[size_t(i)] = random_value<T>(gen);
  for (int64_t i = 0; i < nb; ++i) b[size_t(i)] = random_value<T>(gen);
  Gemm g;
  g.dtype = D;
  g.batch = cs.batch;
  g.m = cs.m;
  g.n = cs.n;
  g.k = cs.k;
  g.a = GemmOperand{a.get(), a_bs, cs.a_col_major ? 1 : lda, cs.a_col_major ? lda : 1};
  g.b = GemmOperand{b.get(), b_bs, cs.b_col_major ? 1 : ldb, cs.b_col_major ? ldb : 1};
  g.c = c.get();
  if (builtin) {
    builtin_gemm(g);
  } else {
    gemm(g);
  }
  for (int64_t bi = 0; bi < cs.batch; ++bi) {
    for (int64_t i = 0; i < cs.m; ++i) {
      for (int64_t j = 0; j < cs.n; ++j) {
        const T got = c[size_t(bi * cs.m * cs.n + i * cs.n + j)];
        auto A = [&](int64_t p) {
          return a[size_t(bi * a_bs + i * g.a.row_stride + p * g.a.col_stride)];
        };
        auto B = [&](int64_t p) {
          return b[size_t(bi * b_bs + p * g.b.row_stride + j * g.b.col_stride)];
        };
        if constexpr (std::is_same_v<T, bool>) {
          bool want = false;
          for (int64_t p = 0; p < cs.k; ++p) want = want || (A(p) && B(p));
          ASSERT_EQ(got, want);
        } else if constexpr (std::is_integral_v<T>) {
          uint64_t want = 0;
          for (int64_t p = 0; p < cs.k; ++p) {
            using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
            want += uint64_t(W(A(p))) * uint64_t(W(B(p)));
          }
          ASSERT_EQ(got, static_cast<T>(want)) << i << "," << j;
        } else {
          double want = 0, scale = 0;
          for (int64_t p = 0; p < cs.k; ++p) {
            if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
              const auto x = A(p), y = B(p);
              const double re = double(x.re) * double(y.re) - double(x.im) * double(y.im);
              const double im = double(x.re) * double(y.im) + double(x.im) * double(y.re);
              want += re + 3.0 * im;
              scale += 4 * std::abs(double(x.re) * double(y.re)) +
                       4 * std::abs(double(x.im) * double(y.im)) +
                       4 * std::abs(double(x.re) * double(y.im)) +
                       4 * std::abs(double(x.im) * double(y.re));
            } else {
              want += to_double(A(p)) * to_double(B(p));
              scale += std::abs(to_double(A(p)) * to_double(B(p)));
            }
          }
          const double eps = sizeof(T) >= 8 && !std::is_same_v<T, complex64> ? 2.3e-16 : 1.2e-7;
          const double out_eps = std::is_same_v<T, bfloat16>  ? 7.9e-3
                                 : std::is_same_v<T, float16> ? 9.8e-4
                                                              : 0;
          ASSERT_LE(std::abs(to_double(got) - want),
                    (2 * out_eps + 2 * (cs.k + 2) * eps) * scale + 1e-30)
              << i << "," << j;
        }
      }
    }
  }
}

const Case kCases[] = {
    {1, 1, 1, 1, false, false, false}, {1, 33, 257, 300, false, false, false},
    {3, 7, 5, 9, true, false, false},  {2, 40, 3, 260, false, true, true},
    {4, 5, 300, 2, true, true, false}, {1, 65, 1, 513, false, false, false},
};

TEST(CpuGemm, BuiltinMatchesReferenceForEveryDtype) {
  for_each_dtype([&](auto dt) {
    for (const Case& cs : kCases) {
      SCOPED_TRACE(std::string(dtype_name(decltype(dt)::value)) + " m=" + std::to_string(cs.m) +
                   " n=" + std::to_string(cs.n) + " k=" + std::to_string(cs.k));
      run_case<decltype(dt)::value>(cs, true);
    }
  });
}

TEST(CpuGemm, DispatchMatchesReferenceForEveryDtype) {
  // Through BLAS where one was found (floating and complex dtypes), else the built-in GEMM.
  for_each_dtype([&](auto dt) {
    for (const Case& cs : kCases) {
      SCOPED_TRACE(std::string(dtype_name(decltype(dt)::value)) + " m=" + std::to_string(cs.m));
      run_case<decltype(dt)::value>(cs, false);
    }
  });
}

}  // namespace
}  // namespace accel::cpu
