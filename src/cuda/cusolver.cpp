#include "src/cuda/cusolver.hpp"

#include <dlfcn.h>

#include <string>

namespace accel::cuda {

namespace {

struct CusolverState {
  Cusolver lib;
  LoadStatus status;
};

std::string load_fns(void* h, Cusolver& s) {
  std::string missing;
#define ACCEL_CUSOLVER_RESOLVE(name)                           \
  s.name = reinterpret_cast<api::PFN_##name>(dlsym(h, #name)); \
  if (!s.name) missing += missing.empty() ? #name : ", " #name;
  ACCEL_CUSOLVER_FNS(ACCEL_CUSOLVER_RESOLVE)
#undef ACCEL_CUSOLVER_RESOLVE
  const char* orgqr_names[4] = {"cusolverDnSorgqr", "cusolverDnDorgqr", "cusolverDnCungqr",
                                "cusolverDnZungqr"};
  for (int i = 0; i < 4; ++i) {
    const std::string name = orgqr_names[i], size_name = name + "_bufferSize";
    s.orgqr[i] = reinterpret_cast<api::PFN_cusolverDnOrgqr>(dlsym(h, name.c_str()));
    s.orgqr_bufferSize[i] =
        reinterpret_cast<api::PFN_cusolverDnOrgqr_bufferSize>(dlsym(h, size_name.c_str()));
    if (!s.orgqr[i] || !s.orgqr_bufferSize[i]) missing += (missing.empty() ? "" : ", ") + name;
  }
  const char* gesvdj_names[4] = {"cusolverDnSgesvdj", "cusolverDnDgesvdj", "cusolverDnCgesvdj",
                                 "cusolverDnZgesvdj"};
  for (int i = 0; i < 4; ++i) {
    const std::string name = gesvdj_names[i], size_name = name + "_bufferSize";
    s.gesvdj[i] = reinterpret_cast<api::PFN_cusolverDnGesvdj>(dlsym(h, name.c_str()));
    s.gesvdj_bufferSize[i] =
        reinterpret_cast<api::PFN_cusolverDnGesvdj_bufferSize>(dlsym(h, size_name.c_str()));
    if (!s.gesvdj[i] || !s.gesvdj_bufferSize[i]) missing += (missing.empty() ? "" : ", ") + name;
  }
  s.cusolverDnXgeev_bufferSize =
      reinterpret_cast<api::PFN_cusolverDnXgeev_bufferSize>(dlsym(h, "cusolverDnXgeev_bufferSize"));
  s.cusolverDnXgeev = reinterpret_cast<api::PFN_cusolverDnXgeev>(dlsym(h, "cusolverDnXgeev"));
  if (!missing.empty())
    return "cuSOLVER entry points missing (11.0 or newer is needed): " + missing;
  if (s.cusolverGetVersion(&s.version) != api::CUSOLVER_STATUS_SUCCESS) {
    return "cusolverGetVersion failed";
  }
  return {};
}

CusolverState load_state() {
  CusolverState s;
  const Driver* d = driver();
  const int driver_major = d ? d->version / 1000 : 0;
  for (const std::string& path : library_candidates(Library::Cusolver)) {
    LoadStatus attempt;
    void* h = open_first({path}, "cusolverDnCreate", attempt);
    s.status.tried.push_back(path);
    if (!h) {
      s.status.error = attempt.error;
      continue;
    }
    Cusolver lib;
    std::string err = load_fns(h, lib);
    const int major = lib.version / 1000;
    if (err.empty() && driver_major > 0 && major + 1 > driver_major) {
      err = path + " is cuSOLVER " + std::to_string(major) + " (CUDA " + std::to_string(major + 1) +
            "), newer than the driver (CUDA " + std::to_string(driver_major) +
            "): version mismatch";
    }
    if (!err.empty()) {
      s.status.error = err;
      dlclose(h);
      continue;
    }
    s.lib = lib;
    s.status.ok = true;
    s.status.path = path;
    s.status.version = std::to_string(major) + "." + std::to_string((lib.version % 1000) / 100);
    s.status.error.clear();
    return s;
  }
  if (s.status.error.empty()) s.status.error = "libcusolver not found";
  return s;
}

CusolverState& state() {
  static CusolverState* s = new CusolverState(load_state());
  return *s;
}

}  // namespace

const Cusolver* cusolver() {
  CusolverState& s = state();
  return s.status.ok ? &s.lib : nullptr;
}
const LoadStatus& cusolver_status() { return state().status; }

}  // namespace accel::cuda
