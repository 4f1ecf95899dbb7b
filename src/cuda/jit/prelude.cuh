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
// Shuffles any trivially copyable value, 32 bits at a time: from the lane `arg` places down
// (kDown) or from lane `arg`.
template <bool kDown, class A>
__device__ __forceinline__ A accel_shfl(A a, int arg) {
  constexpr int W = (int(sizeof(A)) + 3) / 4;
  unsigned w[W];
  const unsigned char* src = reinterpret_cast<const unsigned char*>(&a);
  unsigned char* dst = reinterpret_cast<unsigned char*>(w);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) dst[i] = src[i];
#pragma unroll
  for (int i = 0; i < W; ++i) {
    if constexpr (kDown) {
      w[i] = __shfl_down_sync(0xffffffffu, w[i], arg);
    } else {
      w[i] = __shfl_sync(0xffffffffu, w[i], arg);
    }
  }
  A out;
  unsigned char* o = reinterpret_cast<unsigned char*>(&out);
#pragma unroll
  for (int i = 0; i < int(sizeof(A)); ++i) o[i] = dst[i];
  return out;
}
template <class A>
__device__ __forceinline__ A accel_shfl_down(A a, int off) {
  return accel_shfl<true>(a, off);
}
template <class A>
__device__ __forceinline__ A accel_shfl_idx(A a, int src) {
  return accel_shfl<false>(a, src);
}
// The tree every group reduction uses: the accumulators of each aligned group of `tpo` threads
// (a power of two up to the block, threadIdx.x only) combined by a shuffle tree within each warp
// into the group's first lane; a group of several warps then has each warp's first lane write
// its partial to `sm` (blockDim.x / 32 accumulators) and, after one block-wide sync, combines
// them in warp order: in the group's first thread, or (kEveryThread) in every thread of the
// group, with the same bits.
template <class Red, bool kEveryThread>
__device__ __forceinline__ typename Red::Acc accel_tree_reduce(typename Red::Acc a, int tpo,
                                                               typename Red::Acc* sm) {
  // No unroll pragmas: a constant tpo (row kernels) unrolls fully without them, and they would
  // change the loops of a runtime one (the reduction kernels).
  const int w = tpo < 32 ? tpo : 32;
  for (int off = w >> 1; off > 0; off >>= 1) a = Red::combine(a, accel_shfl_down(a, off));
  if (tpo > 32) {
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) sm[warp] = a;
    __syncthreads();
    if (kEveryThread) {
      const int first = int(threadIdx.x / tpo) * (tpo / 32);  // the group's first warp
      a = sm[first];
      for (int k = 1; k < tpo / 32; ++k) a = Red::combine(a, sm[first + k]);
    } else if ((threadIdx.x & (tpo - 1)) == 0) {
      // The group's first thread: its own partial, sm[warp], is `a` already.
      for (int k = 1; k < tpo / 32; ++k) a = Red::combine(a, sm[warp + k]);
    }
  }
  return a;
}
// The group's combined accumulator in its first thread.
template <class Red>
__device__ __forceinline__ typename Red::Acc accel_group_reduce(typename Red::Acc a, int tpo,
                                                                typename Red::Acc* sm) {
  return accel_tree_reduce<Red, false>(a, tpo, sm);
}
// The group's combined accumulator in every thread of it: a group within a warp broadcasts its
// first lane's result by shuffle; `sm` is this call's own (no later call writes it, so one
// block-wide sync suffices). Row kernels: one group of TPO lanes per row.
template <class Red, int TPO>
__device__ __forceinline__ typename Red::Acc accel_row_allreduce(typename Red::Acc a,
                                                                 typename Red::Acc* sm) {
  if constexpr (TPO == 1) {
    return a;
  } else {
    a = accel_tree_reduce<Red, true>(a, TPO, sm);
    if constexpr (TPO <= 32) a = accel_shfl_idx(a, int(threadIdx.x & 31) & ~(TPO - 1));
    return a;
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
// The store of a partial result that accel_load_cg reads back in whole words: every byte of the
// slot is written, padding included. A store of the fields alone leaves padding bytes (after a
// max's `valid` flag, before an argmax's aligned index) that the word load then reads, a read of
// uninitialized memory to compute-sanitizer's initcheck although those bytes are never used.
// The slot's words are zeroed first by stores the compiler must keep (asm), then the value is
// stored as before: storing the value through its words instead made the compiler pack the
// accumulator's fields into words at every branch that merges two of them.
template <class T>
__device__ __forceinline__ void accel_store_partial(T* p, const T& v) {
  if constexpr (sizeof(T) % 4 == 0) {
#pragma unroll
    for (int i = 0; i < int(sizeof(T) / 4); ++i) __stcg(reinterpret_cast<unsigned*>(p) + i, 0u);
  } else {
#pragma unroll
    for (int i = 0; i < int(sizeof(T)); ++i) {
      __stcg(reinterpret_cast<unsigned char*>(p) + i, static_cast<unsigned char>(0));
    }
  }
  *p = v;
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
