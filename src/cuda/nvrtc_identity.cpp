// Which NVRTC a compilation would use (its version and architectures: what the disk caches key
// programs by), known without opening it when a record in the cache directory says so. NVRTC
// is a 110 MB library: dlopen takes ~10 ms with its pages cached and ~200 ms without, all of it
// wasted in a process whose kernels all come from the disk cache.
//
// The record is keyed by everything that decides which file nvrtc() would open and whether it
// would accept it: the driver's version (a newer NVRTC is passed over), the candidate files in
// search order with each one's identity (device, inode, size, modification time), and for the
// bare sonames left to the dynamic loader, LD_LIBRARY_PATH's and the default directories' files
// and /etc/ld.so.cache. It also names the file that was opened, whose identity is checked again
// when the record is read. Installing, replacing or removing an NVRTC anywhere the search looks
// changes the key, so a different NVRTC never reuses entries made by another version.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "accel/errors.hpp"
#include "src/cuda/compiler.hpp"
#include "src/cuda/loader.hpp"

namespace accel::cuda {

namespace {

// "path dev inode size mtime\n", or "path -\n" when there is no such file.
std::string file_identity(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return path + " -\n";
  char buf[128];
  std::snprintf(buf, sizeof buf, " %llu %llu %lld %lld.%09ld\n",
                static_cast<unsigned long long>(st.st_dev),
                static_cast<unsigned long long>(st.st_ino), static_cast<long long>(st.st_size),
                static_cast<long long>(st.st_mtim.tv_sec), static_cast<long>(st.st_mtim.tv_nsec));
  return path + buf;
}

// The files the dynamic loader may open for a bare soname: LD_LIBRARY_PATH's directories, the
// loader's cache, the default directories.
std::string soname_identity(const std::string& soname) {
  std::string out = "soname " + soname + "\n";
  if (const char* llp = std::getenv("LD_LIBRARY_PATH")) {
    std::string dirs = llp;
    size_t start = 0;
    while (start <= dirs.size()) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      const std::string dir = dirs.substr(start, end - start);
      out += file_identity((dir.empty() ? std::string(".") : dir) + "/" + soname);
      start = end + 1;
    }
  }
  out += file_identity("/etc/ld.so.cache");
  for (const char* dir :
       {"/lib64", "/usr/lib64", "/lib", "/usr/lib", "/lib/x86_64-linux-gnu",
        "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"}) {
    out += file_identity(std::string(dir) + "/" + soname);
  }
  return out;
}

std::string search_fingerprint() {
  std::string f = "accelpy nvrtc identity v2\ndriver " + driver_status().version + "\n";
  for (const std::string& c : library_candidates(Library::Nvrtc)) {
    f += c.find('/') != std::string::npos ? file_identity(c) : soname_identity(c);
  }
  return f;
}

// The record's text: "major minor", "archs a b ...", the opened file's path, then its
// identity, one a line (the path alone on its line: it may hold spaces).
std::string record_text(const NvrtcIdentity& id, const std::string& path) {
  std::string t = std::to_string(id.major) + " " + std::to_string(id.minor) + "\narchs";
  for (int a : id.archs) t += " " + std::to_string(a);
  return t + "\n" + path + "\n" + file_identity(path);
}

bool parse_record(const std::string& text, NvrtcIdentity& id) {
  std::istringstream in(text);
  std::string archs_line, path, identity;
  if (!(in >> id.major >> id.minor)) return false;
  in.ignore(1);
  if (!std::getline(in, archs_line) || !std::getline(in, path) || !std::getline(in, identity))
    return false;
  std::istringstream archs(archs_line);
  std::string word;
  if (!(archs >> word) || word != "archs") return false;
  for (int a; archs >> a;) id.archs.push_back(a);
  // The file opened then is still the same file.
  return !path.empty() && file_identity(path) == identity + "\n";
}

NvrtcIdentity from_library() {
  NvrtcIdentity id;
  if (const Nvrtc* nv = nvrtc()) {
    id.found = true;
    id.major = nv->major;
    id.minor = nv->minor;
    id.archs = nv->archs;
  }
  return id;
}

struct IdentityState {
  NvrtcIdentity id;
  std::string fingerprint;  // the record's key; empty when no record is kept
};

IdentityState find_identity() {
  IdentityState s;
  const DiskCache cache(default_cache_dir());
  if (!cache.enabled()) {
    s.id = from_library();
    return s;
  }
  s.fingerprint = search_fingerprint();
  if (std::optional<CompiledImage> rec = cache.load(s.fingerprint)) {
    NvrtcIdentity id;
    if (parse_record(rec->data, id)) {
      id.found = true;
      id.from_record = true;
      s.id = id;
      return s;
    }
  }
  s.id = from_library();
  if (s.id.found) cache.store(s.fingerprint, CompiledImage{record_text(s.id, nvrtc_status().path)});
  return s;
}

IdentityState& identity_state() {
  static IdentityState* s = new IdentityState(find_identity());
  return *s;
}

}  // namespace

const NvrtcIdentity& nvrtc_identity() { return identity_state().id; }

const Nvrtc& nvrtc_for_compiling(bool& identity_confirmed) {
  const Nvrtc* nv = nvrtc();
  if (!nv) throw Error("cannot compile CUDA code: NVRTC is not available: " + nvrtc_status().error);
  const IdentityState& s = identity_state();
  identity_confirmed =
      s.id.found && s.id.major == nv->major && s.id.minor == nv->minor && s.id.archs == nv->archs;
  if (!identity_confirmed && !s.fingerprint.empty()) {
    // A stale record (its key is meant to rule this out): correct it for the next process.
    NvrtcIdentity now = from_library();
    DiskCache(default_cache_dir())
        .store(s.fingerprint, CompiledImage{record_text(now, nvrtc_status().path)});
  }
  return *nv;
}

}  // namespace accel::cuda
