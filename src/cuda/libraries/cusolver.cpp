#include "src/cuda/libraries/cusolver.hpp"

#include <string>

namespace accel::cuda {

namespace {

struct CusolverState {
  Cusolver lib;
  LoadStatus status;
};

std::string load_fns(void* h, const std::string& path, Cusolver& s) {
  dynlib::Symbols symbols(h);
#define ACCEL_CUSOLVER_FN(name) symbols.need(#name, s.name);
#define ACCEL_CUSOLVER_OPTIONAL_FN(name) symbols.want(#name, s.name);
#include "src/cuda/libraries/cusolver_fns.def"
#undef ACCEL_CUSOLVER_FN
#undef ACCEL_CUSOLVER_OPTIONAL_FN
  const char* orgqr_names[4] = {"cusolverDnSorgqr", "cusolverDnDorgqr", "cusolverDnCungqr",
                                "cusolverDnZungqr"};
  for (int i = 0; i < 4; ++i) {
    const std::string size_name = std::string(orgqr_names[i]) + "_bufferSize";
    symbols.need(orgqr_names[i], s.orgqr[i]);
    symbols.need(size_name.c_str(), s.orgqr_bufferSize[i]);
  }
  const char* gesvdj_names[4] = {"cusolverDnSgesvdj", "cusolverDnDgesvdj", "cusolverDnCgesvdj",
                                 "cusolverDnZgesvdj"};
  for (int i = 0; i < 4; ++i) {
    const std::string size_name = std::string(gesvdj_names[i]) + "_bufferSize";
    symbols.need(gesvdj_names[i], s.gesvdj[i]);
    symbols.need(size_name.c_str(), s.gesvdj_bufferSize[i]);
  }
  if (std::string err = symbols.error(path, "cuSOLVER", "11.0"); !err.empty()) return err;
  if (s.cusolverGetVersion(&s.version) != api::CUSOLVER_STATUS_SUCCESS) {
    return path + ": cusolverGetVersion failed";
  }
  return {};
}

CusolverState load_state() {
  CusolverState s;
  const auto load = [&](void* h, const std::string& path, int& version) {
    s.lib = Cusolver{};
    std::string err = load_fns(h, path, s.lib);
    version = s.lib.version;
    return err;
  };
  open_math_library(Library::Cusolver, "cuSOLVER", s.status, load);
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
