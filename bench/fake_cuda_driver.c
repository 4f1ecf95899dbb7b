/* A CUDA driver that runs nothing: every entry point accelpy resolves
 * (src/cuda/driver/driver_fns.def) succeeds at once, "device memory" is host memory and kernel
 * launches are counted, not run.
 *
 * It exists to measure accelpy's host-side cost of a CUDA operation (Python binding, graph,
 * planner, code-generation plan, kernel-cache lookup, argument packing, allocator bookkeeping)
 * on a machine without a GPU: bench/dispatch.py builds it and points ACCELPY_CUDA_DRIVER at it.
 * The real driver adds its own time (cuLaunchKernel ~2 us, cuMemAllocFromPoolAsync ~1 us on an
 * H100); results computed through it are garbage, so never run tests with it.
 *
 * Users' kernels' parameter lists (cuFuncGetParamInfo, which real drivers of CUDA 12.4+ have) are
 * what FAKE_CUDA_PARAM_SIZES says, e.g. "8,8,8,4" (every such kernel gets that list); without it the
 * entry point is missing, as in older drivers, and argument sizes go unchecked. With the list
 * given, each launch also records its configuration and argument bytes (fake_cuda_last_*) for
 * tests of the launch path to read through ctypes. CUDA graphs of kernel nodes are recorded and
 * replayed through the same launches (see cuGraphLaunch).
 *
 * Every call that returns an error is counted (fake_cuda_failed_calls) and named, with its code,
 * in fake_cuda_failed_log: accelpy's normal operation must make none, since each is a report in
 * compute-sanitizer's output and in any API-error check a user runs (tests read both through
 * ctypes). FAKE_CUDA_VERSION (e.g. 13020) sets the version cuDriverGetVersion reports (13000
 * otherwise); from 13020 on, cuFuncGetParamCount is there too when FAKE_CUDA_PARAM_SIZES is given.
 *
 * FAKE_CUDA_BUSY_MS=N makes every kernel launch keep "the GPU" busy N ms more (one queue for all
 * streams), so that host waits take time and can be interrupted: synchronizing calls and copies
 * into pageable memory sleep until then, events recorded meanwhile complete then, and a stream
 * write (cuStreamWriteValue32) lands then, from a thread of its own. fake_cuda_sync_calls counts
 * the synchronizing calls, fake_cuda_stream_writes the stream writes.
 *
 *   cc -O2 -shared -fPIC -o fake_libcuda.so bench/fake_cuda_driver.c
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static int g_ctx, g_pool, g_module, g_function, g_user_function;
static __thread void* t_current;
unsigned long long fake_cuda_launches; /* kernels "launched" so far */

unsigned long long fake_cuda_failed_calls; /* calls that returned an error */
char fake_cuda_failed_log[4096];           /* "name=code " for each, while there is room */

static CUresult failed(const char* call, CUresult r) {
  __atomic_add_fetch(&fake_cuda_failed_calls, 1, __ATOMIC_RELAXED);
  const size_t at = strlen(fake_cuda_failed_log);
  if (at + 64 < sizeof(fake_cuda_failed_log)) {
    snprintf(fake_cuda_failed_log + at, sizeof(fake_cuda_failed_log) - at, "%s=%d ", call, r);
  }
  return r;
}
#define FAIL(r) failed(__func__, (r))

static int driver_version(void) {
  const char* v = getenv("FAKE_CUDA_VERSION");
  return v ? atoi(v) : 13000;
}

/* FAKE_CUDA_BUSY_MS: when the queued "work" ends, in CLOCK_MONOTONIC milliseconds. */
static double g_busy_until;
static pthread_mutex_t g_busy_mutex = PTHREAD_MUTEX_INITIALIZER;
unsigned long long fake_cuda_sync_calls, fake_cuda_stream_writes;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}
static double busy_until(void) {
  pthread_mutex_lock(&g_busy_mutex);
  const double t = g_busy_until;
  pthread_mutex_unlock(&g_busy_mutex);
  return t;
}
static void sleep_until(double t) {
  const double left = t - now_ms();
  if (left <= 0) return;
  struct timespec d = {(time_t)(left / 1e3), (long)((left - (double)(time_t)(left / 1e3) * 1e3) * 1e6)};
  nanosleep(&d, NULL);
}
static void launch_keeps_busy(void) {
  static int ms = -1;
  if (ms < 0) ms = getenv("FAKE_CUDA_BUSY_MS") ? atoi(getenv("FAKE_CUDA_BUSY_MS")) : 0;
  if (ms <= 0) return;
  pthread_mutex_lock(&g_busy_mutex);
  const double now = now_ms();
  g_busy_until = (g_busy_until > now ? g_busy_until : now) + ms;
  pthread_mutex_unlock(&g_busy_mutex);
}
static void wait_idle(void) {
  __atomic_add_fetch(&fake_cuda_sync_calls, 1, __ATOMIC_RELAXED);
  sleep_until(busy_until());
}

static CUresult cuInit(unsigned f) { (void)f; return 0; }
CUresult cuDriverGetVersion(int* v) { *v = driver_version(); return 0; }
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
static CUresult cuCtxSynchronize(void) { wait_idle(); return 0; }
static CUresult cuCtxEnablePeerAccess(void* c, unsigned f) { (void)c; (void)f; return 0; }
static CUresult cuStreamCreate(void** s, unsigned f) { (void)f; *s = malloc(8); return 0; }
static CUresult cuStreamDestroy(void* s) { free(s); return 0; }
static CUresult cuStreamSynchronize(void* s) { (void)s; wait_idle(); return 0; }
static CUresult cuStreamQuery(void* s) {
  (void)s;
  return busy_until() > now_ms() ? FAIL(600) : 0; /* CUDA_ERROR_NOT_READY */
}
/* The write lands once the work before it is done: at once when idle, else from a thread. */
typedef struct { volatile uint32_t* at; uint32_t value; double when; } PendingWrite;
static void* land_write(void* arg) {
  PendingWrite* w = (PendingWrite*)arg;
  sleep_until(w->when);
  __atomic_store_n(w->at, w->value, __ATOMIC_RELEASE);
  free(w);
  return NULL;
}
static CUresult cuStreamWriteValue32(void* s, CUdeviceptr addr, uint32_t value, unsigned flags) {
  (void)s; (void)flags;
  __atomic_add_fetch(&fake_cuda_stream_writes, 1, __ATOMIC_RELAXED);
  volatile uint32_t* at = (volatile uint32_t*)(uintptr_t)addr;
  const double when = busy_until();
  if (when <= now_ms()) {
    __atomic_store_n(at, value, __ATOMIC_RELEASE);
    return 0;
  }
  PendingWrite* w = malloc(sizeof(PendingWrite));
  if (!w) return FAIL(2);
  w->at = at;
  w->value = value;
  w->when = when;
  pthread_t t;
  if (pthread_create(&t, NULL, land_write, w) != 0) {
    free(w);
    return FAIL(2);
  }
  pthread_detach(t);
  return 0;
}
/* An event's word: 1 while the work before its last record has not finished. That work finishes
   at once unless FAKE_CUDA_EVENTS_PENDING is set: then a recorded event stays pending until it
   is synchronised, queried once or waited for by a stream, as a real one does for a moment after
   cuEventRecord. The second word: when the work before its last record ends (FAKE_CUDA_BUSY_MS). */
static CUresult cuEventCreate(void** e, unsigned f) {
  (void)f;
  *e = calloc(2, 8);
  return *e ? 0 : FAIL(2);
}
static CUresult cuEventDestroy(void* e) { free(e); return 0; }
static CUresult cuEventRecord(void* e, void* s) {
  (void)s;
  *(uint64_t*)e = getenv("FAKE_CUDA_EVENTS_PENDING") ? 1 : 0;
  ((double*)e)[1] = busy_until();
  return 0;
}
static CUresult cuEventSynchronize(void* e) {
  __atomic_add_fetch(&fake_cuda_sync_calls, 1, __ATOMIC_RELAXED);
  sleep_until(((double*)e)[1]);
  *(uint64_t*)e = 0;
  return 0;
}
static CUresult cuEventQuery(void* e) {
  if (*(uint64_t*)e == 0 && ((double*)e)[1] <= now_ms()) return 0;
  *(uint64_t*)e = 0;
  return FAIL(600); /* CUDA_ERROR_NOT_READY */
}
/* A stream made to wait for a pending event (FAKE_CUDA_EVENTS_PENDING) completes it, as a
   wait does: what the stream queues next runs after the event's work. */
static CUresult cuStreamWaitEvent(void* s, void* e, unsigned f) {
  (void)s; (void)f;
  *(uint64_t*)e = 0;
  return 0;
}
/* Nonzero, so that scripts which divide by it (bench/gpu.py --quick) run through. */
static CUresult cuEventElapsedTime(float* ms, void* a, void* b) {
  if (*(uint64_t*)a || *(uint64_t*)b) return FAIL(600); /* CUDA_ERROR_NOT_READY */
  *ms = 1e-3f;
  return 0;
}
static CUresult cuDeviceGetDefaultMemPool(void** p, int d) { (void)d; *p = &g_pool; return 0; }
static CUresult cuMemPoolSetAttribute(void* p, int a, void* v) { (void)p; (void)a; (void)v; return 0; }
static CUresult cuMemPoolGetAttribute(void* p, int a, void* v) {
  (void)p; (void)a;
  *(uint64_t*)v = 0;
  return 0;
}
static CUresult cuMemPoolTrimTo(void* p, size_t n) { (void)p; (void)n; return 0; }
long long fake_cuda_fail_allocs_after = -1; /* see the graphs' comment below */
static CUresult cuMemAllocFromPoolAsync(CUdeviceptr* p, size_t n, void* pool, void* s) {
  (void)pool; (void)s;
  if (fake_cuda_fail_allocs_after == 0) return FAIL(2); /* CUDA_ERROR_OUT_OF_MEMORY */
  if (fake_cuda_fail_allocs_after > 0) --fake_cuda_fail_allocs_after;
  void* m = aligned_alloc(256, (n + 255) / 256 * 256);
  if (!m) return FAIL(2);
  /* FAKE_CUDA_ZERO_MEMORY: "device" memory reads zeros, so a count read back (no kernel wrote
     it) is 0 on every run instead of whatever the heap held. */
  static int zero = -1;
  if (zero < 0) zero = getenv("FAKE_CUDA_ZERO_MEMORY") != NULL;
  if (zero) memset(m, 0, n);
  *p = (CUdeviceptr)(uintptr_t)m;
  return 0;
}
static CUresult cuMemFreeAsync(CUdeviceptr p, void* s) { (void)s; free((void*)(uintptr_t)p); return 0; }
static CUresult cuMemGetInfo(size_t* f, size_t* t) { *f = *t = (size_t)80 << 30; return 0; }
/* Pinned allocations, so that pointer queries can tell them from "device memory". */
static struct { char* p; size_t n; } g_pinned[256];
static CUresult cuMemHostAlloc(void** p, size_t n, unsigned f) {
  (void)f;
  *p = malloc(n);
  if (!*p) return FAIL(2);
  for (size_t i = 0; i < 256; ++i) {
    if (!g_pinned[i].p) {
      g_pinned[i].p = (char*)*p;
      g_pinned[i].n = n;
      break;
    }
  }
  return 0;
}
/* Mapped pinned memory: the "device" address is the host one, as with unified addressing. */
static CUresult cuMemHostGetDevicePointer(CUdeviceptr* d, void* p, unsigned f) {
  (void)f;
  *d = (CUdeviceptr)(uintptr_t)p;
  return 0;
}
static CUresult cuMemFreeHost(void* p) {
  for (size_t i = 0; i < 256; ++i) {
    if (g_pinned[i].p == (char*)p) g_pinned[i].p = NULL;
  }
  free(p);
  return 0;
}
static CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void* s, size_t n, void* st) {
  (void)st;
  memcpy((void*)(uintptr_t)d, s, n);
  return 0;
}
static int is_pinned(const void* p);
static CUresult cuMemcpyDtoHAsync(void* d, CUdeviceptr s, size_t n, void* st) {
  (void)st;
  /* Into pageable memory the real driver returns once the copy is done, after the work. */
  if (!is_pinned(d)) wait_idle();
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
static int is_pinned(const void* p) {
  for (size_t i = 0; i < 256; ++i) {
    const char* q = (const char*)p;
    if (g_pinned[i].p && q >= g_pinned[i].p && q < g_pinned[i].p + g_pinned[i].n) return 1;
  }
  return 0;
}
/* Pinned host memory (cuMemHostAlloc) is host memory; every other pointer is device memory of
 * device 0, since "device memory" is host memory here. */
static CUresult cuPointerGetAttributes(unsigned n, const int* attrs, void** data, CUdeviceptr p) {
  unsigned type = 2; /* CU_MEMORYTYPE_DEVICE */
  for (size_t i = 0; i < 256; ++i) {
    const char* q = (const char*)(uintptr_t)p;
    if (g_pinned[i].p && q >= g_pinned[i].p && q < g_pinned[i].p + g_pinned[i].n) type = 1;
  }
  for (unsigned i = 0; i < n; ++i) {
    if (attrs[i] == 2) *(unsigned*)data[i] = type; /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
    else if (attrs[i] == 9) *(int*)data[i] = 0; /* CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL */
    else return FAIL(1);                        /* accelpy asks for no other */
  }
  return 0;
}
/* What builds before cuPointerGetAttributes resolved (host-cost comparisons load them). */
static CUresult cuPointerGetAttribute(void* v, int a, CUdeviceptr p) {
  return cuPointerGetAttributes(1, &a, &v, p);
}
static CUresult cuModuleLoadData(void** m, const void* img) { (void)img; *m = &g_module; return 0; }
static CUresult cuModuleUnload(void* m) { (void)m; return 0; }
/* accelpy's own kernels are named accel_*; the others are users' (RawKernel, SourceModule). */
static CUresult cuModuleGetFunction(void** f, void* m, const char* n) {
  (void)m;
  *f = strncmp(n, "accel_", 6) == 0 ? (void*)&g_function : (void*)&g_user_function;
  return 0;
}
static CUresult cuModuleGetGlobal(CUdeviceptr* p, size_t* n, void* m, const char* name) {
  (void)m; (void)name;
  static uint64_t global[64];
  if (p) *p = (CUdeviceptr)(uintptr_t)global;
  if (n) *n = sizeof(global);
  return 0;
}
static CUresult cuFuncGetAttribute(int* v, int a, void* f) { (void)f; *v = a == 0 ? 1024 : 0; return 0; }
static CUresult cuFuncSetAttribute(void* f, int a, int v) { (void)f; (void)a; (void)v; return 0; }
static CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, void* f, int b, size_t sm) {
  (void)f; (void)sm; *n = 2048 / b; return 0;
}
/* The parameter sizes of FAKE_CUDA_PARAM_SIZES, parsed once (0 of them: not given). */
static size_t g_param_sizes[64], g_param_count;
static int g_params_parsed;

static void parse_param_sizes(void) {
  const char* list = getenv("FAKE_CUDA_PARAM_SIZES");
  g_params_parsed = 1;
  while (list && *list && g_param_count < 64) {
    char* end = NULL;
    const size_t n = (size_t)strtoul(list, &end, 10);
    if (end == list) break;
    g_param_sizes[g_param_count++] = n;
    list = *end == ',' ? end + 1 : end;
  }
}

/* The last launch: grid x/y/z, block x/y/z, dynamic shared memory, the stream, and the bytes
 * of each argument one after another (as many as FAKE_CUDA_PARAM_SIZES lists). */
unsigned fake_cuda_last_config[7];
void* fake_cuda_last_stream;
unsigned char fake_cuda_last_args[1024];

static CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned sm, void* s, void** args,
                               void** extra) {
  (void)f; (void)extra;
  ++fake_cuda_launches;
  launch_keeps_busy();
  if (!g_params_parsed) parse_param_sizes();
  if (g_param_count && f == &g_user_function) {
    const unsigned config[7] = {gx, gy, gz, bx, by, bz, sm};
    memcpy(fake_cuda_last_config, config, sizeof(config));
    fake_cuda_last_stream = s;
    size_t at = 0;
    for (size_t i = 0; i < g_param_count && at + g_param_sizes[i] <= sizeof(fake_cuda_last_args);
         ++i) {
      memcpy(fake_cuda_last_args + at, args[i], g_param_sizes[i]);
      at += g_param_sizes[i];
    }
  }
  return 0;
}

/* CUDA graphs of kernel nodes (src/cuda/graphs.cpp). A node keeps its kernel, configuration and
 * parameter bytes (accelpy passes them as one buffer through `extra`, so their size is known
 * here); an instantiated graph is a copy of its nodes, and launching it launches each node
 * through cuLaunchKernel above, so that launch counts are the same with and without graphs.
 * Counted for tests: graphs instantiated and not yet destroyed, graph launches, node updates;
 * the last node launched through a graph leaves its parameter bytes in fake_cuda_last_node_args.
 * fake_cuda_fail_allocs_after >= 0: that many more allocations succeed, then they fail. */
typedef struct {
  void* func;
  unsigned config[7];
  unsigned char* params;
  size_t size;
} FakeNode;
typedef struct {
  FakeNode* nodes;
  size_t n, cap;
} FakeGraph;
typedef struct {
  FakeGraph* graph; /* the graph whose node this is */
  size_t index;
} FakeNodeHandle;
typedef struct {
  FakeGraph* graph; /* the nodes (own copies of the graph's) */
  FakeGraph nodes;
} FakeExec;

long long fake_cuda_live_graph_execs; /* instantiated, not destroyed */
unsigned long long fake_cuda_graph_launches, fake_cuda_node_updates, fake_cuda_graph_nodes_added;
unsigned char fake_cuda_last_node_args[4096];
size_t fake_cuda_last_node_size;

/* Mirrors CUDA_KERNEL_NODE_PARAMS_v2. */
typedef struct {
  void* func;
  unsigned grid[3], block[3], shared;
  void** kernel_params;
  void** extra;
  void* kern;
  void* ctx;
} KernelNodeParams;

static int set_node(FakeNode* n, const KernelNodeParams* p) {
  const unsigned char* buf = NULL;
  size_t size = 0;
  for (void** e = p->extra; e && *e; e += 2) {
    if (*e == (void*)1) buf = (const unsigned char*)e[1];
    else if (*e == (void*)2) size = *(const size_t*)e[1];
  }
  if (!buf || !size || size > sizeof(fake_cuda_last_node_args)) return 1; /* INVALID_VALUE */
  n->func = p->func;
  const unsigned config[7] = {p->grid[0], p->grid[1], p->grid[2], p->block[0], p->block[1],
                              p->block[2], p->shared};
  memcpy(n->config, config, sizeof(config));
  free(n->params);
  n->params = malloc(size);
  memcpy(n->params, buf, size);
  n->size = size;
  return 0;
}
static void clear_nodes(FakeGraph* g) {
  for (size_t i = 0; i < g->n; ++i) free(g->nodes[i].params);
  free(g->nodes);
  g->nodes = NULL;
  g->n = g->cap = 0;
}
static CUresult cuGraphCreate(void** g, unsigned f) {
  (void)f;
  *g = calloc(1, sizeof(FakeGraph));
  return 0;
}
static CUresult cuGraphDestroy(void* g) {
  clear_nodes((FakeGraph*)g);
  free(g);
  return 0;
}
static CUresult cuGraphAddKernelNode(void** node, void* graph, void* const* deps, size_t ndeps,
                                     const KernelNodeParams* p) {
  FakeGraph* g = (FakeGraph*)graph;
  /* accelpy chains its nodes: each depends on the one before. */
  if (ndeps != (g->n ? 1u : 0u)) return FAIL(1);
  if (ndeps && ((FakeNodeHandle*)deps[0])->index != g->n - 1) return FAIL(1);
  if (g->n == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 8;
    g->nodes = realloc(g->nodes, g->cap * sizeof(FakeNode));
  }
  FakeNode* n = &g->nodes[g->n];
  memset(n, 0, sizeof(*n));
  if (set_node(n, p)) return FAIL(1);
  FakeNodeHandle* h = malloc(sizeof(FakeNodeHandle));
  h->graph = g;
  h->index = g->n++;
  *node = h; /* freed with the process: handles are few */
  ++fake_cuda_graph_nodes_added;
  return 0;
}
static CUresult cuGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long f) {
  (void)f;
  FakeGraph* g = (FakeGraph*)graph;
  FakeExec* e = calloc(1, sizeof(FakeExec));
  e->graph = g;
  e->nodes.nodes = calloc(g->n ? g->n : 1, sizeof(FakeNode));
  e->nodes.n = e->nodes.cap = g->n;
  for (size_t i = 0; i < g->n; ++i) {
    e->nodes.nodes[i] = g->nodes[i];
    e->nodes.nodes[i].params = malloc(g->nodes[i].size);
    memcpy(e->nodes.nodes[i].params, g->nodes[i].params, g->nodes[i].size);
  }
  *exec = e;
  ++fake_cuda_live_graph_execs;
  return 0;
}
static CUresult cuGraphExecDestroy(void* exec) {
  FakeExec* e = (FakeExec*)exec;
  clear_nodes(&e->nodes);
  free(e);
  --fake_cuda_live_graph_execs;
  return 0;
}
static CUresult cuGraphExecKernelNodeSetParams(void* exec, void* node, const KernelNodeParams* p) {
  FakeExec* e = (FakeExec*)exec;
  FakeNodeHandle* h = (FakeNodeHandle*)node;
  if (h->graph != e->graph || h->index >= e->nodes.n) return FAIL(1);
  /* accelpy rebuilds instead of changing a node's kernel. */
  if (p->func != e->nodes.nodes[h->index].func) return FAIL(1);
  if (set_node(&e->nodes.nodes[h->index], p)) return FAIL(1);
  ++fake_cuda_node_updates;
  return 0;
}
static CUresult cuGraphLaunch(void* exec, void* stream) {
  FakeExec* e = (FakeExec*)exec;
  ++fake_cuda_graph_launches;
  for (size_t i = 0; i < e->nodes.n; ++i) {
    FakeNode* n = &e->nodes.nodes[i];
    void* args[] = {n->params};
    cuLaunchKernel(n->func, n->config[0], n->config[1], n->config[2], n->config[3], n->config[4],
                   n->config[5], n->config[6], stream, args, NULL);
    memcpy(fake_cuda_last_node_args, n->params, n->size);
    fake_cuda_last_node_size = n->size;
  }
  return 0;
}

static CUresult cuFuncGetParamInfo(void* f, size_t index, size_t* offset, size_t* size) {
  if (!g_params_parsed) parse_param_sizes();
  if (f != &g_user_function) return FAIL(1); /* accelpy's kernels do not ask */
  size_t at = 0;
  for (size_t i = 0; i < g_param_count; ++i) {
    const size_t n = g_param_sizes[i];
    at = (at + n - 1) / n * n; /* each parameter aligned to its size */
    if (i == index) {
      *offset = at;
      *size = n;
      return 0;
    }
    at += n;
  }
  return FAIL(1); /* CUDA_ERROR_INVALID_VALUE: past the last parameter */
}

static CUresult cuFuncGetParamCount(void* f, size_t* count) {
  if (!g_params_parsed) parse_param_sizes();
  if (f != &g_user_function) return FAIL(1);
  *count = g_param_count;
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
    ENTRY(cuMemHostGetDevicePointer), ENTRY(cuStreamWriteValue32),
    ENTRY(cuMemcpyDtoHAsync), ENTRY(cuMemcpyDtoDAsync), ENTRY(cuMemcpyPeerAsync),
    ENTRY(cuPointerGetAttributes), ENTRY(cuPointerGetAttribute), ENTRY(cuModuleLoadData),
    ENTRY(cuModuleUnload), ENTRY(cuModuleGetFunction), ENTRY(cuLaunchKernel),
    ENTRY(cuModuleGetGlobal),
    ENTRY(cuFuncGetAttribute), ENTRY(cuFuncSetAttribute),
    ENTRY(cuOccupancyMaxActiveBlocksPerMultiprocessor), ENTRY(cuGraphCreate),
    ENTRY(cuGraphDestroy), ENTRY(cuGraphAddKernelNode), ENTRY(cuGraphInstantiateWithFlags),
    ENTRY(cuGraphExecDestroy), ENTRY(cuGraphExecKernelNodeSetParams), ENTRY(cuGraphLaunch),
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
  if (strcmp(symbol, "cuFuncGetParamInfo") == 0 && getenv("FAKE_CUDA_PARAM_SIZES")) {
    *pfn = (void*)cuFuncGetParamInfo;
    if (status) *status = 0;
    return 0;
  }
  if (strcmp(symbol, "cuFuncGetParamCount") == 0 && getenv("FAKE_CUDA_PARAM_SIZES") &&
      driver_version() >= 13020) {
    *pfn = (void*)cuFuncGetParamCount;
    if (status) *status = 0;
    return 0;
  }
  *pfn = NULL;
  if (status) *status = 1;
  return FAIL(500); /* CUDA_ERROR_NOT_FOUND (accelpy asks only for what the version has) */
}
