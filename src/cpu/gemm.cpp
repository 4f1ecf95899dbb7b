#include "src/cpu/gemm.hpp"

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "accel/interrupt.hpp"
#include "src/cpu/blas_loader.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

// ---- the built-in GEMM -------------------------------------------------------------------------

// The type products accumulate in: float for the 16-bit floats, 64-bit unsigned for integers and
// bool (wrapping sums of products, truncated at the end, are exactly NumPy's wrapping integer
// arithmetic; for bool, a sum of 0/1 products is nonzero exactly when "or of ands" is true).
template <class T>
struct Accumulator {
  using type = T;
};
template <>
struct Accumulator<float16> {
  using type = float;
};
template <>
struct Accumulator<bfloat16> {
  using type = float;
};
template <class T>
requires std::is_integral_v<T>
struct Accumulator<T> {
  using type = uint64_t;
};

template <class T, class Acc>
inline Acc to_acc(T v) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return static_cast<Acc>(static_cast<int64_t>(v));  // sign-extends, then wraps
  } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(v);
  } else {
    return static_cast<Acc>(v);
  }
}

template <class T, class Acc>
inline T from_acc(Acc v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return T(v);
  } else {
    return static_cast<T>(v);  // integers: modular (C++20)
  }
}

// Tiles: each task computes an kTileM x kTileN block of C for one batch, walking k in panels of
// kPanelK. The panel of B is converted into a contiguous buffer once per task and panel; each
// row of A then updates four rows of C at a time against it (the innermost loop runs along
// contiguous columns and vectorizes).
constexpr int64_t kTileM = 32, kTileN = 256, kPanelK = 256;

template <class T>
void builtin_gemm_typed(const Gemm& g) {
  using Acc = typename Accumulator<T>::type;
  const int64_t tiles_m = (g.m + kTileM - 1) / kTileM, tiles_n = (g.n + kTileN - 1) / kTileN;
  const int64_t tasks = g.batch * tiles_m * tiles_n;
  const T* A = static_cast<const T*>(g.a.data);
  const T* B = static_cast<const T*>(g.b.data);
  T* C = static_cast<T*>(g.c);
  // Buffers sized for the problem (small products must not pay for a full tile), left
  // uninitialized (each is written before it is read), and tasks grouped so that a thread gets
  // at least ~64K multiply-adds: waking the pool costs more than tiny products.
  const int64_t tile_m = std::min(kTileM, g.m), tile_n = std::min(kTileN, g.n);
  const int64_t panel_k = std::min(kPanelK, g.k);
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / (tile_m * tile_n * g.k));
  parallel_for(tasks, grain, [&](int64_t lo, int64_t hi, int) {
    std::unique_ptr<Acc[]> acc(new Acc[size_t(tile_m * tile_n)]);
    std::unique_ptr<Acc[]> panel(new Acc[size_t(panel_k * tile_n)]);
    for (int64_t task = lo; task < hi; ++task) {
      interruption_point();
      const int64_t b = task / (tiles_m * tiles_n);
      const int64_t tm = (task / tiles_n) % tiles_m, tn = task % tiles_n;
      const int64_t i0 = tm * kTileM, j0 = tn * kTileN;
      const int64_t mr = std::min(kTileM, g.m - i0), nc = std::min(kTileN, g.n - j0);
      const T* a = A + b * g.a.batch_stride;
      const T* bm = B + b * g.b.batch_stride;
      std::fill(acc.get(), acc.get() + mr * nc, Acc(0));
      for (int64_t p0 = 0; p0 < g.k; p0 += kPanelK) {
        const int64_t pk = std::min(kPanelK, g.k - p0);
        for (int64_t p = 0; p < pk; ++p) {
          const T* row = bm + (p0 + p) * g.b.row_stride + j0 * g.b.col_stride;
          Acc* dst = panel.get() + p * nc;
          for (int64_t j = 0; j < nc; ++j) dst[j] = to_acc<T, Acc>(row[j * g.b.col_stride]);
        }
        for (int64_t i = 0; i < mr; ++i) {
          const T* arow = a + (i0 + i) * g.a.row_stride + p0 * g.a.col_stride;
          Acc* crow = acc.get() + i * nc;
          int64_t p = 0;
          for (; p + 4 <= pk; p += 4) {
            const Acc a0 = to_acc<T, Acc>(arow[p * g.a.col_stride]);
            const Acc a1 = to_acc<T, Acc>(arow[(p + 1) * g.a.col_stride]);
            const Acc a2 = to_acc<T, Acc>(arow[(p + 2) * g.a.col_stride]);
            const Acc a3 = to_acc<T, Acc>(arow[(p + 3) * g.a.col_stride]);
            const Acc* b0 = panel.get() + p * nc;
            for (int64_t j = 0; j < nc; ++j) {
              crow[j] = crow[j] + a0 * b0[j] + a1 * b0[nc + j] + a2 * b0[2 * nc + j] +
                        a3 * b0[3 * nc + j];
            }
          }
          for (; p < pk; ++p) {
            const Acc av = to_acc<T, Acc>(arow[p * g.a.col_stride]);
            const Acc* bp = panel.get() + p * nc;
            for (int64_t j = 0; j < nc; ++j) crow[j] = crow[j] + av * bp[j];
          }
        }
      }
      T* c = C + b * g.m * g.n + i0 * g.n + j0;
      for (int64_t i = 0; i < mr; ++i) {
        for (int64_t j = 0; j < nc; ++j) c[i * g.n + j] = from_acc<T, Acc>(acc[size_t(i * nc + j)]);
      }
    }
  });
}

// ---- CBLAS -------------------------------------------------------------------------------------

constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

template <class T>
const char* gemm_name() {
  if constexpr (std::is_same_v<T, float>) return "cblas_sgemm";
  if constexpr (std::is_same_v<T, double>) return "cblas_dgemm";
  if constexpr (std::is_same_v<T, complex64>) return "cblas_cgemm";
  return "cblas_zgemm";
}

template <class T>
const char* gemv_name() {
  if constexpr (std::is_same_v<T, float>) return "cblas_sgemv";
  if constexpr (std::is_same_v<T, double>) return "cblas_dgemv";
  if constexpr (std::is_same_v<T, complex64>) return "cblas_cgemv";
  return "cblas_zgemv";
}

// The BLAS functions, looked up once: the library is loaded once per process (blas_loader.cpp),
// and a lookup (a decorated name and dlsym) per product cost a microsecond of a small one.
template <class T>
void* gemm_symbol() {
  static void* const fn = blas_symbol(gemm_name<T>());
  return fn;
}

template <class T>
void* gemv_symbol() {
  static void* const fn = blas_symbol(gemv_name<T>());
  return fn;
}

// One row-major GEMM through CBLAS, with BLAS integers of type Int (int or int64_t).
template <class T, class Int>
void cblas_gemm(void* fn, const T* a, const GemmOperand& ao, const T* b, const GemmOperand& bo,
                T* c, int64_t m, int64_t n, int64_t k) {
  const int ta = ao.col_major() ? kTrans : kNoTrans, tb = bo.col_major() ? kTrans : kNoTrans;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    using Fn = void (*)(int, int, int, Int, Int, Int, T, const T*, Int, const T*, Int, T, T*, Int);
    reinterpret_cast<Fn>(fn)(kRowMajor, ta, tb, Int(m), Int(n), Int(k), T(1), a,
                             Int(ao.leading_dim()), b, Int(bo.leading_dim()), T(0), c, Int(n));
  } else {
    using Fn = void (*)(int, int, int, Int, Int, Int, const void*, const void*, Int, const void*,
                        Int, const void*, void*, Int);
    const T one(1, 0), zero(0, 0);
    reinterpret_cast<Fn>(fn)(kRowMajor, ta, tb, Int(m), Int(n), Int(k), &one, a,
                             Int(ao.leading_dim()), b, Int(bo.leading_dim()), &zero, c, Int(n));
  }
}

// A matrix times a vector through CBLAS's gemv, with BLAS integers of type Int: y = op(M) x,
// M stored row-major as rows x cols with leading dimension ld, op transposing it when `trans`.
template <class T, class Int>
void cblas_gemv(void* fn, bool trans, int64_t rows, int64_t cols, const T* m, int64_t ld,
                const T* x, int64_t incx, T* y) {
  const int t = trans ? kTrans : kNoTrans;
  if (rows == 1) ld = std::max(ld, cols);  // unused with one row; BLAS checks ld >= cols
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    using Fn = void (*)(int, int, Int, Int, T, const T*, Int, const T*, Int, T, T*, Int);
    reinterpret_cast<Fn>(fn)(kRowMajor, t, Int(rows), Int(cols), T(1), m, Int(ld), x, Int(incx),
                             T(0), y, Int(1));
  } else {
    using Fn = void (*)(int, int, Int, Int, const void*, const void*, Int, const void*, Int,
                        const void*, void*, Int);
    const T one(1, 0), zero(0, 0);
    reinterpret_cast<Fn>(fn)(kRowMajor, t, Int(rows), Int(cols), &one, m, Int(ld), x, Int(incx),
                             &zero, y, Int(1));
  }
}

// A product with one side a vector (n == 1: matrix @ vector; m == 1: vector @ matrix) as one
// gemv, as NumPy computes it: a GEMM of one column packs the whole matrix first (5x slower for a
// 256 x 256 float64 matrix times a vector, the conjugate-gradient step of the loop corpus).
template <class T, class Int>
void cblas_matvec(void* fn, const T* a, const GemmOperand& ao, const T* b, const GemmOperand& bo,
                  T* c, int64_t m, int64_t n, int64_t k) {
  if (n == 1) {  // c = A b: b's element p at p * row_stride
    if (ao.col_major()) {
      cblas_gemv<T, Int>(fn, true, k, m, a, ao.col_stride, b, bo.row_stride, c);
    } else {
      cblas_gemv<T, Int>(fn, false, m, k, a, ao.row_stride, b, bo.row_stride, c);
    }
  } else if (bo.col_major()) {  // c = a B = B^T a: a's element p at p * col_stride
    cblas_gemv<T, Int>(fn, false, n, k, b, bo.col_stride, a, ao.col_stride, c);
  } else {
    cblas_gemv<T, Int>(fn, true, k, n, b, bo.row_stride, a, ao.col_stride, c);
  }
}

template <class T>
void blas_gemm_typed(const Gemm& g) {
  const bool vector = (g.n == 1 || g.m == 1) && gemv_symbol<T>() != nullptr;
  void* fn = vector ? gemv_symbol<T>() : gemm_symbol<T>();
  const bool int64 = blas_status().int64;
  const T* A = static_cast<const T*>(g.a.data);
  const T* B = static_cast<const T*>(g.b.data);
  T* C = static_cast<T*>(g.c);
  auto one = [&](int64_t i) {
    const T* a = A + i * g.a.batch_stride;
    const T* b = B + i * g.b.batch_stride;
    T* c = C + i * g.m * g.n;
    if (vector && int64) {
      cblas_matvec<T, int64_t>(fn, a, g.a, b, g.b, c, g.m, g.n, g.k);
    } else if (vector) {
      cblas_matvec<T, int>(fn, a, g.a, b, g.b, c, g.m, g.n, g.k);
    } else if (int64) {
      cblas_gemm<T, int64_t>(fn, a, g.a, b, g.b, c, g.m, g.n, g.k);
    } else {
      cblas_gemm<T, int>(fn, a, g.a, b, g.b, c, g.m, g.n, g.k);
    }
  };
  // Many small products: one BLAS call per thread at a time (OpenBLAS runs small problems on the
  // calling thread); large ones use the BLAS's own threads.
  if (g.batch > 1 && g.m * g.n * g.k <= 128 * 128 * 128) {
    const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / (g.m * g.n * g.k));
    parallel_for(g.batch, grain, [&](int64_t lo, int64_t hi, int) {
      for (int64_t i = lo; i < hi; ++i) one(i);
    });
  } else {
    for (int64_t i = 0; i < g.batch; ++i) one(i);
  }
}

// float16/bfloat16 through sgemm: each product's operands are widened to float32 (exact), the
// product is computed and accumulated in float32 (as cuBLAS does), and rounded once.
template <class T>
void blas_gemm_widened(const Gemm& g) {
  std::vector<float> a(size_t(g.m * g.k)), b(size_t(g.k * g.n)), c(size_t(g.m * g.n));
  const T* A = static_cast<const T*>(g.a.data);
  const T* B = static_cast<const T*>(g.b.data);
  T* C = static_cast<T*>(g.c);
  Gemm f = g;
  f.dtype = DType::Float32;
  f.batch = 1;
  f.a = GemmOperand{a.data(), 0, g.k, 1};
  f.b = GemmOperand{b.data(), 0, g.n, 1};
  f.c = c.data();
  for (int64_t i = 0; i < g.batch; ++i) {
    const T* ai = A + i * g.a.batch_stride;
    const T* bi = B + i * g.b.batch_stride;
    for (int64_t r = 0; r < g.m; ++r)
      for (int64_t p = 0; p < g.k; ++p)
        a[size_t(r * g.k + p)] = float(ai[r * g.a.row_stride + p * g.a.col_stride]);
    for (int64_t p = 0; p < g.k; ++p)
      for (int64_t j = 0; j < g.n; ++j)
        b[size_t(p * g.n + j)] = float(bi[p * g.b.row_stride + j * g.b.col_stride]);
    blas_gemm_typed<float>(f);
    T* ci = C + i * g.m * g.n;
    for (int64_t e = 0; e < g.m * g.n; ++e) ci[e] = T(c[size_t(e)]);
  }
}

}  // namespace

void builtin_gemm(const Gemm& g) {
  dispatch_dtype(g.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    builtin_gemm_typed<T>(g);
  });
}

bool blas_covers(DType dtype) {
  switch (dtype) {
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
      return gemm_symbol<float>() != nullptr;
    case DType::Float64:
      return gemm_symbol<double>() != nullptr;
    case DType::Complex64:
      return gemm_symbol<complex64>() != nullptr;
    case DType::Complex128:
      return gemm_symbol<complex128>() != nullptr;
    default:
      return false;
  }
}

void gemm(const Gemm& g) {
  if (!blas_covers(g.dtype)) return builtin_gemm(g);
  switch (g.dtype) {
    case DType::Float16:
      return blas_gemm_widened<float16>(g);
    case DType::BFloat16:
      return blas_gemm_widened<bfloat16>(g);
    case DType::Float32:
      return blas_gemm_typed<float>(g);
    case DType::Float64:
      return blas_gemm_typed<double>(g);
    case DType::Complex64:
      return blas_gemm_typed<complex64>(g);
    case DType::Complex128:
      return blas_gemm_typed<complex128>(g);
    default:
      return builtin_gemm(g);
  }
}

}  // namespace accel::cpu
