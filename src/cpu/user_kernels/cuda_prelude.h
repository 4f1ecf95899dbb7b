// CUDA's execution model for C++ on the CPU: compiled in front of a user's CUDA C source when
// its kernels run on the CPU device (src/cpu/user_kernels/). The runtime (launcher.cpp) runs a
// block on one OS thread, its threads either as a plain loop (kernels without barriers or warp
// primitives) or as cooperative fibers, so per-OS-thread storage is per-block storage: that is
// what __shared__ becomes. A barrier or warp primitive hands control back to the runtime, which
// resumes every thread of the block once per round.
// (Compiled once per program: no include guard needed.)
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>

// ---- qualifiers ---------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))  // also between decl-specifiers
#define __grid_constant__
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#define __CUDACC_RTC__ 1
#define __ACCELPY_CPU__ 1

// ---- vector types ----------------------------------------------------------------------------
#define ACCEL_VEC(T, N, A)                                          \
  struct alignas(A) N##1 {                                          \
    T x;                                                            \
  };                                                                \
  struct alignas(A * 2 > 16 ? 16 : A * 2) N##2 {                    \
    T x, y;                                                         \
  };                                                                \
  struct N##3 {                                                     \
    T x, y, z;                                                      \
  };                                                                \
  struct alignas(A * 4 > 16 ? 16 : A * 4) N##4 {                    \
    T x, y, z, w;                                                   \
  };                                                                \
  inline N##1 make_##N##1(T x) { return N##1 {x}; }                 \
  inline N##2 make_##N##2(T x, T y) { return N##2 {x, y}; }         \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3 {x, y, z}; } \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4 {x, y, z, w}; }
ACCEL_VEC(signed char, char, 1)
ACCEL_VEC(unsigned char, uchar, 1)
ACCEL_VEC(short, short, 2)
ACCEL_VEC(unsigned short, ushort, 2)
ACCEL_VEC(int, int, 4)
ACCEL_VEC(unsigned int, uint, 4)
ACCEL_VEC(long, long, 8)
ACCEL_VEC(unsigned long, ulong, 8)
ACCEL_VEC(long long, longlong, 8)
ACCEL_VEC(unsigned long long, ulonglong, 8)
ACCEL_VEC(float, float, 4)
ACCEL_VEC(double, double, 8)
#undef ACCEL_VEC

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- the runtime's interface ---------------------------------------------------------------
// Layouts shared with src/cpu/user_kernels/kernel_abi.hpp (checked by its ABI version).
struct __accel_thread {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  unsigned linear;                      // x + y * bx + z * bx * by
  void* block;                          // the runtime's block
  char* dyn_shared;                     // extern __shared__ memory of this block
  const struct __accel_bounds* bounds;  // per parameter, for the checked mode
};
struct __accel_runtime {
  // Barrier of the block: returns once every live thread of the block reached a barrier.
  void (*sync)(__accel_thread* self, int line);
  // Deposits `bytes` (<= 8) of `in`, waits for the warp, copies all 32 lanes into `out` and
  // returns the mask of lanes that took part.
  unsigned (*warp_exchange)(__accel_thread* self, const void* in, unsigned bytes, void* out);
  // A failed assert or trap: the message, then the launch raises.
  void (*fail)(const char* message);
  // The checked mode's out-of-bounds access (the launch raises IndexError).
  void (*out_of_bounds)(__accel_thread* self, unsigned arg, long long index, long long count);
};
static thread_local __accel_thread* __accel_self;
static const __accel_runtime* __accel_rt;
struct __accel_trap {};

#ifdef ACCEL_CPU_PLAIN
// A program whose kernels name no barrier or warp primitive (compile.cpp defines
// ACCEL_CPU_PLAIN for it, outside the checked mode) runs a block's threads as a plain loop
// (__accel_entry::run_block below). The coordinates are then thread-local variables whose
// address is never taken: the compiler knows that the kernel's own stores leave them alone, so
// once the kernel is inlined into the loop threadIdx.x is the loop's counter, and the loop can
// be vectorized.
struct __accel_plain_thread {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
};
// Initialized with a constant: a thread_local that needs dynamic initialization is reached
// through a guard at every use.
static thread_local __accel_plain_thread __accel_plain{};
#define threadIdx (__accel_plain.thread_idx)
#define blockIdx (__accel_plain.block_idx)
#define blockDim (__accel_plain.block_dim)
#define gridDim (__accel_plain.grid_dim)
#else
#define threadIdx (__accel_self->thread_idx)
#define blockIdx (__accel_self->block_idx)
#define blockDim (__accel_self->block_dim)
#define gridDim (__accel_self->grid_dim)
#endif
static constexpr int warpSize = 32;

inline void __accel_sync_at(int line) {
  __accel_thread* me = __accel_self;
  __accel_rt->sync(me, line);
  __accel_self = me;  // the fiber may have been resumed after others set it
}
#ifdef ACCEL_CPU_REGIONS
// The kernels that wait here are coroutines (source_scan.cpp): the wait is a suspension, and
// the block's loop (__accel_entry below) resumes every thread once per round.
#define __syncthreads() co_await __accel_barrier()
#else
#define __syncthreads() __accel_sync_at(__LINE__)
#endif
inline int __accel_sync_count(int pred) {
  static thread_local int count;
  __accel_sync_at(__LINE__);
  count = 0;
  __accel_sync_at(__LINE__);
  if (pred) ++count;
  __accel_sync_at(__LINE__);
  return count;
}
inline int __syncthreads_count(int pred) { return __accel_sync_count(pred); }
inline int __syncthreads_and(int pred) {
  static thread_local int all;
  __accel_sync_at(__LINE__);
  all = 1;
  __accel_sync_at(__LINE__);
  if (!pred) all = 0;
  __accel_sync_at(__LINE__);
  return all;
}
inline int __syncthreads_or(int pred) {
  static thread_local int any;
  __accel_sync_at(__LINE__);
  any = 0;
  __accel_sync_at(__LINE__);
  if (pred) any = 1;
  __accel_sync_at(__LINE__);
  return any;
}

inline unsigned __accel_exchange(const void* in, unsigned bytes, void* out) {
  __accel_thread* me = __accel_self;
  const unsigned m = __accel_rt->warp_exchange(me, in, bytes, out);
  __accel_self = me;
  return m;
}
inline unsigned __accel_lane() { return __accel_self->linear & 31u; }
inline void __syncwarp(unsigned = 0xffffffffu) {
  char none = 0, all[32];
  __accel_exchange(&none, 1, all);
}
inline unsigned __activemask() {
  char none = 0, all[32];
  return __accel_exchange(&none, 1, all);
}
// A shuffle's view of the warp: every lane's value of v, this lane, and the first lane and width
// of its segment.
template <class T>
struct __accel_warp_values {
  T all[32];
  int lane, base, w;
  __accel_warp_values(T v, int width) : w(width <= 0 || width > 32 ? 32 : width) {
    __accel_exchange(&v, sizeof(T), all);
    lane = int(__accel_lane());
    base = lane - lane % w;
  }
};
template <class T>
inline T __shfl_sync(unsigned, T v, int src_lane, int width = warpSize) {
  const __accel_warp_values<T> g(v, width);
  return g.all[g.base + ((src_lane % g.w) + g.w) % g.w];
}
template <class T>
inline T __shfl_up_sync(unsigned, T v, unsigned delta, int width = warpSize) {
  const __accel_warp_values<T> g(v, width);
  const int src = g.lane - int(delta);
  return src < g.base ? v : g.all[src];
}
template <class T>
inline T __shfl_down_sync(unsigned, T v, unsigned delta, int width = warpSize) {
  const __accel_warp_values<T> g(v, width);
  const int src = g.lane + int(delta);
  return src >= g.base + g.w ? v : g.all[src];
}
template <class T>
inline T __shfl_xor_sync(unsigned, T v, int mask, int width = warpSize) {
  const __accel_warp_values<T> g(v, width);
  const int src = g.lane ^ mask;
  return src >= g.base + g.w ? v : g.all[src];
}
inline unsigned __ballot_sync(unsigned mask, int pred) {
  int all[32];
  const int mine = pred != 0;
  const unsigned live = __accel_exchange(&mine, sizeof mine, all);
  unsigned out = 0;
  for (int i = 0; i < 32; ++i) {
    if ((live >> i & 1u) && all[i]) out |= 1u << i;
  }
  return out & mask;
}
inline int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) {
  int all[32];
  const int mine = pred != 0;
  const unsigned live = __accel_exchange(&mine, sizeof mine, all) & mask;
  for (int i = 0; i < 32; ++i) {
    if ((live >> i & 1u) && !all[i]) return 0;
  }
  return 1;
}
template <class T>
inline T __reduce_add_sync(unsigned, T v) {
  T all[32];
  const unsigned live = __accel_exchange(&v, sizeof(T), all);
  T s = 0;
  for (int i = 0; i < 32; ++i) {
    if (live >> i & 1u) s += all[i];
  }
  return s;
}

// ---- assert, trap, printf --------------------------------------------------------------------
[[noreturn]] inline void __accel_assert_fail(const char* expr, const char* file, int line,
                                             const char* fn) {
  char msg[512];
  const uint3 b = blockIdx, t = threadIdx;
  snprintf(msg, sizeof msg,
           "%s:%d: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file, line,
           fn, b.x, b.y, b.z, t.x, t.y, t.z, expr);
  __accel_rt->fail(msg);
  throw __accel_trap{};
}
#undef assert
#define assert(e) ((e) ? (void)0 : __accel_assert_fail(#e, __FILE__, __LINE__, __func__))
[[noreturn]] inline void __trap() {
  __accel_rt->fail("__trap() was called");
  throw __accel_trap{};
}
inline void __brkpt() {}

// ---- memory fences and atomics ---------------------------------------------------------------
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
template <class T>
inline T __ldg(const T* p) {
  return *p;
}

template <class T, class F>
inline T __accel_atomic_update(T* p, F f) {
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, f(old), true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
template <class T, class F>
inline T __accel_atomic_update_bits(T* p, F f) {  // floating point through its bits
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  U* q = reinterpret_cast<U*>(p);
  U old = __atomic_load_n(q, __ATOMIC_RELAXED);
  for (;;) {
    T v;
    memcpy(&v, &old, sizeof v);
    const T n = f(v);
    U nb;
    memcpy(&nb, &n, sizeof nb);
    if (__atomic_compare_exchange_n(q, &old, nb, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      return v;
    }
  }
}
#define ACCEL_INT_ATOMICS(T)                                                             \
  inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }   \
  inline T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }   \
  inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); } \
  inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); }   \
  inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }     \
  inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); }   \
  inline T atomicMin(T* p, T v) {                                                        \
    return __accel_atomic_update(p, [v](T o) { return o < v ? o : v; });                 \
  }                                                                                      \
  inline T atomicMax(T* p, T v) {                                                        \
    return __accel_atomic_update(p, [v](T o) { return o > v ? o : v; });                 \
  }                                                                                      \
  inline T atomicCAS(T* p, T cmp, T v) {                                                 \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);  \
    return cmp;                                                                          \
  }
ACCEL_INT_ATOMICS(int)
ACCEL_INT_ATOMICS(unsigned int)
ACCEL_INT_ATOMICS(long long)
ACCEL_INT_ATOMICS(unsigned long long)
#undef ACCEL_INT_ATOMICS
inline unsigned int atomicInc(unsigned int* p, unsigned int v) {
  return __accel_atomic_update(p, [v](unsigned int o) { return o >= v ? 0u : o + 1u; });
}
inline unsigned int atomicDec(unsigned int* p, unsigned int v) {
  return __accel_atomic_update(p, [v](unsigned int o) { return (o == 0 || o > v) ? v : o - 1u; });
}
inline float atomicAdd(float* p, float v) {
  return __accel_atomic_update_bits(p, [v](float o) { return o + v; });
}
inline double atomicAdd(double* p, double v) {
  return __accel_atomic_update_bits(p, [v](double o) { return o + v; });
}
inline float atomicExch(float* p, float v) {
  return __accel_atomic_update_bits(p, [v](float) { return v; });
}
inline float atomicMin(float* p, float v) {
  return __accel_atomic_update_bits(p, [v](float o) { return o < v ? o : v; });
}
inline float atomicMax(float* p, float v) {
  return __accel_atomic_update_bits(p, [v](float o) { return o > v ? o : v; });
}
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicCAS_block atomicCAS
#define atomicExch_block atomicExch

// ---- math: CUDA's functions and intrinsics beyond the C library's ----------------------------
template <class A, class B>
inline auto min(A a, B b) -> std::common_type_t<A, B> {
  return b < a ? b : a;
}
template <class A, class B>
inline auto max(A a, B b) -> std::common_type_t<A, B> {
  return a < b ? b : a;
}
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline float exp10f(float x) { return powf(10.0f, x); }
inline float sinpif(float x) { return sinf(float(M_PI) * x); }
inline float cospif(float x) { return cosf(float(M_PI) * x); }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline void __sincosf(float x, float* s, float* c) {
  *s = sinf(x);
  *c = cosf(x);
}
inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return sqrtf(a); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline int __float2int_rn(float x) { return int(nearbyintf(x)); }
inline int __float2int_rz(float x) { return int(x); }
inline int __float2int_rd(float x) { return int(floorf(x)); }
inline int __float2int_ru(float x) { return int(ceilf(x)); }
inline unsigned __float2uint_rn(float x) { return unsigned(nearbyintf(x)); }
inline unsigned __float2uint_rz(float x) { return unsigned(x); }
inline long long __float2ll_rn(float x) { return (long long)nearbyintf(x); }
inline int __double2int_rn(double x) { return int(nearbyint(x)); }
inline int __double2int_rz(double x) { return int(x); }
inline float __int2float_rn(int x) { return float(x); }
inline float __uint2float_rn(unsigned x) { return float(x); }
inline double __int2double_rn(int x) { return double(x); }
inline float __double2float_rn(double x) { return float(x); }
template <class To, class From>
inline To __accel_bits(From f) {
  To t;
  memcpy(&t, &f, sizeof t);
  return t;
}
inline int __float_as_int(float x) { return __accel_bits<int>(x); }
inline unsigned __float_as_uint(float x) { return __accel_bits<unsigned>(x); }
inline float __int_as_float(int x) { return __accel_bits<float>(x); }
inline float __uint_as_float(unsigned x) { return __accel_bits<float>(x); }
inline long long __double_as_longlong(double x) { return __accel_bits<long long>(x); }
inline double __longlong_as_double(long long x) { return __accel_bits<double>(x); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (unsigned long long)__brev(unsigned(x)) << 32 | __brev(unsigned(x >> 32));
}
inline int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return int(((long long)a * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return unsigned(((unsigned long long)a * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {
  return (long long)(((__int128)a * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline unsigned __sad(int a, int b, unsigned c) { return c + unsigned(a > b ? a - b : b - a); }
inline int __hadd(int a, int b) { return int(((long long)a + b) >> 1); }
inline int __rhadd(int a, int b) { return int(((long long)a + b + 1) >> 1); }
#if defined(__x86_64__)
inline long long clock64() { return (long long)__builtin_ia32_rdtsc(); }
#endif

// ---- kernel entry points (one per kernel, generated after the user's source) ----------------
#include <utility>
#define ACCEL_CPU_KERNEL_ABI 2
struct __accel_kernel_info {
  unsigned abi;
  unsigned nparams;
  const size_t* param_sizes;
  int (*run_thread)(__accel_thread*, void**);  // one thread (a fiber); 1 when it trapped
  int (*run_block)(__accel_thread*, void**);   // every thread of the block in turn (a loop)
};
template <class Sig>
struct __accel_entry;
// How a parameter comes out of the launch's argument list (a checked pointer, in
// cuda_prelude_checked.h, also takes its bounds).
template <class P>
struct __accel_param {
  static constexpr size_t size = sizeof(P);
  static inline __attribute__((always_inline)) P get(void* a, unsigned) {
    return *static_cast<P*>(a);
  }
};
// A kernel's parameters: their sizes (the list ends with 0) and the call of F with the launch's
// arguments; each execution scheme's __accel_entry derives from it.
template <class R, class... P>
struct __accel_params_of {
  static constexpr size_t sizes[sizeof...(P) + 1] = {__accel_param<P>::size..., 0};
  template <R (*F)(P...), size_t... I>
  static inline __attribute__((always_inline)) R call(void** a, std::index_sequence<I...>) {
    return F(__accel_param<P>::get(a[I], unsigned(I))...);
  }
};
// Runs `run(linear)` for every thread of t's block in turn, x fastest (the order of linear thread
// ids), with threadIdx and the linear id set.
template <class Run>
inline __attribute__((always_inline)) void __accel_each_thread(__accel_thread* t, Run run) {
  const dim3 b = t->block_dim;
  unsigned linear = 0;
  for (unsigned z = 0; z < b.z; ++z) {
    for (unsigned y = 0; y < b.y; ++y) {
      for (unsigned x = 0; x < b.x; ++x, ++linear) {
        t->thread_idx = uint3{x, y, z};
        t->linear = linear;
        run(linear);
      }
    }
  }
}
template <class... P>
struct __accel_entry<void (*)(P...)> : __accel_params_of<void, P...> {
  using Params = __accel_params_of<void, P...>;
  template <void (*F)(P...)>
  static int run_thread(__accel_thread* t, void** a) {
    __accel_self = t;
    try {
      Params::template call<F>(a, std::index_sequence_for<P...>{});
    } catch (const __accel_trap&) {
      return 1;
    }
    return 0;
  }
#ifdef ACCEL_CPU_PLAIN
  // Every thread of the block in turn, as a loop the compiler can vectorize: the parameters are
  // read once per block (each call still gets its own copies), the coordinates are
  // __accel_plain's. Vectorizing `int i = blockIdx.x * blockDim.x + threadIdx.x; c[i] = ...`
  // needs to know that the unsigned sum neither wraps nor exceeds an int: blocks whose x index
  // is below 2^20 run a copy of the loop in which that is visible (the index masked to 20 bits,
  // an identity there); the launch's limits bound blockDim (1024, 1024, 64) and blockIdx.y/z
  // (65535) in every block, written as identities the compiler reads ranges from.
  template <void (*F)(P...)>
  static int run_block(__accel_thread* t, void** a) {
    __accel_self = t;  // extern __shared__ arrays are reached through it
    try {
      if (t->block_idx.x < (1u << 20)) {
        read_params<F, true>(t, a, std::index_sequence_for<P...>{});
      } else {
        read_params<F, false>(t, a, std::index_sequence_for<P...>{});
      }
    } catch (const __accel_trap&) {
      return 1;
    }
    return 0;
  }
  template <void (*F)(P...), bool NarrowX, size_t... I>
  static inline __attribute__((always_inline)) void read_params(const __accel_thread* t, void** a,
                                                                std::index_sequence<I...>) {
    thread_loop<F, NarrowX>(t, __accel_param<P>::get(a[I], unsigned(I))...);
  }
  // The parameters are this function's own: no memory that the kernel's stores might reach.
  template <void (*F)(P...), bool NarrowX>
  static inline __attribute__((always_inline)) void thread_loop(const __accel_thread* t, P... p) {
    const unsigned bx = t->block_dim.x < 1024u ? t->block_dim.x : 1024u;
    const unsigned by = t->block_dim.y < 1024u ? t->block_dim.y : 1024u;
    const unsigned bz = t->block_dim.z < 64u ? t->block_dim.z : 64u;
    __accel_plain.block_dim.x = bx;
    __accel_plain.block_dim.y = by;
    __accel_plain.block_dim.z = bz;
    __accel_plain.grid_dim.x = t->grid_dim.x;
    __accel_plain.grid_dim.y = t->grid_dim.y;
    __accel_plain.grid_dim.z = t->grid_dim.z;
    __accel_plain.block_idx.x = NarrowX ? t->block_idx.x & 0xfffffu : t->block_idx.x;
    __accel_plain.block_idx.y = t->block_idx.y & 0xffffu;
    __accel_plain.block_idx.z = t->block_idx.z & 0xffffu;
    for (unsigned z = 0; z < bz; ++z) {
      __accel_plain.thread_idx.z = z;
      for (unsigned y = 0; y < by; ++y) {
        __accel_plain.thread_idx.y = y;
        for (unsigned x = 0; x < bx; ++x) {
          __accel_plain.thread_idx.x = x;
          F(p...);
        }
      }
    }
  }
#else
  template <void (*F)(P...)>
  static int run_block(__accel_thread* t, void** a) {
    __accel_self = t;
    try {
      __accel_each_thread(
          t, [a](unsigned) { Params::template call<F>(a, std::index_sequence_for<P...>{}); });
    } catch (const __accel_trap&) {
      return 1;
    }
    return 0;
  }
#endif
};
#define ACCEL_CPU_KERNEL(id, ...)                                                        \
  extern "C" __attribute__((visibility("default"))) const __accel_kernel_info* id() {    \
    using E = __accel_entry<decltype(&__VA_ARGS__)>;                                     \
    static const __accel_kernel_info info = {                                            \
        ACCEL_CPU_KERNEL_ABI, unsigned(sizeof(E::sizes) / sizeof(size_t) - 1), E::sizes, \
        &E::template run_thread<&__VA_ARGS__>, &E::template run_block<&__VA_ARGS__>};    \
    return &info;                                                                        \
  }
extern "C" __attribute__((visibility("default"))) void __accelpy_init(const __accel_runtime* rt) {
  __accel_rt = rt;
}
