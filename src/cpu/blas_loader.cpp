#include "src/cpu/blas_loader.hpp"

#include <dlfcn.h>

namespace accel::cpu {

namespace {

dynlib::SiteDirs& site_dirs() {
  static dynlib::SiteDirs* dirs = new dynlib::SiteDirs;
  return *dirs;
}

const dynlib::Search& blas_search() {
  static const dynlib::Search search{"ACCELPY_BLAS",
                                     true,
                                     {"libopenblas.so.0", "libopenblas64_.so.0", "libmkl_rt.so.2",
                                      "libmkl_rt.so", "libcblas.so.3", "libblas.so.3"},
                                     {"numpy.libs/libscipy_openblas*", "numpy/.libs/libopenblas*",
                                      "scipy_openblas64/lib/libscipy*"},
                                     false};
  return search;
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

BlasState load(const std::vector<std::string>& candidates) {
  BlasState s;
  const Decoration* found = nullptr;
  const auto accept = [&](void* h, const std::string& path) -> std::string {
    for (const Decoration& d : kDecorations) {
      const std::string sym = std::string(d.prefix) + "cblas_dgemm" + d.suffix;
      if (dlsym(h, sym.c_str())) {
        found = &d;
        return {};
      }
    }
    return path + ": does not export cblas_dgemm";
  };
  s.handle = dynlib::open_first(candidates, s.status, accept);
  if (!s.handle) {
    // Only ACCELPY_BLAS=off leaves no candidate: the system names are always tried.
    if (candidates.empty()) s.status.error = "turned off by ACCELPY_BLAS";
    return s;
  }
  s.status.ok = true;
  s.status.prefix = found->prefix;
  s.status.suffix = found->suffix;
  s.status.int64 = found->int64;
  using GetConfig = const char* (*)();
  const std::string cfg = s.status.prefix + "openblas_get_config" + s.status.suffix;
  if (auto get = reinterpret_cast<GetConfig>(dlsym(s.handle, cfg.c_str())); get && get()) {
    s.status.name =
        std::string(s.status.prefix == "scipy_" ? "NumPy's scipy_openblas: " : "") + get();
  } else if (dlsym(s.handle, "MKL_Get_Version_String")) {
    s.status.name = "Intel MKL";
  } else {
    s.status.name = "CBLAS";
  }
  if (s.status.int64) s.status.name += " (64-bit integers)";
  return s;
}

BlasState& state() {
  static BlasState* s = new BlasState(load(blas_candidates()));
  return *s;
}

}  // namespace

void add_blas_search_dirs(const std::vector<std::string>& dirs) { site_dirs().add(dirs); }

std::vector<std::string> blas_candidates() {
  return dynlib::candidates(blas_search(), site_dirs().get());
}

BlasStatus probe_blas(const std::vector<std::string>& candidates) {
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
