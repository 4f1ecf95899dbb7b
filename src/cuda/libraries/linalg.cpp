// cuSOLVER on the device's current stream: one handle per device (cuSOLVER handles are not
// safe to share between threads, so calls are serialized per device), workspaces from
// accelpy's stream-ordered allocator, one info code per matrix in device memory, copied to the
// host at the end (the one synchronization: whether the call raises depends on it).
//
// Matrices of a batch are factored one call each, except solves (and so inverses) of up to
// 32 x 32, which go through cuBLAS's batched LU (linalg_batched.cpp). cuSOLVER's batched
// routines (syevjBatched, potrfBatched) are not used yet: a batch of thousands of tiny
// Cholesky or eigen problems is launch-bound here.
#include "src/cuda/libraries/linalg.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "accel/errors.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/context.hpp"
#include "src/cuda/driver/transfer.hpp"
#include "src/cuda/libraries/cusolver.hpp"
#include "src/cuda/libraries/linalg_batched.hpp"

namespace accel::cuda {

namespace {

const Cusolver& lib() {
  const Cusolver* s = cusolver();
  if (!s) throw Error("cuSOLVER is not available: " + cusolver_status().error);
  return *s;
}

void check_cusolver(api::cusolverStatus_t r, const char* call, int device) {
  if (r == api::CUSOLVER_STATUS_SUCCESS) return;
  const std::string what = std::string(call) + " failed on cuda:" + std::to_string(device) +
                           " (cusolverStatus " + std::to_string(r) + ")";
  if (r == api::CUSOLVER_STATUS_ALLOC_FAILED) throw OutOfMemoryError(what);
  throw Error(what);
}

api::cudaDataType data_type(DType dt) {
  switch (dt) {
    case DType::Float32:
      return api::CUDA_R_32F;
    case DType::Float64:
      return api::CUDA_R_64F;
    case DType::Complex64:
      return api::CUDA_C_32F;
    case DType::Complex128:
      return api::CUDA_C_64F;
    default:
      throw Error("internal: cuSOLVER in " + std::string(dtype_name(dt)));
  }
}

api::cudaDataType real_type(DType dt) {
  return dt == DType::Float32 || dt == DType::Complex64 ? api::CUDA_R_32F : api::CUDA_R_64F;
}

// Device scratch memory freed in stream order when the scope ends.
struct Scratch {
  DeviceContext& c;
  void* ptr = nullptr;
  size_t bytes = 0;
  Scratch(DeviceContext& ctx, size_t n) : c(ctx), bytes(n) {
    if (n) ptr = device_allocate(c, n);
  }
  ~Scratch() {
    if (ptr) device_free(c, ptr, bytes);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

// gesvdj's parameters (default tolerance and sweeps), for the duration of one job.
struct GesvdjInfo {
  api::gesvdjInfo_t info = nullptr;
  void create(const Cusolver& s, int device) {
    check_cusolver(s.cusolverDnCreateGesvdjInfo(&info), "cusolverDnCreateGesvdjInfo", device);
  }
  ~GesvdjInfo() {
    if (const Cusolver* s = info ? cusolver() : nullptr) s->cusolverDnDestroyGesvdjInfo(info);
  }
};

class CudaLinalg final : public LinalgBackend {
 public:
  explicit CudaLinalg(int device) : device_(device) {}

  InverseInputs inverse_inputs(const LinalgJob& job) override { return cuda::inverse_inputs(job); }

  std::vector<int64_t> run(const LinalgJob& job) override {
    DeviceContext& c = context(device_);
    c.make_current();
    if (use_batched_solve(job)) return batched_solve(c, job);
    const Cusolver& s = lib();
    std::lock_guard<std::mutex> lock(mutex_);
    if (!handle_) {
      check_cusolver(s.cusolverDnCreate(&handle_), "cusolverDnCreate", device_);
      check_cusolver(s.cusolverDnCreateParams(&params_), "cusolverDnCreateParams", device_);
    }
    check_cusolver(s.cusolverDnSetStream(handle_, c.stream()), "cusolverDnSetStream", device_);
    const api::cudaDataType t = data_type(job.dtype);
    const int64_t n = job.n;
    const size_t esize = itemsize(job.dtype);
    char* a = static_cast<char*>(job.a);
    Scratch info(c, sizeof(int) * size_t(job.batch));
    int* infos = static_cast<int*>(info.ptr);

    size_t dev_bytes = 0, host_bytes = 0;
    GesvdjInfo gesvdj;
    switch (job.kind) {
      case LinalgKind::Lu:
      case LinalgKind::Solve:
        check_cusolver(s.cusolverDnXgetrf_bufferSize(handle_, params_, n, n, t, a, n, t, &dev_bytes,
                                                     &host_bytes),
                       "cusolverDnXgetrf_bufferSize", device_);
        break;
      case LinalgKind::Cholesky:
        check_cusolver(s.cusolverDnXpotrf_bufferSize(handle_, params_, api::CUBLAS_FILL_MODE_LOWER,
                                                     n, t, a, n, t, &dev_bytes, &host_bytes),
                       "cusolverDnXpotrf_bufferSize", device_);
        break;
      case LinalgKind::Eigh:
        check_cusolver(
            s.cusolverDnXsyevd_bufferSize(handle_, params_, jobz(job), uplo(job), n, t, a, n,
                                          real_type(job.dtype), job.w, t, &dev_bytes, &host_bytes),
            "cusolverDnXsyevd_bufferSize", device_);
        break;
      case LinalgKind::Svd:
        if (job.vectors) {
          // Singular vectors by gesvdj, as PyTorch does: for a 4096 x 4096 float32 matrix it
          // took 1018 ms where gesvd took 1249 on an H200; it returns V, as the job asks.
          check_int32(job, "svd");
          gesvdj.create(s, device_);
          int lwork = 0;
          check_cusolver(
              s.gesvdj_bufferSize[type_index(job.dtype)](
                  handle_, api::CUSOLVER_EIG_MODE_VECTOR, job.full ? 0 : 1, int(job.m), int(n), a,
                  int(job.m), job.w, job.u, int(job.m), job.v, int(n), &lwork, gesvdj.info),
              "cusolverDnXgesvdj_bufferSize", device_);
          dev_bytes = size_t(lwork) * esize;
        } else {
          check_cusolver(
              s.cusolverDnXgesvd_bufferSize(handle_, params_, 'N', 'N', job.m, job.n, t, a, job.m,
                                            real_type(job.dtype), job.w, t, nullptr, job.m, t,
                                            nullptr, job.n, t, &dev_bytes, &host_bytes),
              "cusolverDnXgesvd_bufferSize", device_);
        }
        break;
      case LinalgKind::Eig:
        if (!s.cusolverDnXgeev || !s.cusolverDnXgeev_bufferSize) {
          throw NotImplementedError(
              "eig on CUDA devices needs cuSOLVER 11.7 (CUDA 12.6) or newer, for "
              "cusolverDnXgeev; this one is " +
              cusolver_status().version);
        }
        check_cusolver(s.cusolverDnXgeev_bufferSize(
                           handle_, params_, api::CUSOLVER_EIG_MODE_NOVECTOR, jobz(job), n, t, a, n,
                           t, job.w, t, nullptr, 1, t, job.u, n, t, &dev_bytes, &host_bytes),
                       "cusolverDnXgeev_bufferSize", device_);
        break;
      case LinalgKind::Qr:
        check_cusolver(s.cusolverDnXgeqrf_bufferSize(handle_, params_, job.m, job.n, t, a, job.m, t,
                                                     job.w, t, &dev_bytes, &host_bytes),
                       "cusolverDnXgeqrf_bufferSize", device_);
        if (job.vectors) {
          check_int32(job, "qr");
          int lwork = 0;
          check_cusolver(s.orgqr_bufferSize[type_index(job.dtype)](
                             handle_, int(job.m), int(job.qcols), int(std::min(job.m, job.n)),
                             job.u, int(job.m), job.w, &lwork),
                         "cusolverDnXorgqr_bufferSize", device_);
          dev_bytes = std::max(dev_bytes, size_t(lwork) * esize);
        }
        break;
    }
    Scratch work(c, dev_bytes);
    std::vector<char> host_work(host_bytes);
    Scratch pivots(c, job.kind == LinalgKind::Solve ? sizeof(int64_t) * size_t(n) : 0);

    for (int64_t k = 0; k < job.batch; ++k) {
      char* ak = a + size_t(k * job.matrix_size()) * esize;
      int* ik = infos + k;
      switch (job.kind) {
        case LinalgKind::Lu:
        case LinalgKind::Solve: {
          int64_t* piv =
              job.kind == LinalgKind::Lu ? job.ipiv + k * n : static_cast<int64_t*>(pivots.ptr);
          check_cusolver(s.cusolverDnXgetrf(handle_, params_, n, n, t, ak, n, piv, t, work.ptr,
                                            dev_bytes, host_work.data(), host_bytes, ik),
                         "cusolverDnXgetrf", device_);
          if (job.kind == LinalgKind::Solve) {
            // getrs's info flags only illegal arguments; a singular U shows in getrf's, which
            // it must not overwrite.
            char* bk = static_cast<char*>(job.b) + size_t(k * n * job.nrhs) * esize;
            check_cusolver(s.cusolverDnXgetrs(handle_, params_, api::CUBLAS_OP_N, n, job.nrhs, t,
                                              ak, n, piv, t, bk, n, rhs_info(c)),
                           "cusolverDnXgetrs", device_);
          }
          break;
        }
        case LinalgKind::Cholesky:
          check_cusolver(
              s.cusolverDnXpotrf(handle_, params_, api::CUBLAS_FILL_MODE_LOWER, n, t, ak, n, t,
                                 work.ptr, dev_bytes, host_work.data(), host_bytes, ik),
              "cusolverDnXpotrf", device_);
          break;
        case LinalgKind::Eigh: {
          const size_t wsize = is_complex(job.dtype) ? esize / 2 : esize;
          char* wk = static_cast<char*>(job.w) + size_t(k * n) * wsize;
          check_cusolver(s.cusolverDnXsyevd(handle_, params_, jobz(job), uplo(job), n, t, ak, n,
                                            real_type(job.dtype), wk, t, work.ptr, dev_bytes,
                                            host_work.data(), host_bytes, ik),
                         "cusolverDnXsyevd", device_);
          break;
        }
        case LinalgKind::Svd: {
          const int64_t m = job.m, ucols = job.full ? m : n;
          const size_t wsize = is_complex(job.dtype) ? esize / 2 : esize;
          char* sk = static_cast<char*>(job.w) + size_t(k * n) * wsize;
          if (job.vectors) {
            char* uk = static_cast<char*>(job.u) + size_t(k * m * ucols) * esize;
            char* vk = static_cast<char*>(job.v) + size_t(k * n * n) * esize;
            check_cusolver(s.gesvdj[type_index(job.dtype)](
                               handle_, api::CUSOLVER_EIG_MODE_VECTOR, job.full ? 0 : 1, int(m),
                               int(n), ak, int(m), sk, uk, int(m), vk, int(n), work.ptr,
                               int(dev_bytes / esize), ik, gesvdj.info),
                           "cusolverDnXgesvdj", device_);
          } else {
            check_cusolver(
                s.cusolverDnXgesvd(handle_, params_, 'N', 'N', m, n, t, ak, m, real_type(job.dtype),
                                   sk, t, nullptr, m, t, nullptr, n, t, work.ptr, dev_bytes,
                                   host_work.data(), host_bytes, ik),
                "cusolverDnXgesvd", device_);
          }
          break;
        }
        case LinalgKind::Eig: {
          char* wk = static_cast<char*>(job.w) + size_t(k * n) * esize;
          char* vk = job.vectors ? static_cast<char*>(job.u) + size_t(k * n * n) * esize : nullptr;
          check_cusolver(
              s.cusolverDnXgeev(handle_, params_, api::CUSOLVER_EIG_MODE_NOVECTOR, jobz(job), n, t,
                                ak, n, t, wk, t, nullptr, 1, t, vk, n, t, work.ptr, dev_bytes,
                                host_work.data(), host_bytes, ik),
              "cusolverDnXgeev", device_);
          break;
        }
        case LinalgKind::Qr: {
          const int64_t m = job.m, kk = std::min(m, n);
          char* tk = static_cast<char*>(job.w) + size_t(k * kk) * esize;
          check_cusolver(s.cusolverDnXgeqrf(handle_, params_, m, n, t, ak, m, t, tk, t, work.ptr,
                                            dev_bytes, host_work.data(), host_bytes, ik),
                         "cusolverDnXgeqrf", device_);
          if (job.vectors) {
            char* qk = static_cast<char*>(job.u) + size_t(k * m * job.qcols) * esize;
            copy_device_to_device(c, ak, qk, size_t(m * std::min(n, job.qcols)) * esize);
            check_cusolver(
                s.orgqr[type_index(job.dtype)](handle_, int(m), int(job.qcols), int(kk), qk, int(m),
                                               tk, work.ptr, int(dev_bytes / esize), rhs_info(c)),
                "cusolverDnXorgqr", device_);
          }
          break;
        }
      }
    }
    c.last_kernel.store("cuSOLVER");
    std::vector<int> host_info(size_t(job.batch));
    copy_device_to_host(c, infos, host_info.data(), sizeof(int) * host_info.size());
    return std::vector<int64_t>(host_info.begin(), host_info.end());
  }

 private:
  static api::cusolverEigMode_t jobz(const LinalgJob& job) {
    return job.vectors ? api::CUSOLVER_EIG_MODE_VECTOR : api::CUSOLVER_EIG_MODE_NOVECTOR;
  }
  static int type_index(DType dt) {
    return dt == DType::Float32 ? 0 : dt == DType::Float64 ? 1 : dt == DType::Complex64 ? 2 : 3;
  }
  // The per-type routines (orgqr, gesvdj) take 32-bit sizes.
  static void check_int32(const LinalgJob& job, const char* fn) {
    if (job.m > INT32_MAX || job.n > INT32_MAX || job.qcols > INT32_MAX) {
      throw ValueError(std::string(fn) +
                       ": matrices with more than 2^31 - 1 rows or columns are not supported on "
                       "CUDA");
    }
  }
  static api::cublasFillMode_t uplo(const LinalgJob& job) {
    return job.lower ? api::CUBLAS_FILL_MODE_LOWER : api::CUBLAS_FILL_MODE_UPPER;
  }
  // A device int getrs may write (its info only flags illegal arguments, which the checks
  // before the call rule out).
  int* rhs_info(DeviceContext& c) {
    if (!rhs_info_) rhs_info_ = static_cast<int*>(device_allocate(c, sizeof(int)));
    return rhs_info_;
  }

  int device_;
  std::mutex mutex_;
  api::cusolverDnHandle_t handle_ = nullptr;
  api::cusolverDnParams_t params_ = nullptr;
  int* rhs_info_ = nullptr;
};

}  // namespace

LinalgBackend& cuda_linalg(int device) { return per_device<CudaLinalg>(device); }

}  // namespace accel::cuda
