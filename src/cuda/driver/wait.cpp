// Interruptible waits. A host wait used to be one synchronizing driver call, which returns only
// when the GPU is done: Ctrl-C was seen seconds later, or never for a kernel that runs on. Here
// a wait has two phases:
// - Fast: cuStreamWriteValue32 queues a write of a fresh ticket into a completion word in
//   mapped pinned memory, behind the work; the host spins on the word for up to kSpin. One
//   driver call, as the synchronizing call was, and no failed one (cuStreamQuery answers
//   CUDA_ERROR_NOT_READY while work runs, which compute-sanitizer and users' API-error checks
//   report); a wait as short as a one-element read spins, as the driver's own wait does.
// - Slow (the work outlasts the spin): a blocking-sync event is recorded behind the work and a
//   helper thread waits on it in cuEventSynchronize, which sleeps in the driver and returns a
//   fault of the work as a synchronizing call does (a faulted context never writes the word).
//   The caller sleeps on a condition variable, woken at completion, and every kSlice looks for
//   a signal; on one it throws and the helper finishes the wait in the background.
#include "src/cuda/driver/wait.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "accel/interrupt.hpp"

namespace accel::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// Spinning a core this long costs little and keeps a short wait's latency that of the driver's
// own spinning wait; longer waits sleep (a woken thread is late by tens of microseconds).
constexpr auto kSpin = std::chrono::microseconds(1000);
// How often a sleeping wait looks for a signal: Ctrl-C is seen within this (and the GIL's
// hand-over, when the waiter released it).
constexpr auto kSlice = std::chrono::milliseconds(5);
// Completion words per device. Tickets are unique (32 bits, wrapping after 2^32 waits), so a
// late write of an interrupted wait into a reused word only sends a later wait to the slow
// phase; it never reads as another ticket's completion.
constexpr uint32_t kWords = 1024;
// Helper threads waiting at once; more slow waits queue behind them.
constexpr int kMaxHelpers = 16;

std::atomic<unsigned long long> g_fast{0}, g_slow{0}, g_interrupted{0};

struct Words {
  std::atomic<bool> ok{false};  // mapped memory and stream writes work on this device
  uint32_t* host = nullptr;
  api::CUdeviceptr dev = 0;
  std::atomic<uint32_t> next{1};
};

struct DeviceWaits {
  std::once_flag once;
  Words words;
  std::mutex mutex;                  // the members below
  std::vector<api::CUevent> events;  // blocking-sync events not in use
  api::CUstream event_stream = nullptr;
};

DeviceWaits& waits_of(const DeviceContext& c) {
  static DeviceWaits* all = new DeviceWaits[kMaxDevices];  // never destroyed: helpers outlive exit
  DeviceWaits& w = all[c.index];
  std::call_once(w.once, [&] {
    const Driver& d = drv();
    c.make_current();
    void* p = nullptr;
    const unsigned flags = api::CU_MEMHOSTALLOC_PORTABLE | api::CU_MEMHOSTALLOC_DEVICEMAP;
    if (d.cuMemHostAlloc(&p, kWords * sizeof(uint32_t), flags) != api::CUDA_SUCCESS) return;
    api::CUdeviceptr dev = 0;
    if (d.cuMemHostGetDevicePointer(&dev, p, 0) != api::CUDA_SUCCESS) {
      d.cuMemFreeHost(p);
      return;
    }
    w.words.host = static_cast<uint32_t*>(p);
    for (uint32_t i = 0; i < kWords; ++i) w.words.host[i] = 0;
    w.words.dev = dev;
    w.words.ok.store(true);
  });
  return w;
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The fast phase: true when the work completed within kSpin.
bool spin_wait(DeviceContext& c, DeviceWaits& w, api::CUstream s) {
  Words& words = w.words;
  if (!words.ok.load(std::memory_order_relaxed)) return false;
  uint32_t ticket = words.next.fetch_add(1, std::memory_order_relaxed);
  if (ticket == 0) ticket = words.next.fetch_add(1, std::memory_order_relaxed);  // 0: unwritten
  const uint32_t slot = ticket % kWords;
  const api::CUresult r =
      drv().cuStreamWriteValue32(s, words.dev + slot * sizeof(uint32_t), ticket, 0);
  if (r == api::CUDA_ERROR_NOT_SUPPORTED) {
    words.ok.store(false);  // a device without stream memory operations: slow waits only
    return false;
  }
  check(r, "cuStreamWriteValue32", c.index);
  std::atomic_ref<uint32_t> word(words.host[slot]);
  const Clock::time_point start = Clock::now();
  for (int i = 0;; ++i) {
    if (word.load(std::memory_order_acquire) == ticket) return true;
    if ((i & 63) == 63 && Clock::now() - start > kSpin) return false;
    cpu_relax();
  }
}

// One slow wait, shared by the caller and a helper (the caller may leave first).
struct Request {
  api::CUcontext ctx = nullptr;
  api::CUevent event = nullptr;
  DeviceWaits* waits = nullptr;
  std::atomic<bool>* in_flight = nullptr;
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  api::CUresult result = api::CUDA_SUCCESS;
};

struct Helpers {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::shared_ptr<Request>> queue;
  int idle = 0, threads = 0;
};

Helpers& helpers() {
  static Helpers* h = new Helpers;  // never destroyed: its threads may be waiting at exit
  return *h;
}

void finish(Request& q) {
  const Driver* d = driver();  // loaded: the caller used it
  api::CUresult r = d->cuCtxSetCurrent(q.ctx);
  if (r == api::CUDA_SUCCESS) r = d->cuEventSynchronize(q.event);
  {
    std::lock_guard<std::mutex> lock(q.waits->mutex);
    q.waits->events.push_back(q.event);  // completed (or its context is lost): reusable
  }
  if (q.in_flight) q.in_flight->store(false, std::memory_order_release);
  std::lock_guard<std::mutex> lock(q.mutex);
  q.result = r;
  q.done = true;
  q.done_cv.notify_all();
}

void helper_loop() {
  Helpers& h = helpers();
  std::unique_lock<std::mutex> lock(h.mutex);
  for (;;) {
    ++h.idle;
    h.cv.wait(lock, [&] { return !h.queue.empty(); });
    --h.idle;
    std::shared_ptr<Request> q = std::move(h.queue.front());
    h.queue.pop_front();
    lock.unlock();
    finish(*q);
    lock.lock();
  }
}

void submit(std::shared_ptr<Request> q) {
  Helpers& h = helpers();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.queue.push_back(std::move(q));
  if (h.idle == 0 && h.threads < kMaxHelpers) {
    ++h.threads;
    std::thread(helper_loop).detach();
  } else {
    h.cv.notify_one();
  }
}

api::CUevent take_event(DeviceContext& c, DeviceWaits& w) {
  {
    std::lock_guard<std::mutex> lock(w.mutex);
    if (!w.events.empty()) {
      api::CUevent e = w.events.back();
      w.events.pop_back();
      return e;
    }
  }
  api::CUevent e = nullptr;
  check(drv().cuEventCreate(&e, api::CU_EVENT_BLOCKING_SYNC | api::CU_EVENT_DISABLE_TIMING),
        "cuEventCreate", c.index);
  return e;
}

void slow_wait(DeviceContext& c, DeviceWaits& w, api::CUstream s, std::atomic<bool>* in_flight) {
  auto q = std::make_shared<Request>();
  q->ctx = c.ctx;
  q->waits = &w;
  q->in_flight = in_flight;
  q->event = take_event(c, w);
  if (const api::CUresult r = drv().cuEventRecord(q->event, s); r != api::CUDA_SUCCESS) {
    std::lock_guard<std::mutex> lock(w.mutex);
    w.events.push_back(q->event);
    check(r, "cuEventRecord", c.index);
  }
  g_slow.fetch_add(1, std::memory_order_relaxed);
  submit(q);
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(q->mutex);
      if (q->done_cv.wait_for(lock, kSlice, [&] { return q->done; })) break;
    }
    try {
      wait_interruption_point();
    } catch (const Interrupted&) {
      g_interrupted.fetch_add(1, std::memory_order_relaxed);
      throw;  // the helper keeps the request (and the in_flight flag's duty) until completion
    }
  }
  check_sync(q->result, "cuEventSynchronize", c.index);
}

}  // namespace

void wait_stream(DeviceContext& c, api::CUstream s, std::atomic<bool>* in_flight) {
  c.make_current();
  DeviceWaits& w = waits_of(c);
  if (spin_wait(c, w, s)) {
    g_fast.fetch_add(1, std::memory_order_relaxed);
    if (in_flight) in_flight->store(false, std::memory_order_release);
    return;
  }
  slow_wait(c, w, s, in_flight);
}

void prepare_waits(DeviceContext& c) { waits_of(c); }

void wait_event(DeviceContext& c, api::CUevent event) {
  c.make_current();
  DeviceWaits& w = waits_of(c);
  api::CUstream s = nullptr;
  {
    std::lock_guard<std::mutex> lock(w.mutex);
    if (!w.event_stream) {
      check(drv().cuStreamCreate(&w.event_stream, api::CU_STREAM_NON_BLOCKING), "cuStreamCreate",
            c.index);
    }
    s = w.event_stream;
  }
  // A stream of our own that waits for the event: the stream wait above then applies to it.
  check(drv().cuStreamWaitEvent(s, event, 0), "cuStreamWaitEvent", c.index);
  wait_stream(c, s);
}

WaitStats wait_stats() {
  return {g_fast.load(std::memory_order_relaxed), g_slow.load(std::memory_order_relaxed),
          g_interrupted.load(std::memory_order_relaxed)};
}

}  // namespace accel::cuda
