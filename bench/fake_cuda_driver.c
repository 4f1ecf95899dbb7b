/* A CUDA driver that runs nothing: every entry point accelpy resolves (src/cuda/driver_fns.def)
 * succeeds at once, "device memory" is host memory and kernel launches are counted, not run.
 *
 * It exists to measure accelpy's host-side cost of a CUDA operation (Python binding, graph,
 * planner, code-generation plan, kernel-cache lookup, argument packing, allocator bookkeeping)
 * on a machine without a GPU: bench/dispatch.py builds it and points ACCELPY_CUDA_DRIVER at it.
 * The real driver adds its own time (cuLaunchKernel ~2 us, cuMemAllocFromPoolAsync ~1 us on an
 * H100); results computed through it are garbage, so never run tests with it.
 *
 *   cc -O2 -shared -fPIC -o fake_libcuda.so bench/fake_cuda_driver.c
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static int g_ctx, g_pool, g_module, g_function;
static __thread void* t_current;
unsigned long long fake_cuda_launches; /* kernels "launched" so far */

static CUresult cuInit(unsigned f) { (void)f; return 0; }
CUresult cuDriverGetVersion(int* v) { *v = 13000; return 0; }
static CUresult cuGetErrorName(CUresult r, const char** s) { (void)r; *s = "FAKE_ERROR"; return 0; }
static CUresult cuGetErrorString(CUresult r, const char** s) {
  (void)r;
  *s = "fake driver";
  return 0;
}
static CUresult cuDeviceGetCount(int* n) { *n = 1; return 0; }
static CUresult cuDeviceGet(int* d, int i) { *d = i; return 0; }
static CUresult cuDeviceGetName(char* s, int n, int d) {
  (void)d;
  strncpy(s, "fake CUDA device (no kernels run)", (size_t)n);
  return 0;
}
static CUresult cuDeviceGetAttribute(int* v, int attr, int d) {
  (void)d;
  switch (attr) {
    case 1: case 2: case 3: *v = 1024; break;          /* threads per block, block x/y */
    case 4: *v = 64; break;                            /* block z */
    case 5: *v = 2147483647; break;                    /* grid x */
    case 6: case 7: *v = 65535; break;                 /* grid y/z */
    case 8: *v = 49152; break;                         /* shared memory per block */
    case 10: *v = 32; break;                           /* warp */
    case 16: *v = 132; break;                          /* SMs */
    case 39: *v = 2048; break;                         /* threads per SM */
    case 75: *v = 9; break;                            /* compute capability 9.0 */
    case 76: *v = 0; break;
    case 97: *v = 232448; break;                       /* opt-in shared memory */
    default: *v = 1; break;
  }
  return 0;
}
static CUresult cuDeviceTotalMem(size_t* b, int d) { (void)d; *b = (size_t)80 << 30; return 0; }
static CUresult cuDeviceCanAccessPeer(int* v, int a, int b) { (void)a; (void)b; *v = 0; return 0; }
static CUresult cuDevicePrimaryCtxRetain(void** c, int d) { (void)d; *c = &g_ctx; return 0; }
static CUresult cuCtxSetCurrent(void* c) { t_current = c; return 0; }
static CUresult cuCtxGetCurrent(void** c) { *c = t_current; return 0; }
static CUresult cuCtxSynchronize(void) { return 0; }
static CUresult cuCtxEnablePeerAccess(void* c, unsigned f) { (void)c; (void)f; return 0; }
static CUresult cuStreamCreate(void** s, unsigned f) { (void)f; *s = malloc(8); return 0; }
static CUresult cuStreamDestroy(void* s) { free(s); return 0; }
static CUresult cuStreamSynchronize(void* s) { (void)s; return 0; }
static CUresult cuStreamQuery(void* s) { (void)s; return 0; }
static CUresult cuStreamWaitEvent(void* s, void* e, unsigned f) { (void)s; (void)e; (void)f; return 0; }
static CUresult cuEventCreate(void** e, unsigned f) { (void)f; *e = malloc(8); return 0; }
static CUresult cuEventDestroy(void* e) { free(e); return 0; }
static CUresult cuEventRecord(void* e, void* s) { (void)e; (void)s; return 0; }
static CUresult cuEventSynchronize(void* e) { (void)e; return 0; }
static CUresult cuEventQuery(void* e) { (void)e; return 0; }
static CUresult cuEventElapsedTime(float* ms, void* a, void* b) { (void)a; (void)b; *ms = 0; return 0; }
static CUresult cuDeviceGetDefaultMemPool(void** p, int d) { (void)d; *p = &g_pool; return 0; }
static CUresult cuMemPoolSetAttribute(void* p, int a, void* v) { (void)p; (void)a; (void)v; return 0; }
static CUresult cuMemPoolGetAttribute(void* p, int a, void* v) {
  (void)p; (void)a;
  *(uint64_t*)v = 0;
  return 0;
}
static CUresult cuMemPoolTrimTo(void* p, size_t n) { (void)p; (void)n; return 0; }
static CUresult cuMemAllocFromPoolAsync(CUdeviceptr* p, size_t n, void* pool, void* s) {
  (void)pool; (void)s;
  void* m = aligned_alloc(256, (n + 255) / 256 * 256);
  if (!m) return 2;
  *p = (CUdeviceptr)(uintptr_t)m;
  return 0;
}
static CUresult cuMemFreeAsync(CUdeviceptr p, void* s) { (void)s; free((void*)(uintptr_t)p); return 0; }
static CUresult cuMemGetInfo(size_t* f, size_t* t) { *f = *t = (size_t)80 << 30; return 0; }
static CUresult cuMemHostAlloc(void** p, size_t n, unsigned f) { (void)f; *p = malloc(n); return *p ? 0 : 2; }
static CUresult cuMemFreeHost(void* p) { free(p); return 0; }
static CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void* s, size_t n, void* st) {
  (void)st;
  memcpy((void*)(uintptr_t)d, s, n);
  return 0;
}
static CUresult cuMemcpyDtoHAsync(void* d, CUdeviceptr s, size_t n, void* st) {
  (void)st;
  memcpy(d, (const void*)(uintptr_t)s, n);
  return 0;
}
static CUresult cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, void* st) {
  (void)st;
  memmove((void*)(uintptr_t)d, (const void*)(uintptr_t)s, n);
  return 0;
}
static CUresult cuMemcpyPeerAsync(CUdeviceptr d, void* dc, CUdeviceptr s, void* sc, size_t n, void* st) {
  (void)dc; (void)sc;
  return cuMemcpyDtoDAsync(d, s, n, st);
}
static CUresult cuPointerGetAttribute(void* v, int a, CUdeviceptr p) {
  (void)p;
  if (a == 2) *(unsigned*)v = 2; /* CU_MEMORYTYPE_DEVICE */
  else *(int*)v = 0;             /* device ordinal, ... */
  return 0;
}
static CUresult cuModuleLoadData(void** m, const void* img) { (void)img; *m = &g_module; return 0; }
static CUresult cuModuleUnload(void* m) { (void)m; return 0; }
static CUresult cuModuleGetFunction(void** f, void* m, const char* n) { (void)m; (void)n; *f = &g_function; return 0; }
static CUresult cuModuleGetGlobal(CUdeviceptr* p, size_t* n, void* m, const char* name) {
  (void)m; (void)name;
  static uint64_t global[64];
  if (p) *p = (CUdeviceptr)(uintptr_t)global;
  if (n) *n = sizeof(global);
  return 0;
}
static CUresult cuFuncGetAttribute(int* v, int a, void* f) { (void)f; *v = a == 0 ? 1024 : 0; return 0; }
static CUresult cuFuncSetAttribute(void* f, int a, int v) { (void)f; (void)a; (void)v; return 0; }
static CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned sm, void* s, void** args,
                               void** extra) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)sm; (void)s;
  (void)args; (void)extra;
  ++fake_cuda_launches;
  return 0;
}

#define ENTRY(name) {#name, (void*)name}
static const struct { const char* name; void* fn; } kEntries[] = {
    ENTRY(cuInit), ENTRY(cuDriverGetVersion), ENTRY(cuGetErrorName), ENTRY(cuGetErrorString),
    ENTRY(cuDeviceGetCount), ENTRY(cuDeviceGet), ENTRY(cuDeviceGetName),
    ENTRY(cuDeviceGetAttribute), ENTRY(cuDeviceTotalMem), ENTRY(cuDeviceCanAccessPeer),
    ENTRY(cuDevicePrimaryCtxRetain), ENTRY(cuCtxSetCurrent), ENTRY(cuCtxGetCurrent),
    ENTRY(cuCtxSynchronize), ENTRY(cuCtxEnablePeerAccess), ENTRY(cuStreamCreate),
    ENTRY(cuStreamDestroy), ENTRY(cuStreamSynchronize), ENTRY(cuStreamQuery),
    ENTRY(cuStreamWaitEvent), ENTRY(cuEventCreate), ENTRY(cuEventDestroy), ENTRY(cuEventRecord),
    ENTRY(cuEventSynchronize), ENTRY(cuEventQuery), ENTRY(cuEventElapsedTime),
    ENTRY(cuDeviceGetDefaultMemPool), ENTRY(cuMemPoolSetAttribute), ENTRY(cuMemPoolGetAttribute),
    ENTRY(cuMemPoolTrimTo), ENTRY(cuMemAllocFromPoolAsync), ENTRY(cuMemFreeAsync),
    ENTRY(cuMemGetInfo), ENTRY(cuMemHostAlloc), ENTRY(cuMemFreeHost), ENTRY(cuMemcpyHtoDAsync),
    ENTRY(cuMemcpyDtoHAsync), ENTRY(cuMemcpyDtoDAsync), ENTRY(cuMemcpyPeerAsync),
    ENTRY(cuPointerGetAttribute), ENTRY(cuModuleLoadData), ENTRY(cuModuleUnload),
    ENTRY(cuModuleGetFunction), ENTRY(cuLaunchKernel), ENTRY(cuModuleGetGlobal),
    ENTRY(cuFuncGetAttribute), ENTRY(cuFuncSetAttribute),
};

CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, uint64_t flags,
                             int* status) {
  (void)version; (void)flags;
  for (size_t i = 0; i < sizeof(kEntries) / sizeof(kEntries[0]); ++i) {
    if (strcmp(kEntries[i].name, symbol) == 0) {
      *pfn = kEntries[i].fn;
      if (status) *status = 0;
      return 0;
    }
  }
  *pfn = NULL;
  if (status) *status = 1;
  return 500; /* CUDA_ERROR_NOT_FOUND: optional entry points (cuFuncGetParamInfo) stay unused */
}
