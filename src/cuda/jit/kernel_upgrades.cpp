#include "src/cuda/jit/kernel_upgrades.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include "accel/cuda.hpp"
#include "src/cuda/driver/loader.hpp"
#include "src/util/disk_cache.hpp"

extern char** environ;

namespace accel::cuda {

namespace {

constexpr size_t kMaxPending = 8;
constexpr char kWorkerName[] = "accel_compile_worker";

// Messages are length-prefixed: u32 length, then fields (integers in host order: both ends are
// the same build on the same machine; strings as u32 length + bytes).
struct Writer {
  std::string buf = std::string(4, '\0');
  template <class T>
  void put(T v) {
    buf.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void put(const std::string& s) {
    put(static_cast<uint32_t>(s.size()));
    buf += s;
  }
  const std::string& finish() {
    const uint32_t n = static_cast<uint32_t>(buf.size() - 4);
    std::memcpy(buf.data(), &n, 4);
    return buf;
  }
};

struct Reader {
  const std::string& buf;
  size_t pos = 0;
  template <class T>
  T get() {
    T v{};
    if (pos + sizeof v > buf.size()) throw std::runtime_error("truncated message");
    std::memcpy(&v, buf.data() + pos, sizeof v);
    pos += sizeof v;
    return v;
  }
  std::string str() {
    const uint32_t n = get<uint32_t>();
    if (pos + n > buf.size()) throw std::runtime_error("truncated message");
    std::string s = buf.substr(pos, n);
    pos += n;
    return s;
  }
};

bool send_all(int fd, const std::string& data) {
  for (size_t off = 0; off < data.size();) {
    // MSG_NOSIGNAL: a peer that is gone is an error here, not a SIGPIPE for the process.
    const ssize_t n = send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

bool recv_all(int fd, char* dst, size_t size) {
  for (size_t off = 0; off < size;) {
    const ssize_t n = recv(fd, dst + off, size - off, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// One message, or false at end of file or on an error.
bool recv_message(int fd, std::string& msg) {
  uint32_t n = 0;
  if (!recv_all(fd, reinterpret_cast<char*>(&n), 4)) return false;
  msg.resize(n);
  return recv_all(fd, msg.data(), n);
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// ACCELPY_COMPILE_WORKER, else next to the binary this code is linked into (the extension
// module, in an installed package).
std::string worker_path() {
  if (const char* env = std::getenv("ACCELPY_COMPILE_WORKER"); env && *env) return env;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&worker_path), &info) && info.dli_fname) {
    return directory_of(info.dli_fname) + "/" + kWorkerName;
  }
  return kWorkerName;
}

// The parent's side.
struct Upgrades {
  std::mutex mutex;
  std::condition_variable idle;  // a reply came, or the worker ended
  pid_t owner = 0;               // the process that started the worker; 0 until tried
  pid_t worker = -1;
  int fd = -1;  // our end of the socket; -1 when the worker is not running
  bool exiting = false;
  uint64_t next_id = 1;
  std::unordered_map<uint64_t, std::function<void(const CompiledImage&)>> pending;
  uint64_t done = 0, failed = 0;
};

Upgrades& upgrades() {
  static Upgrades* u = new Upgrades;  // never destroyed: the reply thread outlives static dtors
  return *u;
}

// Reads the worker's replies until it ends.
void read_replies(Upgrades& u, int fd) {
  std::string msg;
  while (recv_message(fd, msg)) {
    uint64_t id = 0;
    bool ok = false;
    CompiledImage img;
    try {
      Reader r{msg};
      id = r.get<uint64_t>();
      ok = r.get<uint8_t>() != 0;
      img.cubin = r.get<uint8_t>() != 0;
      img.data = r.str();
    } catch (...) {
      break;
    }
    // Under the lock, so that finish_upgrades() waits for a swap in progress.
    std::lock_guard<std::mutex> lock(u.mutex);
    auto it = u.pending.find(id);
    if (it == u.pending.end()) continue;
    auto done = std::move(it->second);
    u.pending.erase(it);
    if (ok && !u.exiting) {
      try {
        done(img);
      } catch (...) {
        ok = false;
      }
    }
    ++(ok ? u.done : u.failed);
    u.idle.notify_all();
  }
  std::lock_guard<std::mutex> lock(u.mutex);
  u.failed += u.pending.size();
  u.pending.clear();
  if (u.fd == fd) {
    close(fd);
    u.fd = -1;
    waitpid(u.worker, nullptr, 0);
    u.worker = -1;
  }
  u.idle.notify_all();
}

// Starts the worker; u.mutex held. On failure the process compiles without it.
void start_worker(Upgrades& u) {
  u.owner = getpid();
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return;
  const std::string path = worker_path();
  // The worker compiles with the NVRTC this process loaded, into its disk cache.
  const std::string nvrtc_path = nvrtc_status().path;
  const std::string cache_dir = util::disk_cache().enabled() ? util::disk_cache().dir() : "off";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  // Not our stdout or stderr: a pipe reading them would stay open as long as the worker runs.
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  const char* argv[] = {path.c_str(), nvrtc_path.c_str(), cache_dir.c_str(), nullptr};
  pid_t pid = -1;
  const int rc =
      posix_spawn(&pid, path.c_str(), &fa, nullptr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    return;
  }
  u.worker = pid;
  u.fd = sv[0];
  std::thread(read_replies, std::ref(u), sv[0]).detach();
  std::atexit(finish_upgrades);
}

bool quick_compile_requested() {
  static const bool on = [] {
    const char* v = std::getenv("ACCELPY_QUICK_COMPILE");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return on;
}

}  // namespace

bool upgrades_enabled() {
  if (!quick_compile_requested()) return false;
  Upgrades& u = upgrades();
  std::lock_guard<std::mutex> lock(u.mutex);
  if (u.owner == 0) start_worker(u);
  return u.owner == getpid() && u.fd >= 0 && !u.exiting && u.pending.size() < kMaxPending;
}

void queue_upgrade(UpgradeJob job) {
  Upgrades& u = upgrades();
  std::lock_guard<std::mutex> lock(u.mutex);
  if (u.fd < 0 || u.exiting || u.owner != getpid()) {
    ++u.failed;
    return;
  }
  const uint64_t id = u.next_id++;
  Writer w;
  w.put(id);
  w.put(static_cast<int32_t>(job.cc));
  w.put(job.name);
  w.put(job.code);
  w.put(job.key_text);
  // The worker reads every message as it comes (run_compile_worker), so this does not wait for
  // compilations.
  if (!send_all(u.fd, w.finish())) {
    ++u.failed;
    return;
  }
  u.pending.emplace(id, std::move(job.done));
}

void finish_upgrades() {
  Upgrades& u = upgrades();
  std::lock_guard<std::mutex> lock(u.mutex);  // a swap in progress ends first
  if (u.owner != getpid() || u.exiting) return;
  u.exiting = true;
  // The worker compiles what it was sent, stores it on disk and ends: the next process finds
  // those builds in the disk cache.
  if (u.fd >= 0) shutdown(u.fd, SHUT_WR);
  u.idle.notify_all();
}

bool wait_for_upgrades(double seconds) {
  Upgrades& u = upgrades();
  std::unique_lock<std::mutex> lock(u.mutex);
  return u.idle.wait_for(lock, std::chrono::duration<double>(seconds),
                         [&] { return u.pending.empty(); });
}

UpgradeCounts upgrade_counts() {
  Upgrades& u = upgrades();
  std::lock_guard<std::mutex> lock(u.mutex);
  return {u.pending.size(), u.done, u.failed};
}

int run_compile_worker(int fd) {
  // The lowest priority: an optimized build waits for idle cores rather than slow down the
  // processes that launch kernels. A parent that is gone makes replies fail, not kill us.
  setpriority(PRIO_PROCESS, 0, 19);
  signal(SIGPIPE, SIG_IGN);
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::string> jobs;
  bool eof = false;
  // Every message is read as it comes, so a parent's send never waits for a compilation.
  std::thread reader([&] {
    std::string msg;
    while (recv_message(fd, msg)) {
      std::lock_guard<std::mutex> lock(mutex);
      jobs.push_back(std::move(msg));
      ready.notify_one();
    }
    std::lock_guard<std::mutex> lock(mutex);
    eof = true;
    ready.notify_one();
  });
  for (;;) {
    std::string msg;
    {
      std::unique_lock<std::mutex> lock(mutex);
      ready.wait(lock, [&] { return eof || !jobs.empty(); });
      if (jobs.empty()) break;
      msg = std::move(jobs.front());
      jobs.pop_front();
    }
    Writer reply;
    try {
      Reader r{msg};
      const uint64_t id = r.get<uint64_t>();
      const int cc = r.get<int32_t>();
      const std::string name = r.str(), code = r.str(), key_text = r.str();
      reply.put(id);
      try {
        // Another worker may have stored it since the parent looked.
        std::optional<CompiledImage> img = util::disk_cache().load(key_text);
        if (!img) {
          img = compile_program(code, cc, name);
          util::disk_cache().store(key_text, *img);
        }
        reply.put(uint8_t{1});
        reply.put(static_cast<uint8_t>(img->cubin));
        reply.put(img->data);
      } catch (const std::exception& e) {
        reply.put(uint8_t{0});
        reply.put(uint8_t{0});
        reply.put(std::string(e.what()));
      }
    } catch (...) {
      continue;  // a malformed message: nothing to reply to
    }
    send_all(fd, reply.finish());  // the parent may be gone: the disk cache has the build
  }
  reader.join();
  return 0;
}

}  // namespace accel::cuda
