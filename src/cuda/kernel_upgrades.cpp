#include "src/cuda/kernel_upgrades.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "accel/cuda.hpp"

namespace accel::cuda {

namespace {

struct Worker {
  std::mutex mutex;
  std::condition_variable work;  // a job was queued, or stop was set
  std::condition_variable idle;  // the queue ran dry, or the running job ended
  std::deque<std::function<void()>> queue;
  bool running = false;  // a job is running (outside the lock)
  bool stop = false;
  pid_t owner = 0;  // the process whose thread it is; 0 until started
  uint64_t done = 0, failed = 0;
};

Worker& worker() {
  static Worker* w = new Worker;  // never destroyed: the thread may outlive static destructors
  return *w;
}

void run_jobs(Worker& w) {
  // The lowest priority (Linux: per thread): an optimized build waits for idle cores rather than
  // slow down the threads that launch kernels, such as a test run's busy workers.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
  std::unique_lock<std::mutex> lock(w.mutex);
  for (;;) {
    w.work.wait(lock, [&] { return w.stop || !w.queue.empty(); });
    if (w.stop) return;
    std::function<void()> job = std::move(w.queue.front());
    w.queue.pop_front();
    w.running = true;
    lock.unlock();
    bool ok = true;
    try {
      job();
    } catch (...) {
      ok = false;
    }
    lock.lock();
    w.running = false;
    ++(ok ? w.done : w.failed);
    w.idle.notify_all();
  }
}

bool drained(const Worker& w) { return w.queue.empty() && !w.running; }

}  // namespace

void finish_upgrades() {
  Worker& w = worker();
  if (w.owner != getpid()) return;  // a forked child: the thread (and maybe the lock) is not ours
  std::unique_lock<std::mutex> lock(w.mutex);
  w.idle.wait_for(lock, std::chrono::seconds(1), [&] { return drained(w); });
  w.queue.clear();
  w.stop = true;
  w.work.notify_all();
  w.idle.wait(lock, [&] { return !w.running; });
}

bool upgrades_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("ACCELPY_QUICK_COMPILE");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  const pid_t owner = worker().owner;
  return on && (owner == 0 || owner == getpid());
}

void queue_upgrade(std::function<void()> job) {
  Worker& w = worker();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (w.owner == 0) {
    w.owner = getpid();
    std::thread(run_jobs, std::ref(w)).detach();
    std::atexit(finish_upgrades);
  }
  w.queue.push_back(std::move(job));
  w.work.notify_one();
}

bool wait_for_upgrades(double seconds) {
  Worker& w = worker();
  std::unique_lock<std::mutex> lock(w.mutex);
  return w.idle.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return drained(w); });
}

UpgradeCounts upgrade_counts() {
  Worker& w = worker();
  std::lock_guard<std::mutex> lock(w.mutex);
  return {w.queue.size() + (w.running ? 1u : 0u), w.done, w.failed};
}

}  // namespace accel::cuda
