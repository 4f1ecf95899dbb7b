// The disk cache of compiled kernels, shared by the devices (NVRTC's cubins and PTX, the C++
// compiler's shared objects for users' kernels on the CPU): one file per program, named by a
// hash of its key text (the library's version, then the caller's: the compiler's identity, options,
// headers and source), holding the key text itself (compared exactly on load), the image and a
// checksum. Files are written to a temporary
// name and renamed, so readers never see a partial file; anything that fails verification is
// treated as a miss and rewritten. Directories it creates are private to the user: cached code is
// run.
#pragma once

#include <optional>
#include <string>

namespace accel::util {

struct CompiledImage {
  std::string data;  // a cubin, PTX (for a device newer than NVRTC knows) or a shared object
  bool cubin = true;
};

class DiskCache {
 public:
  // `version` begins every key: a directory shared by two versions of the library holds the
  // entries of both, and neither loads the other's (code generation and the run-time interfaces
  // compiled code calls may differ where a caller's key text is the same).
  explicit DiskCache(std::string dir, std::string version = library_version())
      : dir_(std::move(dir)), version_(std::move(version)) {}
  bool enabled() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }
  std::string path_for(const std::string& key_text) const;
  std::optional<CompiledImage> load(const std::string& key_text) const;
  void store(const std::string& key_text, const CompiledImage& image) const;
  // "accelpy <version>" of this build (CMake's project version).
  static std::string library_version();

 private:
  std::string full_key(const std::string& key_text) const;
  std::string dir_;
  std::string version_;
};

// The process's disk cache, in default_cache_dir().
const DiskCache& disk_cache();
// ACCELPY_CACHE_DIR, else ~/.cache/accelpy; "" (off) when ACCELPY_CACHE_DIR is "0" or "off".
std::string default_cache_dir();
// mkdir -p, creating directories private to the user (0700); failures are left to the first
// file operation in them to notice.
void make_private_dirs(const std::string& path);

}  // namespace accel::util
