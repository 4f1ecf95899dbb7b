#include "src/cpu/thread_pool.hpp"

#include "accel/device.hpp"
#include "accel/fp_errors.hpp"
#include "accel/interrupt.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <pthread.h>

#if defined(__linux__)
#include <sched.h>
#endif

namespace accel::cpu {

namespace {

class Pool {
 public:
  explicit Pool(int n) : size_(n) {
    for (int i = 1; i < n; ++i) workers_.emplace_back([this, i] { work(i); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      ++generation_;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  int size() const { return size_; }

  // Runs task(i) for i in [0, count) with count <= size(); index 0 on the calling thread.
  void run(int count, const std::function<void(int)>& task) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      task_ = &task;
      count_ = count;
      pending_ = count - 1;
      ++generation_;
    }
    wake_.notify_all();
    task(0);
    std::unique_lock<std::mutex> lock(mu_);
    // The caller's chunk may end long before the workers' (more threads than free cores): it
    // keeps watching for Ctrl-C meanwhile, so that they stop at their next block.
    while (!done_.wait_for(lock, std::chrono::milliseconds(10), [this] { return pending_ == 0; })) {
      lock.unlock();
      poll_interrupt();
      lock.lock();
    }
    task_ = nullptr;
  }

 private:
  void work(int index) {
    set_worker_thread();
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (stop_) return;
        if (index >= count_) continue;
        task = task_;
      }
      (*task)(index);
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (--pending_ == 0) done_.notify_one();
      }
    }
  }

  int size_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* task_ = nullptr;
  int count_ = 0;
  int pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

// The lines of a small text file, without their newlines (none when it cannot be read).
std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  if (std::FILE* f = std::fopen(path.c_str(), "r")) {
    char buf[4096];
    while (std::fgets(buf, sizeof buf, f)) {
      lines.emplace_back(buf);
      if (lines.back().back() == '\n') lines.back().pop_back();
    }
    std::fclose(f);
  }
  return lines;
}

std::string read_line(const std::string& path) {
  const std::vector<std::string> lines = read_lines(path);
  return lines.empty() ? std::string() : lines.front();
}

// Reads a decimal integer at p, skipping leading blanks; advances p past it.
bool parse_int(const char*& p, const char* end, long long& value) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  const std::from_chars_result r = std::from_chars(p, end, value);
  if (r.ec != std::errc()) return false;
  p = r.ptr;
  return true;
}

// The tightest CPU quota on the way from this process's cgroup up to the root (cgroup v2 nests
// limits), or cgroup v1's at its usual mount; 0 when there is none.
int cgroup_cpus() {
  const std::string root = "/sys/fs/cgroup";
  int best = 0;
  const auto cap = [&](int n) {
    if (n > 0 && (best == 0 || n < best)) best = n;
  };
  for (const std::string& line : read_lines("/proc/self/cgroup")) {
    if (line.rfind("0::", 0) != 0) continue;
    std::string dir = root + line.substr(3);
    while (!dir.empty() && dir.back() == '/') dir.pop_back();
    for (;;) {
      cap(cpus_of_quota(read_line(dir + "/cpu.max")));
      if (dir.size() <= root.size()) break;
      dir.erase(dir.rfind('/'));
    }
  }
  cap(cpus_of_quota(read_line(root + "/cpu/cpu.cfs_quota_us") + " " +
                    read_line(root + "/cpu/cpu.cfs_period_us")));
  return best;
}

int initial_threads() {
  if (const char* v = std::getenv("ACCELPY_NUM_THREADS")) {
    const int n = std::atoi(v);
    if (n > 0) return n;
  }
  return available_cpus();
}

std::mutex g_pool_mu;
Pool* g_pool = nullptr;
int g_threads = 0;
thread_local bool g_in_pool_task = false;

// fork() copies only the calling thread: a child would wait forever on workers that do not
// exist in it. Around a fork the pool's lock is held (so the child's copy is consistent) and the
// child forgets the parent's pool (its memory is leaked: its threads, mutex and condition
// variables cannot be destroyed in the child); the child's first parallel loop starts its own.
void lock_before_fork() { g_pool_mu.lock(); }
void unlock_in_parent() { g_pool_mu.unlock(); }
void reset_in_child() {
  g_pool = nullptr;
  g_in_pool_task = false;
  g_pool_mu.unlock();
}

Pool& pool() {
  static const int atfork = pthread_atfork(lock_before_fork, unlock_in_parent, reset_in_child);
  (void)atfork;
  std::lock_guard<std::mutex> lock(g_pool_mu);
  if (!g_threads) g_threads = initial_threads();
  if (!g_pool || g_pool->size() != g_threads) {
    delete g_pool;
    g_pool = new Pool(g_threads);  // intentionally leaked at exit: workers may outlive statics
  }
  return *g_pool;
}

}  // namespace

// Parsed with from_chars, not an istream: formatted stream input crashed (endless recursion in
// the locale's facets) on a GPU host whose toolchain links libstdc++ statically into the module
// while the interpreter had loaded another copy; from_chars touches no locale.
int cpus_of_quota(const std::string& quota_period) {
  const char* p = quota_period.data();
  const char* end = p + quota_period.size();
  long long quota = 0, period = 0;
  if (!parse_int(p, end, quota) || !parse_int(p, end, period) || quota <= 0 || period <= 0)
    return 0;  // "max", -1, garbage
  return int(std::min<long long>((quota + period - 1) / period, 1 << 20));
}

int available_cpus() {
  int n = int(std::max(1u, std::thread::hardware_concurrency()));
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) n = std::max(1, CPU_COUNT(&set));
#endif
  const int quota = cgroup_cpus();
  return quota > 0 ? std::min(n, quota) : n;
}

int num_threads() {
  std::lock_guard<std::mutex> lock(g_pool_mu);
  if (!g_threads) g_threads = initial_threads();
  return g_threads;
}

void set_num_threads(int n) {
  std::lock_guard<std::mutex> lock(g_pool_mu);
  g_threads = std::max(1, n);
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t, int)>& fn) {
  if (n <= 0) return;
  interruption_point();  // between the passes of multi-pass work (sorts, factorizations)
  grain = std::max<int64_t>(grain, 1);
  const int64_t max_chunks = (n + grain - 1) / grain;
  const int threads = g_in_pool_task ? 1 : num_threads();
  const int chunks = static_cast<int>(std::min<int64_t>(threads, max_chunks));
  if (chunks <= 1) {
    fn(0, n, 0);
    return;
  }
  // Chunk boundaries on multiples of the grain, spread evenly.
  const int64_t units = max_chunks;
  std::exception_ptr error;
  std::mutex error_mu;
  FpErrors fp_errors;  // the workers' (under error_mu)
  const std::function<void(int)> task = [&](int i) {
    const int64_t lo = std::min(n, units * i / chunks * grain);
    const int64_t hi = std::min(n, units * (i + 1) / chunks * grain);
    g_in_pool_task = true;
    try {
      if (lo < hi) fn(lo, hi, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mu);
      if (!error) error = std::current_exception();
    }
    g_in_pool_task = false;
    // IEEE flags belong to the thread that raised them: a worker's go to the calling thread,
    // whose evaluation reports them (chunk 0 runs there already).
    if (i != 0) {
      const FpErrors raised = take_fp_errors();
      if (raised.flags) {
        std::lock_guard<std::mutex> lock(error_mu);
        fp_errors.merge(raised);
      }
    }
  };
  pool().run(chunks, task);
  if (fp_errors.flags) note_fp_errors(fp_errors);
  if (error) std::rethrow_exception(error);
  interruption_point();  // a request noted while waiting, after the workers had finished
}

}  // namespace accel::cpu

namespace accel {
int cpu_num_threads() { return cpu::num_threads(); }
void set_cpu_num_threads(int n) { cpu::set_num_threads(n); }
}  // namespace accel
