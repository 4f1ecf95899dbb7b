#include "src/cpu/blas_loader.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace accel::cpu {

namespace {

std::mutex g_dirs_mutex;
std::vector<std::string> g_site_dirs;

bool is_file(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

// Files in `dir` whose name starts with `stem` and contains ".so", sorted (deterministic).
std::vector<std::string> files_starting(const std::string& dir, const std::string& stem) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.rfind(stem, 0) == 0 && n.find(".so") != std::string::npos) out.push_back(dir + "/" + n);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// This shared object's site-packages (…/site-packages/accelpy/_core.so -> …/site-packages).
std::string own_site_dir() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&own_site_dir), &info) == 0 || !info.dli_fname) return {};
  std::string p = info.dli_fname;
  for (int up = 0; up < 2; ++up) {
    const size_t slash = p.rfind('/');
    if (slash == std::string::npos) return {};
    p.resize(slash);
  }
  return p;
}

// The symbol decorations builds of OpenBLAS use, tried in order on each file: NumPy's
// scipy_openblas64 (prefix and 64-bit suffix), scipy_openblas32, Debian's libopenblas64_, plain.
struct Decoration {
  const char* prefix;
  const char* suffix;
  bool int64;
};
constexpr Decoration kDecorations[] = {
    {"scipy_", "64_", true}, {"scipy_", "", false}, {"", "64_", true}, {"", "", false}};

struct BlasState {
  BlasStatus status;
  void* handle = nullptr;
};

BlasState load(const std::vector<BlasCandidate>& candidates) {
  BlasState s;
  for (const BlasCandidate& c : candidates) {
    s.status.tried.push_back(c.path);
    void* h = dlopen(c.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      s.status.error = e ? std::string(e) : c.path + ": cannot be opened";
      continue;
    }
    const Decoration* found = nullptr;
    for (const Decoration& d : kDecorations) {
      const std::string sym = std::string(d.prefix) + "cblas_dgemm" + d.suffix;
      if (dlsym(h, sym.c_str())) {
        found = &d;
        break;
      }
    }
    if (!found) {
      s.status.error = c.path + ": does not export cblas_dgemm";
      dlclose(h);
      continue;
    }
    s.handle = h;
    s.status.ok = true;
    s.status.error.clear();
    s.status.path = c.path;
    s.status.prefix = found->prefix;
    s.status.suffix = found->suffix;
    s.status.int64 = found->int64;
    using GetConfig = const char* (*)();
    const std::string cfg = s.status.prefix + "openblas_get_config" + s.status.suffix;
    if (auto get = reinterpret_cast<GetConfig>(dlsym(h, cfg.c_str())); get && get()) {
      s.status.name =
          std::string(s.status.prefix == "scipy_" ? "NumPy's scipy_openblas: " : "") + get();
    } else if (dlsym(h, "MKL_Get_Version_String")) {
      s.status.name = "Intel MKL";
    } else {
      s.status.name = "CBLAS";
    }
    if (s.status.int64) s.status.name += " (64-bit integers)";
    return s;
  }
  if (s.status.error.empty()) s.status.error = "no BLAS library found";
  return s;
}

BlasState& state() {
  static BlasState* s = new BlasState(load(blas_candidates()));
  return *s;
}

}  // namespace

void add_blas_search_dirs(const std::vector<std::string>& dirs) {
  std::lock_guard<std::mutex> lock(g_dirs_mutex);
  for (const std::string& d : dirs) {
    if (std::find(g_site_dirs.begin(), g_site_dirs.end(), d) == g_site_dirs.end())
      g_site_dirs.push_back(d);
  }
}

std::vector<BlasCandidate> blas_candidates() {
  std::vector<BlasCandidate> out;
  if (const char* env = std::getenv("ACCELPY_BLAS"); env && *env) {
    const std::string v = env;
    if (v != "0" && v != "off") out.push_back({v, "", "", false});
    return out;
  }
  std::vector<std::string> sites;
  {
    std::lock_guard<std::mutex> lock(g_dirs_mutex);
    sites = g_site_dirs;
  }
  sites.push_back(own_site_dir());
  for (const std::string& site : sites) {
    if (site.empty()) continue;
    for (const std::string& f : files_starting(site + "/numpy.libs", "libscipy_openblas"))
      out.push_back({f, "", "", false});
    for (const std::string& f : files_starting(site + "/numpy/.libs", "libopenblas"))
      out.push_back({f, "", "", false});
    for (const std::string& f : files_starting(site + "/scipy_openblas64/lib", "libscipy"))
      out.push_back({f, "", "", false});
  }
  for (const char* soname : {"libopenblas.so.0", "libopenblas64_.so.0", "libmkl_rt.so.2",
                             "libmkl_rt.so", "libcblas.so.3", "libblas.so.3"}) {
    out.push_back({soname, "", "", false});
  }
  std::vector<BlasCandidate> unique;
  for (const BlasCandidate& c : out) {
    const bool seen = std::any_of(unique.begin(), unique.end(),
                                  [&](const BlasCandidate& u) { return u.path == c.path; });
    if (!seen && (c.path.find('/') == std::string::npos || is_file(c.path))) unique.push_back(c);
  }
  return unique;
}

BlasStatus probe_blas(const std::vector<BlasCandidate>& candidates) {
  BlasState s = load(candidates);
  // A probe leaves nothing open: the process-wide library is state()'s alone.
  if (s.handle) dlclose(s.handle);
  return s.status;
}

const BlasStatus& blas_status() { return state().status; }

void* blas_symbol(const char* name) {
  BlasState& s = state();
  if (!s.handle) return nullptr;
  const std::string sym = s.status.prefix + name + s.status.suffix;
  return dlsym(s.handle, sym.c_str());
}

}  // namespace accel::cpu
