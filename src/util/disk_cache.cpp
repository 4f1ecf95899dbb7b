#include "src/util/disk_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

#include "src/util/hash.hpp"

namespace accel::util {

namespace {

constexpr char kMagic[8] = {'A', 'C', 'C', 'E', 'L', 'P', 'Y', 'K'};
constexpr uint32_t kFormat = 1;

}  // namespace

std::string DiskCache::library_version() { return "accelpy " ACCEL_VERSION; }

std::string DiskCache::full_key(const std::string& key_text) const {
  return version_ + "\n" + key_text;
}

void make_private_dirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      const std::string part = path.substr(0, i);
      if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return;
    }
  }
}

const DiskCache& disk_cache() {
  static DiskCache* dc = new DiskCache(default_cache_dir());
  return *dc;
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("ACCELPY_CACHE_DIR"); d) {
    const std::string v = d;
    if (v == "0" || v == "off" || v.empty()) return {};
    return v;
  }
  const char* home = std::getenv("HOME");
  if (!home || !*home) return {};
  return std::string(home) + "/.cache/accelpy";
}

std::string DiskCache::path_for(const std::string& key_text) const {
  const std::string key = full_key(key_text);
  const uint64_t a = fnv1a(key.data(), key.size());
  const uint64_t b = fnv1a(key.data(), key.size(), a ^ 0x9e3779b97f4a7c15ULL);
  return dir_ + "/kernels/" + hex64(a) + hex64(b) + ".bin";
}

std::optional<CompiledImage> DiskCache::load(const std::string& caller_key) const {
  if (!enabled()) return std::nullopt;
  const std::string key_text = full_key(caller_key);
  std::ifstream f(path_for(caller_key), std::ios::binary);
  if (!f) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  struct Header {
    char magic[8];
    uint32_t format, cubin;
    uint64_t key_len, image_len, checksum;
  } h;
  if (bytes.size() < sizeof(h)) return std::nullopt;
  std::memcpy(&h, bytes.data(), sizeof(h));
  // Lengths are compared one at a time: damaged ones may overflow when added.
  const uint64_t body = bytes.size() - sizeof(h);
  if (std::memcmp(h.magic, kMagic, 8) != 0 || h.format != kFormat || h.key_len != key_text.size() ||
      h.key_len > body || h.image_len != body - h.key_len) {
    return std::nullopt;
  }
  const char* key = bytes.data() + sizeof(h);
  const char* image = key + h.key_len;
  if (std::memcmp(key, key_text.data(), key_text.size()) != 0) return std::nullopt;
  if (fnv1a(image, h.image_len, fnv1a(key, h.key_len)) != h.checksum) return std::nullopt;
  return CompiledImage{std::string(image, h.image_len), h.cubin != 0};
}

void DiskCache::store(const std::string& caller_key, const CompiledImage& img) const {
  if (!enabled()) return;
  const std::string key_text = full_key(caller_key);
  // Failures only cost a recompilation later; never fail the computation for them.
  make_private_dirs(dir_);
  make_private_dirs(dir_ + "/kernels");
  const std::string path = path_for(caller_key);
  std::random_device rd;
  const std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + hex64(rd());
  struct {
    char magic[8];
    uint32_t format, cubin;
    uint64_t key_len, image_len, checksum;
  } h;
  std::memcpy(h.magic, kMagic, 8);
  h.format = kFormat;
  h.cubin = img.cubin ? 1 : 0;
  h.key_len = key_text.size();
  h.image_len = img.data.size();
  h.checksum = fnv1a(img.data.data(), img.data.size(), fnv1a(key_text.data(), key_text.size()));
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return;
  bool ok = true;
  auto put = [&](const void* p, size_t n) {
    const char* c = static_cast<const char*>(p);
    while (ok && n > 0) {
      const ssize_t w = write(fd, c, n);
      if (w <= 0) {
        ok = false;
        break;
      }
      c += w;
      n -= size_t(w);
    }
  };
  put(&h, sizeof(h));
  put(key_text.data(), key_text.size());
  put(img.data.data(), img.data.size());
  ok = close(fd) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) std::remove(tmp.c_str());
}

}  // namespace accel::util
