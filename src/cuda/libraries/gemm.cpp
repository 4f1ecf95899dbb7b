#include "src/cuda/libraries/gemm.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <map>
#include <mutex>

#include "accel/errors.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/jit/kernel_cache.hpp"

namespace accel::cuda {

namespace {

std::atomic<bool> g_allow_tf32{false};

// cuBLAS state of one device: one handle (cuBLAS handles are not for concurrent use from
// several host threads, hence the mutex) and one workspace per stream (a workspace shared by
// two streams would be written by both at once). Workspaces come from our allocator, on the
// stream that uses them, and are kept for the life of the process.
struct CublasDevice {
  std::mutex mutex;
  api::cublasHandle_t handle = nullptr;
  std::map<api::CUstream, void*> workspaces;
};

CublasDevice& cublas_device(int index) {
  static CublasDevice* all = new CublasDevice[kMaxDevices];
  return all[index];
}

const Cublas& blas() {
  const Cublas* b = cublas();
  if (!b || !b->cublasGemmEx || !b->cublasGemmStridedBatchedEx || !b->cublasSetStream_v2) {
    throw Error("matmul on a CUDA device needs cuBLAS, which is not usable: " +
                (cublas_status().error.empty() ? std::string("cublasGemmEx not found")
                                               : cublas_status().error));
  }
  return *b;
}

void check_cublas(api::cublasStatus_t s, const char* call, int device) {
  if (s != api::CUBLAS_STATUS_SUCCESS) {
    throw Error(std::string(call) + " failed with cuBLAS status " + std::to_string(s) +
                " on cuda:" + std::to_string(device));
  }
}

// cuBLAS's recommendation for Hopper is 32 MiB; 4 MiB covers older devices.
size_t workspace_bytes(const DeviceContext& c) { return c.props.major >= 9 ? 32u << 20 : 4u << 20; }

struct CublasTypes {
  api::cudaDataType data;
  api::cublasComputeType_t compute;
};

CublasTypes cublas_types(DType dt) {
  const api::cublasComputeType_t f32 = g_allow_tf32.load(std::memory_order_relaxed)
                                           ? api::CUBLAS_COMPUTE_32F_FAST_TF32
                                           : api::CUBLAS_COMPUTE_32F;
  switch (dt) {
    case DType::Float16:
      return {api::CUDA_R_16F, api::CUBLAS_COMPUTE_32F};
    case DType::BFloat16:
      return {api::CUDA_R_16BF, api::CUBLAS_COMPUTE_32F};
    case DType::Float32:
      return {api::CUDA_R_32F, f32};
    case DType::Complex64:
      return {api::CUDA_C_32F, f32};
    case DType::Float64:
      return {api::CUDA_R_64F, api::CUBLAS_COMPUTE_64F};
    case DType::Complex128:
      return {api::CUDA_C_64F, api::CUBLAS_COMPUTE_64F};
    default:
      throw Error("internal: cuBLAS has no GEMM for " + std::string(dtype_name(dt)));
  }
}

void cublas_gemm(DeviceContext& c, const Gemm& g) {
  const Cublas& b = blas();
  const CublasTypes t = cublas_types(g.dtype);
  const int64_t item = int64_t(itemsize(g.dtype));
  for (int64_t v : {g.m, g.n, g.k, g.a.leading_dim(), g.b.leading_dim()}) {
    if (v > INT_MAX) {
      throw NotImplementedError("matmul on CUDA: a dimension or leading dimension of " +
                                std::to_string(v) + " exceeds cuBLAS's 32-bit limit");
    }
  }
  // alpha = 1, beta = 0 in the compute type's scalar: float for 32F (complex: two floats),
  // double for 64F.
  const double one64[2] = {1.0, 0.0}, zero64[2] = {0.0, 0.0};
  const float one32[2] = {1.0f, 0.0f}, zero32[2] = {0.0f, 0.0f};
  const bool f64 = t.compute == api::CUBLAS_COMPUTE_64F;
  const void* alpha = f64 ? static_cast<const void*>(one64) : one32;
  const void* beta = f64 ? static_cast<const void*>(zero64) : zero32;
  // Row-major C = A B is column-major C^T = B^T A^T: B is cuBLAS's first operand. A row-major
  // matrix with leading dimension ld is its transpose in column-major (op N); a column-major
  // (transposed) one needs op T.
  const api::cublasOperation_t op_b = g.b.col_major() ? api::CUBLAS_OP_T : api::CUBLAS_OP_N;
  const api::cublasOperation_t op_a = g.a.col_major() ? api::CUBLAS_OP_T : api::CUBLAS_OP_N;
  const int m = int(g.n), n = int(g.m), k = int(g.k);
  const int ldb = int(g.b.leading_dim()), lda = int(g.a.leading_dim()), ldc = int(g.n);

  c.make_current();
  CublasDevice& cd = cublas_device(c.index);
  std::lock_guard<std::mutex> lock(cd.mutex);
  if (!cd.handle) check_cublas(b.cublasCreate_v2(&cd.handle), "cublasCreate", c.index);
  const api::CUstream stream = c.stream();
  check_cublas(b.cublasSetStream_v2(cd.handle, stream), "cublasSetStream", c.index);
  if (b.cublasSetWorkspace_v2) {
    // cublasSetStream resets the workspace: set this stream's after it, every call.
    void*& ws = cd.workspaces[stream];
    if (!ws) ws = device_allocate(c, workspace_bytes(c));
    check_cublas(b.cublasSetWorkspace_v2(cd.handle, ws, workspace_bytes(c)), "cublasSetWorkspace",
                 c.index);
  }
  const char* pa = static_cast<const char*>(g.a.data);
  const char* pb = static_cast<const char*>(g.b.data);
  char* pc = static_cast<char*>(g.c);
  if (g.batch == 1) {
    check_cublas(b.cublasGemmEx(cd.handle, op_b, op_a, m, n, k, alpha, pb, t.data, ldb, pa, t.data,
                                lda, beta, pc, t.data, ldc, t.compute, api::CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx", c.index);
    return;
  }
  for (int64_t done = 0; done < g.batch;) {
    const int count = int(std::min<int64_t>(g.batch - done, INT_MAX));
    check_cublas(b.cublasGemmStridedBatchedEx(
                     cd.handle, op_b, op_a, m, n, k, alpha, pb + done * g.b.batch_stride * item,
                     t.data, ldb, g.b.batch_stride, pa + done * g.a.batch_stride * item, t.data,
                     lda, g.a.batch_stride, beta, pc + done * g.m * g.n * item, t.data, ldc,
                     g.m * g.n, count, t.compute, api::CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx", c.index);
    done += count;
  }
}

// ---- integers and bool: a generated kernel ------------------------------------------------------

const char* c_type(DType dt) {
  switch (dt) {
    case DType::Bool:
      return "bool";
    case DType::Int8:
      return "signed char";
    case DType::UInt8:
      return "unsigned char";
    case DType::Int16:
      return "short";
    case DType::UInt16:
      return "unsigned short";
    case DType::Int32:
      return "int";
    case DType::UInt32:
      return "unsigned int";
    case DType::Int64:
      return "long long";
    case DType::UInt64:
      return "unsigned long long";
    default:
      throw Error("internal: no integer GEMM kernel for " + std::string(dtype_name(dt)));
  }
}

constexpr int kTile = 16;

// The kernel's parameters, passed by value as one struct (all 8-byte fields: no padding).
struct IntGemmParams {
  const void* a;
  const void* b;
  void* c;
  long long m, n, k, batch;
  long long a_bs, a_rs, a_cs, b_bs, b_rs, b_cs;
};

}  // namespace

bool allow_tf32() { return g_allow_tf32.load(); }
void set_allow_tf32(bool allow) { g_allow_tf32.store(allow); }

std::string integer_gemm_source(DType dtype, std::string& name) {
  // Products accumulate in unsigned integers of at least the operand's width: wrapping sums,
  // truncated at the end, are NumPy's wrapping integer matmul exactly; bool sums 0/1 products
  // and tests for nonzero ("or of ands").
  const bool wide = itemsize(dtype) == 8;
  const std::string T = c_type(dtype), Acc = wide ? "unsigned long long" : "unsigned int";
  const std::string load =
      contains(dtypes::kSignedInts, dtype) ? "(" + Acc + ")(long long)" : "(" + Acc + ")";
  const std::string store = dtype == DType::Bool ? "acc != 0" : "(" + T + ")acc";
  name = "accel_gemm_" + std::string(dtype_name(dtype)) + "_v1";
  const std::string tile = std::to_string(kTile);
  return R"(
struct IntGemmParams {
  const void* a; const void* b; void* c;
  long long m, n, k, batch, a_bs, a_rs, a_cs, b_bs, b_rs, b_cs;
};
extern "C" __global__ void __launch_bounds__()" +
         std::to_string(kTile * kTile) + ") " + name + R"((IntGemmParams p) {
  typedef )" +
         T + R"( T;
  typedef )" +
         Acc + R"( Acc;
  const int TILE = )" +
         tile + R"(;
  __shared__ Acc as[TILE][TILE + 1];
  __shared__ Acc bs[TILE][TILE + 1];
  const long long tiles_m = (p.m + TILE - 1) / TILE, tiles_n = (p.n + TILE - 1) / TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (long long z = blockIdx.z; z < p.batch; z += gridDim.z) {
    const T* a = (const T*)p.a + z * p.a_bs;
    const T* b = (const T*)p.b + z * p.b_bs;
    T* c = (T*)p.c + z * p.m * p.n;
    for (long long by = blockIdx.y; by < tiles_m; by += gridDim.y) {
      for (long long bx = blockIdx.x; bx < tiles_n; bx += gridDim.x) {
        const long long row = by * TILE + ty, col = bx * TILE + tx;
        Acc acc = 0;
        for (long long p0 = 0; p0 < p.k; p0 += TILE) {
          const long long pa = p0 + tx, pb = p0 + ty;
          as[ty][tx] = (row < p.m && pa < p.k) ? )" +
         load + R"(a[row * p.a_rs + pa * p.a_cs] : (Acc)0;
          bs[ty][tx] = (pb < p.k && col < p.n) ? )" +
         load + R"(b[pb * p.b_rs + col * p.b_cs] : (Acc)0;
          __syncthreads();
#pragma unroll
          for (int q = 0; q < TILE; ++q) acc += as[ty][q] * bs[q][tx];
          __syncthreads();
        }
        if (row < p.m && col < p.n) c[row * p.n + col] = )" +
         store + R"(;
      }
    }
  }
}
)";
}

namespace {

void integer_gemm(DeviceContext& c, const Gemm& g) {
  std::string name;
  const std::string code = integer_gemm_source(g.dtype, name);
  const LoadedKernel& k = get_named_kernel(c, name, code);
  IntGemmParams p{g.a.data,
                  g.b.data,
                  g.c,
                  g.m,
                  g.n,
                  g.k,
                  g.batch,
                  g.a.batch_stride,
                  g.a.row_stride,
                  g.a.col_stride,
                  g.b.batch_stride,
                  g.b.row_stride,
                  g.b.col_stride};
  const auto grid_dim = [](int64_t tiles, int64_t limit) {
    return unsigned(std::min(tiles, limit));
  };
  const unsigned gx = grid_dim((g.n + kTile - 1) / kTile, INT_MAX);
  const unsigned gy = grid_dim((g.m + kTile - 1) / kTile, 65535);
  const unsigned gz = grid_dim(g.batch, 65535);
  c.make_current();
  c.last_kernel.store(k.name.c_str());
  void* args[] = {&p};
  check(drv().cuLaunchKernel(k.fn[0], gx, gy, gz, kTile, kTile, 1, 0, c.stream(), args, nullptr),
        "cuLaunchKernel", c.index);
}

}  // namespace

void gemm(DeviceContext& c, const Gemm& g) {
  if (is_integer(g.dtype) || g.dtype == DType::Bool) return integer_gemm(c, g);
  cublas_gemm(c, g);
}

}  // namespace accel::cuda
