// Host <-> device copies. DMA engines read and write only page-locked memory, so a copy from
// pageable NumPy memory is staged: the CPU copies a chunk into a pinned buffer (with all cores:
// one core's memcpy is slower than PCIe) while the DMA engine moves the previous chunk. Events
// mark when each staging buffer is free again. Pinned sources and destinations skip staging.
// The two directions store differently (H200 host, 16 cores, 300 MiB L3, 256 MiB, 2026-12-02):
// - Downloads write the pageable destination with non-temporal stores: the CPU does not read it
//   again soon, and plain stores first read every destination line. 51 GB/s, plain 39.5-42.
// - Uploads write the pinned staging buffer with plain stores: the chunk stays in the L3, where
//   the DMA engine's reads find it moments later. 40.7-41.3 GB/s, non-temporal 36.9 (and 22.7
//   in a first run), which sent every chunk to DRAM and back.
#include "src/cuda/driver/transfer.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "accel/errors.hpp"
#include "src/cpu/thread_pool.hpp"
#include "src/cuda/driver/wait.hpp"

namespace accel::cuda {

namespace {

// Eight 8 MiB buffers: the DMA engine may run up to 56 MiB ahead of the host-side copies, so a
// slow stretch of the CPU's copy (page faults on a fresh NumPy destination, another process)
// does not leave PCIe idle. Four buffers measured 35-48 GB/s for 256 MiB downloads on the H100
// host, against a >= 40 GB/s target every time.
constexpr size_t kChunk = size_t(8) << 20;         // bytes per staging buffer
constexpr int kBuffers = 8;                        // staging buffers per device
constexpr size_t kDirect = size_t(1) << 20;        // below this, let the driver stage
constexpr size_t kParallelCopy = size_t(1) << 20;  // below this, one thread copies

struct Staging {
  std::mutex mutex;  // one staged transfer at a time per device
  void* buffer[kBuffers] = {};
  api::CUevent done[kBuffers] = {};
  bool busy[kBuffers] = {};
};

// Downloads of up to kDirect bytes land here first, so that the wait for them can be interrupted
// (a copy into pageable memory returns only when done, after all the work queued before it).
// After an interrupted wait the copy still writes the buffer: `in_flight` stays set until it
// has, and downloads meanwhile wait for their work before the driver's own copy instead.
struct Bounce {
  std::mutex mutex;
  void* buffer = nullptr;
  std::atomic<bool> in_flight{false};
};

Bounce& bounce(DeviceContext& c) {
  static Bounce* all = new Bounce[kMaxDevices];  // never destroyed: a copy may be in flight
  Bounce& b = all[c.index];
  std::lock_guard<std::mutex> lock(b.mutex);
  if (!b.buffer) b.buffer = pinned_alloc(kDirect);
  return b;
}

Staging& staging(DeviceContext& c) {
  static Staging* all[kMaxDevices] = {};
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  Staging*& s = all[c.index];
  if (!s) {
    auto fresh = std::make_unique<Staging>();
    for (int i = 0; i < kBuffers; ++i) {
      fresh->buffer[i] = pinned_alloc(kChunk);
      c.make_current();
      check(drv().cuEventCreate(&fresh->done[i], api::CU_EVENT_DISABLE_TIMING), "cuEventCreate",
            c.index);
    }
    s = fresh.release();  // kept for the life of the process
  }
  return *s;
}

// Copies with all cores; `streaming` chooses non-temporal stores (see the top of the file).
void host_copy(void* dst, const void* src, size_t n, bool streaming) {
  if (n < kParallelCopy) {
    std::memcpy(dst, src, n);
    return;
  }
  constexpr int64_t kGrain = 256 << 10;
  cpu::parallel_for(int64_t(n), kGrain, [&](int64_t lo, int64_t hi, int) {
    char* d = static_cast<char*>(dst) + lo;
    const char* s = static_cast<const char*>(src) + lo;
    if (streaming) {
      host_stream_copy(d, s, size_t(hi - lo));
    } else {
      std::memcpy(d, s, size_t(hi - lo));
    }
  });
}

api::CUdeviceptr dptr(const void* p) { return reinterpret_cast<api::CUdeviceptr>(p); }

}  // namespace

void host_stream_copy(void* dst, const void* src, size_t n) {
#if defined(__SSE2__)
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  const size_t head = std::min(n, size_t((16 - (reinterpret_cast<uintptr_t>(d) & 15)) & 15));
  std::memcpy(d, s, head);
  d += head;
  s += head;
  n -= head;
  const size_t body = n & ~size_t(63);
  for (size_t i = 0; i < body; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
  }
  std::memcpy(d + body, s + body, n - body);
  _mm_sfence();  // the streamed stores are visible before the copy is reported done
#else
  std::memcpy(dst, src, n);
#endif
}

bool is_pinned(const void* ptr) {
  // The plural query: pageable memory, which the driver does not know, reads as type 0 rather
  // than failing (a failed call would be noise in the user's API-error checks).
  int attr = api::CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  unsigned type = 0;
  void* data[] = {&type};
  if (drv().cuPointerGetAttributes(1, &attr, data, dptr(ptr)) != api::CUDA_SUCCESS) return false;
  return type == api::CU_MEMORYTYPE_HOST;
}

void copy_host_to_device(DeviceContext& c, const void* src, void* dst, size_t nbytes) {
  if (nbytes == 0) return;
  const Driver& d = drv();
  c.make_current();
  const api::CUstream s = c.stream();
  if (nbytes <= kDirect || is_pinned(src)) {
    // Pinned: asynchronous. Small pageable: the driver stages it and returns once `src` may
    // be reused, which is cheaper than our pipeline for a few pages.
    check(d.cuMemcpyHtoDAsync(dptr(dst), src, nbytes, s), "cuMemcpyHtoDAsync", c.index);
    return;
  }
  Staging& st = staging(c);
  std::lock_guard<std::mutex> lock(st.mutex);
  int k = 0;
  for (size_t off = 0; off < nbytes; off += kChunk, k = (k + 1) % kBuffers) {
    const size_t len = std::min(kChunk, nbytes - off);
    if (st.busy[k]) check_sync(d.cuEventSynchronize(st.done[k]), "cuEventSynchronize", c.index);
    host_copy(st.buffer[k], static_cast<const char*>(src) + off, len, false);
    check(d.cuMemcpyHtoDAsync(dptr(static_cast<char*>(dst) + off), st.buffer[k], len, s),
          "cuMemcpyHtoDAsync", c.index);
    check(d.cuEventRecord(st.done[k], s), "cuEventRecord", c.index);
    st.busy[k] = true;
  }
}

void prepare_transfers(DeviceContext& c) { bounce(c); }

void copy_device_to_host(DeviceContext& c, const void* src, void* dst, size_t nbytes) {
  if (nbytes == 0) return;
  const Driver& d = drv();
  c.make_current();
  const api::CUstream s = c.stream();
  if (nbytes <= kDirect) {
    Bounce& b = bounce(c);
    std::unique_lock<std::mutex> lock(b.mutex, std::try_to_lock);
    if (lock.owns_lock() && !b.in_flight.load(std::memory_order_acquire)) {
      check(d.cuMemcpyDtoHAsync(b.buffer, dptr(src), nbytes, s), "cuMemcpyDtoHAsync", c.index);
      b.in_flight.store(true, std::memory_order_relaxed);
      wait_stream(c, s, &b.in_flight);
      std::memcpy(dst, b.buffer, nbytes);
      return;
    }
  }
  // Every other download first waits (interruptibly) for the work before it: what is left to
  // wait for in the driver is the copy itself.
  wait_stream(c, s);
  if (nbytes <= kDirect || is_pinned(dst)) {
    check(d.cuMemcpyDtoHAsync(dst, dptr(src), nbytes, s), "cuMemcpyDtoHAsync", c.index);
    check_sync(d.cuStreamSynchronize(s), "cuStreamSynchronize", c.index);
    return;
  }
  Staging& st = staging(c);
  std::lock_guard<std::mutex> lock(st.mutex);
  for (int k = 0; k < kBuffers; ++k) {  // buffers may still feed an earlier upload
    if (st.busy[k]) check_sync(d.cuEventSynchronize(st.done[k]), "cuEventSynchronize", c.index);
    st.busy[k] = false;
  }
  const size_t chunks = (nbytes + kChunk - 1) / kChunk;
  auto enqueue = [&](size_t i) {
    const size_t off = i * kChunk, len = std::min(kChunk, nbytes - off);
    const int k = int(i % kBuffers);
    check(d.cuMemcpyDtoHAsync(st.buffer[k], dptr(static_cast<const char*>(src) + off), len, s),
          "cuMemcpyDtoHAsync", c.index);
    check(d.cuEventRecord(st.done[k], s), "cuEventRecord", c.index);
  };
  for (size_t i = 0; i < std::min<size_t>(chunks, kBuffers); ++i) enqueue(i);
  for (size_t i = 0; i < chunks; ++i) {
    const int k = int(i % kBuffers);
    check_sync(d.cuEventSynchronize(st.done[k]), "cuEventSynchronize", c.index);
    const size_t off = i * kChunk, len = std::min(kChunk, nbytes - off);
    host_copy(static_cast<char*>(dst) + off, st.buffer[k], len, true);
    if (i + kBuffers < chunks) enqueue(i + kBuffers);
  }
}

void copy_device_to_host_async(DeviceContext& c, const void* src, void* dst, size_t nbytes) {
  if (nbytes == 0) return;
  if (!is_pinned(dst)) {
    throw ValueError(
        "an asynchronous copy to the host needs a pinned destination "
        "(accelpy.cuda.pinned_empty)");
  }
  c.make_current();
  check(drv().cuMemcpyDtoHAsync(dst, dptr(src), nbytes, c.stream()), "cuMemcpyDtoHAsync", c.index);
}

void copy_device_to_device(DeviceContext& c, const void* src, void* dst, size_t nbytes) {
  if (nbytes == 0) return;
  c.make_current();
  check(drv().cuMemcpyDtoDAsync(dptr(dst), dptr(src), nbytes, c.stream()), "cuMemcpyDtoDAsync",
        c.index);
}

void copy_peer(DeviceContext& from, const void* src, DeviceContext& c, void* dst, size_t nbytes) {
  if (nbytes == 0) return;
  const Driver& d = drv();
  // The copy runs on the destination's stream, after the source device's queued work.
  from.make_current();
  api::CUevent ready = nullptr;
  check(d.cuEventCreate(&ready, api::CU_EVENT_DISABLE_TIMING), "cuEventCreate", from.index);
  const api::CUresult rec = d.cuEventRecord(ready, from.stream());
  c.make_current();
  const api::CUstream s = c.stream();
  api::CUresult r = rec == api::CUDA_SUCCESS ? d.cuStreamWaitEvent(s, ready, 0) : rec;
  if (r == api::CUDA_SUCCESS) {
    r = d.cuMemcpyPeerAsync(dptr(dst), c.ctx, dptr(src), from.ctx, nbytes, s);
  }
  // The caller may free the source as soon as this returns: wait for the copy.
  if (r == api::CUDA_SUCCESS) r = d.cuStreamSynchronize(s);
  d.cuEventDestroy(ready);
  check_sync(r, "cuMemcpyPeerAsync", c.index);
}

}  // namespace accel::cuda
