// cuBLAS's batched getrf/getrs (and getri for inverses), for batches of small matrices
// (the cost of a cuSOLVER call per matrix is launch-bound there). The entry points come from the
// loader's cuBLAS table.
#include "src/cuda/libraries/linalg_batched.hpp"

#include <cstring>
#include <mutex>
#include <string>

#include "accel/cuda.hpp"
#include "accel/errors.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/transfer.hpp"

namespace accel::cuda {

namespace {

// The S, D, C and Z entry points side by side, indexed by type_index; from the cuBLAS table
// the loader fills (cublas_fns.def).
struct BatchedFns {
  api::PFN_cublasGetrfBatched getrf[4] = {};
  api::PFN_cublasGetrsBatched getrs[4] = {};
  // Optional: inverses fall back to getrs against I. (matinvBatched, LU and inverse in one
  // kernel, took 0.30-0.32 ms for 4096 inverses of 32 x 32 float32 on the H200 against
  // getrf + getri's 0.27-0.29, 2026-12-02, so it is not used.)
  api::PFN_cublasGetriBatched getri[4] = {};
  bool ok = false;
};

const BatchedFns& fns() {
  static const BatchedFns f = [] {
    BatchedFns r;
    const Cublas* cb = cublas();
    if (!cb) return r;
    r = {{cb->cublasSgetrfBatched, cb->cublasDgetrfBatched, cb->cublasCgetrfBatched,
          cb->cublasZgetrfBatched},
         {cb->cublasSgetrsBatched, cb->cublasDgetrsBatched, cb->cublasCgetrsBatched,
          cb->cublasZgetrsBatched},
         {cb->cublasSgetriBatched, cb->cublasDgetriBatched, cb->cublasCgetriBatched,
          cb->cublasZgetriBatched}};
    r.ok = true;
    for (int i = 0; i < 4; ++i) r.ok = r.ok && r.getrf[i] && r.getrs[i];
    return r;
  }();
  return f;
}

int type_index(DType dt) {
  return dt == DType::Float32 ? 0 : dt == DType::Float64 ? 1 : dt == DType::Complex64 ? 2 : 3;
}

void check_cublas(api::cublasStatus_t r, const char* call, int device) {
  if (r != api::CUBLAS_STATUS_SUCCESS) {
    throw Error(std::string(call) + " failed on cuda:" + std::to_string(device) +
                " (cublasStatus " + std::to_string(r) + ")");
  }
}

// One cuBLAS handle per device, used under its mutex, and a pinned buffer per device for the
// matrix pointers (from pageable memory the driver may wait for the stream before copying,
// which would leave the GPU idle while the host queues the factorization) followed by the
// info codes, which the device writes there directly: pinned memory is mapped at the same
// address on every device under unified addressing, so reading them back needs no copy after
// the stream's work (0.270 against 0.284 ms for 4096 inverses of 32 x 32 on the H200).
struct Handles {
  std::mutex mutex;
  api::cublasHandle_t handle[kMaxDevices] = {};
  void* pointers[kMaxDevices] = {};
  size_t pointer_bytes[kMaxDevices] = {};
};
Handles& handles() {
  static Handles* h = new Handles();
  return *h;
}

}  // namespace

bool use_batched_solve(const LinalgJob& job) {
  // cuBLAS's batched LU is meant for matrices up to 32 x 32; one matrix gains nothing.
  return job.kind == LinalgKind::Solve && job.n <= 32 && job.batch >= 2 && job.batch <= INT32_MAX &&
         fns().ok;
}

LinalgBackend::InverseInputs inverse_inputs(const LinalgJob& job) {
  using I = LinalgBackend::InverseInputs;
  if (job.inverse && use_batched_solve(job) && fns().getri[type_index(job.dtype)])
    return I::OverwritesA;
  return I::IdentityInB;
}

std::vector<int64_t> batched_solve(DeviceContext& c, const LinalgJob& job) {
  const BatchedFns& f = fns();
  const Cublas& cb = *cublas();
  const int ti = type_index(job.dtype);
  const int n = int(job.n), nrhs = int(job.nrhs), batch = int(job.batch);
  const bool getri = inverse_inputs(job) == LinalgBackend::InverseInputs::OverwritesA;
  const size_t esize = itemsize(job.dtype);
  const size_t ptr_bytes = size_t(2 * batch) * sizeof(void*);
  const size_t piv_bytes = size_t(batch) * size_t(n) * sizeof(int);
  const size_t info_bytes = size_t(batch) * sizeof(int);
  char* scratch = static_cast<char*>(device_allocate(c, ptr_bytes + piv_bytes));
  std::vector<int> host_info(static_cast<size_t>(batch));
  try {
    void** dptrs = reinterpret_cast<void**>(scratch);
    int* piv = reinterpret_cast<int*>(scratch + ptr_bytes);
    // Held until the infos are back: the stream has then read the pinned pointers.
    Handles& h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    if (h.pointer_bytes[c.index] < ptr_bytes + info_bytes) {
      pinned_free(h.pointers[c.index]);
      h.pointers[c.index] = nullptr;
      h.pointer_bytes[c.index] = 0;
      h.pointers[c.index] = pinned_alloc(ptr_bytes + info_bytes);
      h.pointer_bytes[c.index] = ptr_bytes + info_bytes;
    }
    int* infos = reinterpret_cast<int*>(static_cast<char*>(h.pointers[c.index]) + ptr_bytes);
    // Device arrays of matrix pointers, built on the host.
    void** ptrs = static_cast<void**>(h.pointers[c.index]);
    for (int k = 0; k < batch; ++k) {
      ptrs[k] = static_cast<char*>(job.a) + size_t(k) * size_t(n) * size_t(n) * esize;
      ptrs[batch + k] = static_cast<char*>(job.b) + size_t(k) * size_t(n) * size_t(nrhs) * esize;
    }
    copy_host_to_device(c, ptrs, dptrs, ptr_bytes);
    api::cublasHandle_t& handle = h.handle[c.index];
    if (!handle) check_cublas(cb.cublasCreate_v2(&handle), "cublasCreate", c.index);
    check_cublas(cb.cublasSetStream_v2(handle, c.stream()), "cublasSetStream", c.index);
    check_cublas(f.getrf[ti](handle, n, dptrs, n, piv, infos, batch), "cublasXgetrfBatched",
                 c.index);
    if (getri) {
      // The inverse straight from the LU factors into b (out of place, as CuPy's inv),
      // rather than n triangular solves against the identity already in b.
      check_cublas(f.getri[ti](handle, n, dptrs, n, piv, dptrs + batch, n, infos, batch),
                   "cublasXgetriBatched", c.index);
    } else {
      int arg_info = 0;  // a host pointer: argument checks only
      check_cublas(f.getrs[ti](handle, /*CUBLAS_OP_N*/ 0, n, nrhs, dptrs, n, piv, dptrs + batch, n,
                               &arg_info, batch),
                   "cublasXgetrsBatched", c.index);
      if (arg_info != 0) {
        throw Error("internal: cublasXgetrsBatched argument " + std::to_string(-arg_info));
      }
    }
    c.last_kernel.store(getri ? "cuBLAS getrfBatched/getriBatched"
                              : "cuBLAS getrfBatched/getrsBatched");
    check_sync(drv().cuStreamSynchronize(c.stream()), "cuStreamSynchronize", c.index);
    std::memcpy(host_info.data(), infos, info_bytes);
  } catch (...) {
    device_free(c, scratch, ptr_bytes + piv_bytes);
    throw;
  }
  device_free(c, scratch, ptr_bytes + piv_bytes);
  return std::vector<int64_t>(host_info.begin(), host_info.end());
}

}  // namespace accel::cuda
