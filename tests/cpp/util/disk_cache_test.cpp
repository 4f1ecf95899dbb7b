// The kernel disk cache (DiskCache, which NVRTC's generated kernels and the CPU builds of users'
// kernels share) under stress: processes storing the same entries at once while others read,
// damaged entries (flipped bytes, truncated, another format, lengths that overflow), a directory
// that cannot be written or fills up, and two library versions in one directory. A bad entry is
// a miss, never a wrong image; a store that fails costs only the next compilation.
#include "src/util/disk_cache.hpp"

#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace accel::util {
namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/accelpy_disk_cache_test_XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() {
    chmod((path + "/kernels").c_str(), 0700);
    std::system(("rm -rf '" + path + "'").c_str());
  }
};

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
        out.push_back(e->d_name);
      }
    }
    closedir(d);
  }
  return out;
}

// An image of `n` bytes that differs per `seed` in every byte.
CompiledImage image(size_t n, unsigned seed) {
  CompiledImage img;
  img.data.resize(n);
  for (size_t i = 0; i < n; ++i) img.data[i] = char((i * 131 + seed * 7) & 0xff);
  img.cubin = seed % 2 == 0;
  return img;
}

const std::string kKey = "accelpy kernel cache v1\nnvrtc 12.4\noptions -arch=sm_90\nkernel k1";

// Runs `body` in a child process; returns its exit status (0: it returned normally).
template <class F>
int in_child(F body) {
  const pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(DiskCache, StoresAndLoadsByExactKey) {
  TempDir t;
  const DiskCache c(t.path);
  EXPECT_FALSE(c.load(kKey));
  const CompiledImage img = image(5000, 2);
  c.store(kKey, img);
  const auto hit = c.load(kKey);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->data, img.data);
  EXPECT_EQ(hit->cubin, img.cubin);
  EXPECT_FALSE(c.load(kKey + " "));
  EXPECT_EQ(files_in(t.path + "/kernels").size(), 1u);
}

TEST(DiskCache, ProcessesStoringTheSameEntriesAtOnceLeaveWholeFiles) {
  TempDir t;
  const DiskCache c(t.path);
  constexpr int kWriters = 4, kRounds = 40, kKeys = 3;
  std::vector<pid_t> writers;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = fork();
    if (pid == 0) {
      for (int r = 0; r < kRounds; ++r) {
        for (int k = 0; k < kKeys; ++k) c.store(kKey + std::to_string(k), image(20000 + k, k));
      }
      _exit(0);
    }
    writers.push_back(pid);
  }
  // Meanwhile a reader sees each entry missing or whole, never a partial or another's image.
  int wrong = 0, hits = 0;
  for (int i = 0; i < 300; ++i) {
    const int k = i % kKeys;
    if (const auto got = c.load(kKey + std::to_string(k))) {
      ++hits;
      wrong += got->data != image(20000 + k, k).data;
    }
  }
  for (const pid_t pid : writers) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(wrong, 0) << "of " << hits << " hits";
  const std::vector<std::string> files = files_in(t.path + "/kernels");
  EXPECT_EQ(files.size(), size_t(kKeys));                            // no temporary left behind
  for (const std::string& f : files) EXPECT_EQ(f.size(), 36u) << f;  // 32 hex digits + ".bin"
  for (int k = 0; k < kKeys; ++k) {
    const auto got = c.load(kKey + std::to_string(k));
    ASSERT_TRUE(got);
    EXPECT_EQ(got->data, image(20000 + k, k).data);
  }
}

// Damages the one entry of kKey with `damage`, checks that it is a miss, and that a store
// rewrites it whole (the next compilation's result).
template <class F>
void check_damage_is_a_miss(F damage) {
  TempDir t;
  const DiskCache c(t.path);
  const CompiledImage img = image(3000, 4);
  c.store(kKey, img);
  const std::string path = c.path_for(kKey);
  std::string bytes = read_bytes(path);
  ASSERT_GT(bytes.size(), 3000u);
  damage(bytes);
  write_bytes(path, bytes);
  EXPECT_FALSE(c.load(kKey));
  c.store(kKey, img);
  const auto again = c.load(kKey);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->data, img.data);
}

TEST(DiskCache, DamagedEntriesAreMissesAndAreRewritten) {
  // The header: magic[8], format u32, cubin u32, key length u64, image length u64, checksum u64.
  check_damage_is_a_miss([](std::string& b) { b[b.size() - 7] ^= 0x10; });  // the image
  check_damage_is_a_miss([](std::string& b) { b[50] ^= 0x01; });            // the key text
  check_damage_is_a_miss([](std::string& b) { b[36] ^= 0x80; });            // the checksum
  check_damage_is_a_miss([](std::string& b) { b[2] = 'X'; });               // the magic
  check_damage_is_a_miss([](std::string& b) { b.resize(b.size() / 2); });   // truncated
  check_damage_is_a_miss([](std::string& b) { b.resize(39); });             // header cut short
  check_damage_is_a_miss([](std::string& b) { b.clear(); });                // empty
  check_damage_is_a_miss([](std::string& b) { b += "trailing"; });          // grown
  check_damage_is_a_miss([](std::string& b) {                               // another format
    const uint32_t other = 2;
    std::memcpy(&b[8], &other, 4);
  });
  check_damage_is_a_miss([](std::string& b) {  // lengths whose sum overflows
    const uint64_t huge = ~uint64_t(0) - 16;
    std::memcpy(&b[24], &huge, 8);
  });
  check_damage_is_a_miss([](std::string& b) {  // a key length past the file
    const uint64_t huge = uint64_t(1) << 62;
    std::memcpy(&b[16], &huge, 8);
  });
}

TEST(DiskCache, AnotherEntryAtTheSameNameIsAMiss) {
  // Another key's entry (a hash collision, or a file copied in) is never taken for this one.
  TempDir t;
  const DiskCache c(t.path);
  c.store(kKey + "other", image(100, 1));
  std::rename(c.path_for(kKey + "other").c_str(), c.path_for(kKey).c_str());
  EXPECT_FALSE(c.load(kKey));
  EXPECT_FALSE(c.load(kKey + "other"));
}

TEST(DiskCache, TwoLibraryVersionsShareADirectoryWithoutLoadingEachOthers) {
  TempDir t;
  const DiskCache old_version(t.path, "accelpy 0.0.9"), current(t.path);
  EXPECT_NE(DiskCache::library_version(), "accelpy 0.0.9");
  EXPECT_EQ(DiskCache::library_version().rfind("accelpy ", 0), 0u);
  old_version.store(kKey, image(400, 1));
  EXPECT_FALSE(current.load(kKey));  // the same caller's key: still the other version's entry
  current.store(kKey, image(400, 2));
  EXPECT_NE(old_version.path_for(kKey), current.path_for(kKey));
  EXPECT_EQ(old_version.load(kKey)->data, image(400, 1).data);
  EXPECT_EQ(current.load(kKey)->data, image(400, 2).data);
  // The old version's file at the current one's name: a miss, not its image.
  std::rename(old_version.path_for(kKey).c_str(), current.path_for(kKey).c_str());
  EXPECT_FALSE(current.load(kKey));
}

TEST(DiskCache, ADirectoryThatCannotBeCreatedCostsOnlyRecompiles) {
  TempDir t;
  write_bytes(t.path + "/file", "not a directory");
  const DiskCache c(t.path + "/file/cache");  // ENOTDIR, even for root
  c.store(kKey, image(100, 1));
  EXPECT_FALSE(c.load(kKey));
  EXPECT_EQ(read_bytes(t.path + "/file"), "not a directory");
}

TEST(DiskCache, AReadOnlyDirectoryServesWhatItHas) {
  TempDir t;
  const DiskCache c(t.path);
  c.store(kKey, image(100, 1));
  ASSERT_EQ(chmod((t.path + "/kernels").c_str(), 0500), 0);
  c.store(kKey + "new", image(100, 2));  // fails, except for root, who may write anyway
  const auto hit = c.load(kKey);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->data, image(100, 1).data);
  if (geteuid() != 0) {
    EXPECT_FALSE(c.load(kKey + "new"));
  }
  for (const std::string& f : files_in(t.path + "/kernels")) {
    EXPECT_EQ(f.find(".tmp."), std::string::npos) << f;
  }
}

TEST(DiskCache, AFullDiskLeavesNoPartialEntry) {
  // Writes past RLIMIT_FSIZE fail (EFBIG), as on a full disk, in a child process.
  TempDir t;
  const DiskCache c(t.path);
  const int status = in_child([&] {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit lim{4096, RLIM_INFINITY};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(3);
    c.store(kKey, image(100000, 1));
    if (c.load(kKey)) _exit(4);
  });
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(files_in(t.path + "/kernels").empty());
  EXPECT_FALSE(c.load(kKey));
  c.store(kKey, image(100000, 1));  // with room again, the next store lands
  EXPECT_EQ(c.load(kKey)->data, image(100000, 1).data);
}

TEST(DiskCache, OffStoresNothing) {
  const DiskCache c("");
  EXPECT_FALSE(c.enabled());
  c.store(kKey, image(10, 1));
  EXPECT_FALSE(c.load(kKey));
}

}  // namespace
}  // namespace accel::util
