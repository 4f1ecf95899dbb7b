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
