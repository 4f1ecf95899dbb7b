// accelpy generated kernel
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#include "scalar_ops.h"
#include "generators.h"
#include "random.h"
#include "reduce_ops.h"
template <class T, int N>
struct alignas(sizeof(T) * N) accel_vec {
  T v[N];
};
// Shuffles any trivially copyable accumulator, 32 bits at a time.
template <class A>
__device__ __forceinline__ A accel_shfl_down(A a, int off) {
  constexpr int W = (int(sizeof(A)) + 3) / 4;
  unsigned w[W];
  const unsigned char* src = reinterpret_cast<const unsigned char*>(&a);
  unsigned char* dst = reinterpret_cast<unsigned char*>(w);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) dst[i] = src[i];
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], off);
  A out;
  unsigned char* o = reinterpret_cast<unsigned char*>(&out);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) o[i] = dst[i];
  return out;
}
// Combines the accumulators of each aligned group of `tpo` threads (a power of two up to the
// block) into the group's first thread, in a fixed tree.
template <class Red>
__device__ __forceinline__ typename Red::Acc accel_group_reduce(typename Red::Acc a, int tpo,
                                                                typename Red::Acc* sm) {
  const int w = tpo < 32 ? tpo : 32;
  for (int off = w >> 1; off > 0; off >>= 1) a = Red::combine(a, accel_shfl_down(a, off));
  if (tpo > 32) {
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) sm[warp] = a;
    __syncthreads();
    if ((threadIdx.x & (tpo - 1)) == 0) {
      for (int k = 1; k < tpo / 32; ++k) a = Red::combine(a, sm[warp + k]);
    }
  }
  return a;
}
template <class A>
__device__ __forceinline__ A accel_shfl_idx(A a, int src) {
  constexpr int W = (int(sizeof(A)) + 3) / 4;
  unsigned w[W];
  const unsigned char* from = reinterpret_cast<const unsigned char*>(&a);
  unsigned char* dst = reinterpret_cast<unsigned char*>(w);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) dst[i] = from[i];
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __shfl_sync(0xffffffffu, w[i], src);
  A out;
  unsigned char* o = reinterpret_cast<unsigned char*>(&out);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) o[i] = dst[i];
  return out;
}
// Every thread of an aligned group of TPO lanes (a power of two up to the block, threadIdx.x
// only) gets the group's combined accumulator, in accel_group_reduce's tree: a shuffle tree in
// each warp; a group within a warp then broadcasts its first lane's result by shuffle, a group
// of several warps has each warp's first lane write its partial to `sm` (blockDim.x / 32
// accumulators, this call's own: no later call writes them, so one block-wide sync suffices)
// and every thread combines its group's partials in warp order itself, with the same bits as
// the first thread would. Row kernels: one group of lanes per row.
template <class Red, int TPO>
__device__ __forceinline__ typename Red::Acc accel_row_allreduce(typename Red::Acc a,
                                                                 typename Red::Acc* sm) {
  if constexpr (TPO == 1) {
    return a;
  } else {
    constexpr int W = TPO < 32 ? TPO : 32;
#pragma unroll
    for (int off = W >> 1; off > 0; off >>= 1) a = Red::combine(a, accel_shfl_down(a, off));
    if constexpr (TPO <= 32) {
      return accel_shfl_idx(a, int(threadIdx.x & 31) & ~(TPO - 1));
    } else {
      if ((threadIdx.x & 31) == 0) sm[threadIdx.x >> 5] = a;
      __syncthreads();
      const int first = int(threadIdx.x / TPO) * (TPO / 32);
      a = sm[first];
#pragma unroll
      for (int k = 1; k < TPO / 32; ++k) a = Red::combine(a, sm[first + k]);
      return a;
    }
  }
}
// A 32 x blockDim.y block where the blockDim.y threads of each column share an output: their
// accumulators combined into row 0, in row order (`sm`: 32 * blockDim.y accumulators).
template <class Red>
__device__ __forceinline__ typename Red::Acc accel_fold_rows(typename Red::Acc* sm,
                                                             typename Red::Acc a) {
  sm[threadIdx.y * 32 + threadIdx.x] = a;
  __syncthreads();
  if (threadIdx.y == 0) {
    for (int k = 1; k < (int)blockDim.y; ++k) a = Red::combine(a, sm[k * 32 + threadIdx.x]);
  }
  return a;
}
// accel_fold_rows with the result in every thread of the column.
template <class Red>
__device__ __forceinline__ typename Red::Acc accel_col_allreduce(typename Red::Acc a,
                                                                 typename Red::Acc* sm) {
  a = accel_fold_rows<Red>(sm, a);
  // Row 0 rewrites its own slots only, which no other thread reads before the next sync.
  if (threadIdx.y == 0) sm[threadIdx.x] = a;
  __syncthreads();
  a = sm[threadIdx.x];
  __syncthreads();  // every column's result read before sm is written again
  return a;
}
// A load through L2 only: partial results another block wrote during this kernel.
template <class T>
__device__ __forceinline__ T accel_load_cg(const T* p) {
  T v;
  if constexpr (sizeof(T) % 4 == 0) {
#pragma unroll
    for (int i = 0; i < int(sizeof(T) / 4); ++i) {
      reinterpret_cast<unsigned*>(&v)[i] = __ldcg(reinterpret_cast<const unsigned*>(p) + i);
    }
  } else {
#pragma unroll
    for (int i = 0; i < int(sizeof(T)); ++i) {
      reinterpret_cast<unsigned char*>(&v)[i] =
          __ldcg(reinterpret_cast<const unsigned char*>(p) + i);
    }
  }
  return v;
}
// Whether this block is the last of its grid column to get here, every thread having written
// its partial results before. The last block resets the column's count to zero for the next
// kernel on the stream (every other block of the column has counted by then).
__device__ __forceinline__ bool accel_last_block(unsigned* count) {
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    last = atomicAdd(count, 1u) == gridDim.y - 1;
    if (last) *count = 0;
  }
  __syncthreads();
  return last;
}
