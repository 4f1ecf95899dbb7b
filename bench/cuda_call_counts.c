/* Counts every driver call accelpy makes, by entry point: a libcuda.so.1 that loads another
 * driver (CUDA_CALL_COUNTS_DRIVER: bench/fake_cuda_driver.c's build, or a real one) and hands
 * accelpy a counting wrapper of each entry point that driver's cuGetProcAddress_v2 gives.
 * Each wrapper forwards eleven 64-bit integer arguments, which is right for the driver API on
 * x86-64 and AArch64 (every argument is an integer or a pointer; none takes more than eleven).
 * Also sums the blocks of the kernel launches.
 *
 *   cc -O2 -shared -fPIC -o /tmp/counts/libcuda.so.1 bench/cuda_call_counts.c -ldl
 *   CUDA_CALL_COUNTS_DRIVER=/tmp/fake/libcuda.so.1 ACCELPY_CUDA_DRIVER=/tmp/counts/libcuda.so.1 \
 *     CUDA_CALL_COUNTS=/tmp/counts.txt python program.py
 *
 * At exit the counts go to CUDA_CALL_COUNTS ("name count" lines); from Python (ctypes on the
 * same path): cuda_call_counts_reset() and cuda_call_counts_write(path) around a region.
 * decisions.md D103. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t U;
typedef int (*Fn)(U, U, U, U, U, U, U, U, U, U, U);
enum { kSlots = 100 };
static const char* g_name[kSlots];
static Fn g_real[kSlots];
static unsigned long long g_count[kSlots];
static unsigned long long g_launch_blocks;
static int g_slots, g_launch_slot = -1;
static int (*g_get_proc)(const char*, void**, int, uint64_t, int*);
static int (*g_version)(int*);

static void load(void) {
  if (g_get_proc) return;
  const char* path = getenv("CUDA_CALL_COUNTS_DRIVER");
  void* h = dlopen(path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) abort();
  g_get_proc = (int (*)(const char*, void**, int, uint64_t, int*))dlsym(h, "cuGetProcAddress_v2");
  g_version = (int (*)(int*))dlsym(h, "cuDriverGetVersion");
}

// clang-format off
#define W(i)                                                                                  \
  static int w##i(U a, U b, U c, U d, U e, U f, U g, U h, U j, U k, U l) {                    \
    __atomic_add_fetch(&g_count[i], 1, __ATOMIC_RELAXED);                                     \
    if (i == g_launch_slot) __atomic_add_fetch(&g_launch_blocks, b * c * d, __ATOMIC_RELAXED); \
    return g_real[i](a, b, c, d, e, f, g, h, j, k, l);                                        \
  }
#define W10(t) W(t##0) W(t##1) W(t##2) W(t##3) W(t##4) W(t##5) W(t##6) W(t##7) W(t##8) W(t##9)
W(0) W(1) W(2) W(3) W(4) W(5) W(6) W(7) W(8) W(9)
W10(1) W10(2) W10(3) W10(4) W10(5) W10(6) W10(7) W10(8) W10(9)
#define R10(t) \
  w##t##0, w##t##1, w##t##2, w##t##3, w##t##4, w##t##5, w##t##6, w##t##7, w##t##8, w##t##9
static void* const g_wrapper[kSlots] = {w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, R10(1), R10(2),
                                        R10(3), R10(4), R10(5), R10(6), R10(7), R10(8), R10(9)};
// clang-format on

int cuDriverGetVersion(int* v) {
  load();
  return g_version(v);
}

int cuGetProcAddress_v2(const char* symbol, void** pfn, int version, uint64_t flags, int* status) {
  load();
  const int r = g_get_proc(symbol, pfn, version, flags, status);
  if (r || !*pfn) return r;
  for (int i = 0; i < g_slots; ++i) {
    if (strcmp(g_name[i], symbol) == 0) {
      *pfn = g_wrapper[i];
      return r;
    }
  }
  if (g_slots == kSlots) return r; /* uncounted */
  if (strcmp(symbol, "cuLaunchKernel") == 0) g_launch_slot = g_slots;
  g_name[g_slots] = strdup(symbol);
  g_real[g_slots] = (Fn)*pfn;
  *pfn = g_wrapper[g_slots++];
  return r;
}

void cuda_call_counts_reset(void) {
  memset(g_count, 0, sizeof g_count);
  g_launch_blocks = 0;
}

void cuda_call_counts_write(const char* path) {
  FILE* f = fopen(path, "w");
  if (!f) return;
  for (int i = 0; i < g_slots; ++i) {
    if (g_count[i]) fprintf(f, "%s %llu\n", g_name[i], g_count[i]);
  }
  fprintf(f, "launched_blocks %llu\n", g_launch_blocks);
  fclose(f);
}

__attribute__((destructor)) static void write_at_exit(void) {
  const char* path = getenv("CUDA_CALL_COUNTS");
  if (path) cuda_call_counts_write(path);
}
