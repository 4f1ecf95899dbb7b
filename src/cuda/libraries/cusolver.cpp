#include "src/cuda/libraries/cusolver.hpp"

#include <string>

namespace accel::cuda {

namespace {

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

const LoadedMathLibrary<Cusolver>& loaded() {
  return load_math_library_once<Cusolver, load_fns>(Library::Cusolver, "cuSOLVER");
}

}  // namespace

const Cusolver* cusolver() { return loaded().usable(); }
const LoadStatus& cusolver_status() { return loaded().status; }

}  // namespace accel::cuda
