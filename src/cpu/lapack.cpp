// LAPACK's Fortran routines (getrf/getrs, potrf, syevd/heevd), resolved by name from the
// loaded BLAS (blas_symbol applies its decoration: "dgetrf_" -> "scipy_dgetrf_64_"), with
// 32- or 64-bit integers as the library says. Small matrices of a batch are spread over the
// thread pool; large ones are one call each, which OpenBLAS threads itself.
#include "src/cpu/lapack.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "accel/errors.hpp"
#include "src/cpu/blas_loader.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

// Arrays pass as void*: the ABI is that of the typed pointers. Character arguments carry
// gfortran's hidden lengths at the end.
template <class I>
struct Routines {
  using Getrf = void (*)(const I*, const I*, void*, const I*, I*, I*);
  using Getrs = void (*)(const char*, const I*, const I*, const void*, const I*, const I*, void*,
                         const I*, I*, size_t);
  using Potrf = void (*)(const char*, const I*, void*, const I*, I*, size_t);
  using Syevd = void (*)(const char*, const char*, const I*, void*, const I*, void*, void*,
                         const I*, I*, const I*, I*, size_t, size_t);
  using Heevd = void (*)(const char*, const char*, const I*, void*, const I*, void*, void*,
                         const I*, void*, const I*, I*, const I*, I*, size_t, size_t);
  using GesddReal = void (*)(const char*, const I*, const I*, void*, const I*, void*, void*,
                             const I*, void*, const I*, void*, const I*, I*, I*, size_t);
  using GesddComplex = void (*)(const char*, const I*, const I*, void*, const I*, void*, void*,
                                const I*, void*, const I*, void*, const I*, void*, I*, I*, size_t);
  using GeevComplex = void (*)(const char*, const char*, const I*, void*, const I*, void*, void*,
                               const I*, void*, const I*, void*, const I*, void*, I*, size_t,
                               size_t);
  using Geqrf = void (*)(const I*, const I*, void*, const I*, void*, void*, const I*, I*);
  using Orgqr = void (*)(const I*, const I*, const I*, void*, const I*, const void*, void*,
                         const I*, I*);
};

template <class T>
struct Traits;
template <>
struct Traits<float> {
  using Real = float;
  static constexpr char prefix = 's';
};
template <>
struct Traits<double> {
  using Real = double;
  static constexpr char prefix = 'd';
};
template <>
struct Traits<std::complex<float>> {
  using Real = float;
  static constexpr char prefix = 'c';
};
template <>
struct Traits<std::complex<double>> {
  using Real = double;
  static constexpr char prefix = 'z';
};

template <class F>
F routine(char prefix, const char* name) {
  const std::string sym = std::string(1, prefix) + name + "_";
  void* p = blas_symbol(sym.c_str());
  if (!p) {
    const BlasStatus& s = blas_status();
    throw NotImplementedError(
        "LAPACK routine " + sym + " not found" +
        (s.ok ? " in " + s.path : ": no BLAS/LAPACK library (" + s.error + ")"));
  }
  return reinterpret_cast<F>(p);
}

// OpenBLAS's per-thread thread count (0.3.27+; undecorated even in scipy_openblas), found in
// the library the BLAS loader opened; null for other libraries.
using SetThreadsLocal = int (*)(int);
SetThreadsLocal set_threads_local() {
  static const SetThreadsLocal f = []() -> SetThreadsLocal {
    void* any = blas_symbol("dgetrf_");
    Dl_info info;
    if (!any || dladdr(any, &info) == 0 || !info.dli_fname) return nullptr;
    void* h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    return h ? reinterpret_cast<SetThreadsLocal>(dlsym(h, "openblas_set_num_threads_local"))
             : nullptr;
  }();
  return f;
}

template <class T>
double real_part(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    return double(v);
  } else {
    return double(v.real());
  }
}

template <class T, class I>
struct Lapack {
  using R = Routines<I>;
  using Real = typename Traits<T>::Real;
  static constexpr char p = Traits<T>::prefix;

  static I getrf(I n, T* a, I* ipiv) {
    static const auto f = routine<typename R::Getrf>(p, "getrf");
    I info = 0;
    f(&n, &n, a, &n, ipiv, &info);
    return info;
  }
  static I getrs(I n, I nrhs, const T* a, const I* ipiv, T* b) {
    static const auto f = routine<typename R::Getrs>(p, "getrs");
    I info = 0;
    f("N", &n, &nrhs, a, &n, ipiv, b, &n, &info, 1);
    return info;
  }
  static I potrf(I n, T* a) {
    static const auto f = routine<typename R::Potrf>(p, "potrf");
    I info = 0;
    f("L", &n, a, &n, &info, 1);
    return info;
  }
  static I eigh(I n, T* a, Real* w, bool vectors, bool lower) {
    const char* jobz = vectors ? "V" : "N";
    const char* uplo = lower ? "L" : "U";
    I info = 0, query = -1;
    if constexpr (std::is_arithmetic_v<T>) {
      static const auto f = routine<typename R::Syevd>(p, "syevd");
      T lwork_q{};
      I liwork_q = 0;
      f(jobz, uplo, &n, a, &n, w, &lwork_q, &query, &liwork_q, &query, &info, 1, 1);
      I lwork = I(real_part(lwork_q)), liwork = liwork_q;
      std::vector<T> work(size_t(std::max<I>(lwork, 1)));
      std::vector<I> iwork(size_t(std::max<I>(liwork, 1)));
      f(jobz, uplo, &n, a, &n, w, work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
    } else {
      static const auto f = routine<typename R::Heevd>(p, "heevd");
      T lwork_q{};
      Real lrwork_q{};
      I liwork_q = 0;
      f(jobz, uplo, &n, a, &n, w, &lwork_q, &query, &lrwork_q, &query, &liwork_q, &query, &info, 1,
        1);
      I lwork = I(real_part(lwork_q)), lrwork = I(lrwork_q), liwork = liwork_q;
      std::vector<T> work(size_t(std::max<I>(lwork, 1)));
      std::vector<Real> rwork(size_t(std::max<I>(lrwork, 1)));
      std::vector<I> iwork(size_t(std::max<I>(liwork, 1)));
      f(jobz, uplo, &n, a, &n, w, work.data(), &lwork, rwork.data(), &lrwork, iwork.data(), &liwork,
        &info, 1, 1);
    }
    return info;
  }

  // The square column-major n x n matrix a <- a^H.
  static void conj_transpose_in_place(T* a, int64_t n) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i < j; ++i) {
        const T upper = a[i + j * n];
        a[i + j * n] = conj_value(a[j + i * n]);
        a[j + i * n] = conj_value(upper);
      }
      a[j + j * n] = conj_value(a[j + j * n]);
    }
  }
  static T conj_value(T x) {
    if constexpr (std::is_arithmetic_v<T>) {
      return x;
    } else {
      return std::conj(x);
    }
  }
  static I svd(I m, I n, T* a, Real* s, T* u, T* vt, bool vectors, bool full) {
    const char* jobz = !vectors ? "N" : full ? "A" : "S";
    const I ldu = vectors ? m : 1, ldvt = vectors ? n : 1;
    T dummy{};
    if (!vectors) u = vt = &dummy;
    const I mn = std::min(m, n), mx = std::max(m, n);
    std::vector<I> iwork(size_t(8 * mn));
    I info = 0, query = -1;
    T lwork_q{};
    if constexpr (std::is_arithmetic_v<T>) {
      static const auto f = routine<typename R::GesddReal>(p, "gesdd");
      f(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &lwork_q, &query, iwork.data(), &info, 1);
      I lwork = std::max<I>(I(real_part(lwork_q)), 1);
      std::vector<T> work(static_cast<size_t>(lwork));
      f(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work.data(), &lwork, iwork.data(), &info, 1);
    } else {
      static const auto f = routine<typename R::GesddComplex>(p, "gesdd");
      // LAPACK's bound on rwork for any jobz.
      const I lrwork = std::max<I>(5 * mn * mn + 7 * mn, 2 * mx * mn + 2 * mn * mn + mn);
      std::vector<Real> rwork(size_t(std::max<I>(lrwork, 1)));
      f(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &lwork_q, &query, rwork.data(), iwork.data(),
        &info, 1);
      I lwork = std::max<I>(I(real_part(lwork_q)), 1);
      std::vector<T> work(static_cast<size_t>(lwork));
      f(jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work.data(), &lwork, rwork.data(), iwork.data(),
        &info, 1);
    }
    return info;
  }
  static I qr(I m, I n, T* a, T* tau, T* q, I qcols) {
    static const auto geqrf = routine<typename R::Geqrf>(p, "geqrf");
    static const auto orgqr =
        routine<typename R::Orgqr>(p, std::is_arithmetic_v<T> ? "orgqr" : "ungqr");
    I info = 0, query = -1;
    T size{};
    geqrf(&m, &n, a, &m, tau, &size, &query, &info);
    I lwork = std::max<I>(I(real_part(size)), 1);
    std::vector<T> work(static_cast<size_t>(lwork));
    geqrf(&m, &n, a, &m, tau, work.data(), &lwork, &info);
    if (info != 0 || !q) return info;
    const I k = std::min(m, n);
    std::copy(a, a + size_t(m) * size_t(std::min(n, qcols)), q);
    orgqr(&m, &qcols, &k, q, &m, tau, &size, &query, &info);
    lwork = std::max<I>(I(real_part(size)), 1);
    work.resize(static_cast<size_t>(lwork));
    orgqr(&m, &qcols, &k, q, &m, tau, work.data(), &lwork, &info);
    return info;
  }

  static I eig(I n, T* a, T* w, T* vr) {
    if constexpr (std::is_arithmetic_v<T>) {
      throw Error("internal: eig runs in complex arithmetic");
    } else {
      static const auto f = routine<typename R::GeevComplex>(p, "geev");
      const char* jobvr = vr ? "V" : "N";
      T dummy{};
      const I ldvl = 1, ldvr = vr ? n : 1;
      if (!vr) vr = &dummy;
      std::vector<Real> rwork(size_t(std::max<I>(2 * n, 1)));
      I info = 0, query = -1;
      T size{};
      f("N", jobvr, &n, a, &n, w, &dummy, &ldvl, vr, &ldvr, &size, &query, rwork.data(), &info, 1,
        1);
      I lwork = std::max<I>(I(real_part(size)), 1);
      std::vector<T> work(static_cast<size_t>(lwork));
      f("N", jobvr, &n, a, &n, w, &dummy, &ldvl, vr, &ldvr, work.data(), &lwork, rwork.data(),
        &info, 1, 1);
      return info;
    }
  }

  // One matrix of the job.
  static int64_t one(const LinalgJob& job, int64_t k) {
    const I n = I(job.n);
    T* a = static_cast<T*>(job.a) + k * job.matrix_size();
    std::vector<I> piv(size_t(job.n));
    switch (job.kind) {
      case LinalgKind::Lu: {
        const I info = getrf(n, a, piv.data());
        int64_t* out = job.ipiv + k * job.n;
        for (int64_t i = 0; i < job.n; ++i) out[i] = int64_t(piv[size_t(i)]);
        return info;
      }
      case LinalgKind::Solve: {
        const I info = getrf(n, a, piv.data());
        if (info != 0) return info;
        T* b = static_cast<T*>(job.b) + k * job.n * job.nrhs;
        return getrs(n, I(job.nrhs), a, piv.data(), b);
      }
      case LinalgKind::Cholesky:
        return potrf(n, a);
      case LinalgKind::Eigh:
        return eigh(n, a, static_cast<Real*>(job.w) + k * job.n, job.vectors, job.lower);
      case LinalgKind::Svd: {
        const int64_t m = job.m, nn = job.n, ucols = job.full ? m : nn;
        T* am = static_cast<T*>(job.a) + k * job.matrix_size();
        T* u = job.vectors ? static_cast<T*>(job.u) + k * m * ucols : nullptr;
        T* v = job.vectors ? static_cast<T*>(job.v) + k * nn * nn : nullptr;
        const I info =
            svd(I(m), I(nn), am, static_cast<Real*>(job.w) + k * nn, u, v, job.vectors, job.full);
        if (v) conj_transpose_in_place(v, nn);  // gesdd gives V^H; the job asks for V
        return info;
      }
      case LinalgKind::Eig:
        return eig(n, a, static_cast<T*>(job.w) + k * job.n,
                   job.vectors ? static_cast<T*>(job.u) + k * job.n * job.n : nullptr);
      case LinalgKind::Qr: {
        const int64_t m = job.m, nn = job.n;
        T* am = static_cast<T*>(job.a) + k * job.matrix_size();
        T* tau = static_cast<T*>(job.w) + k * std::min(m, nn);
        T* q = job.vectors ? static_cast<T*>(job.u) + k * m * job.qcols : nullptr;
        return qr(I(m), I(nn), am, tau, q, I(job.qcols));
      }
    }
    return 0;
  }

  static std::vector<int64_t> run(const LinalgJob& job) {
    std::vector<int64_t> info(size_t(job.batch), 0);
    // Matrices up to 64 x 64 are too small for OpenBLAS's threads: they are spread over ours,
    // each call single-threaded (OpenBLAS threading inside our workers made a batch of 1024
    // 32 x 32 inverses 30x slower than NumPy; single-threaded calls over both cores are 2x
    // faster than NumPy). Larger ones are one call each, threaded by the library.
    const int64_t big = std::max(job.n, job.m);
    if (big > 64) {
      for (int64_t k = 0; k < job.batch; ++k) info[size_t(k)] = one(job, k);
      return info;
    }
    const SetThreadsLocal set_threads = set_threads_local();
    const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(big * big, 1));
    parallel_for(job.batch, grain, [&](int64_t begin, int64_t end, int) {
      const int previous = set_threads ? set_threads(1) : 0;
      for (int64_t k = begin; k < end; ++k) info[size_t(k)] = one(job, k);
      if (set_threads) set_threads(previous);
    });
    return info;
  }
};

template <class T>
std::vector<int64_t> run_typed(const LinalgJob& job) {
  if (blas_status().int64) return Lapack<T, int64_t>::run(job);
  if (job.n > INT32_MAX / 2 || job.nrhs > INT32_MAX / 2) {
    throw ValueError("matrix too large for this LAPACK's 32-bit integers");
  }
  return Lapack<T, int32_t>::run(job);
}

class CpuLinalg final : public LinalgBackend {
 public:
  std::vector<int64_t> run(const LinalgJob& job) override {
    switch (job.dtype) {
      case DType::Float32:
        return run_typed<float>(job);
      case DType::Float64:
        return run_typed<double>(job);
      case DType::Complex64:
        return run_typed<std::complex<float>>(job);
      case DType::Complex128:
        return run_typed<std::complex<double>>(job);
      default:
        throw Error("internal: linalg in " + std::string(dtype_name(job.dtype)));
    }
  }
};

}  // namespace

LinalgBackend& cpu_linalg() {
  static CpuLinalg* l = new CpuLinalg();
  return *l;
}

}  // namespace accel::cpu
