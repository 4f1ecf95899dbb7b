#include "src/cuda/cufft.hpp"

#include <dlfcn.h>

#include <string>

namespace accel::cuda {

namespace {

template <class F>
bool resolve(void* handle, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  return fn != nullptr;
}

struct CufftState {
  Cufft cufft;
  LoadStatus status;
};

std::string load_fns(void* h, Cufft& f) {
  const bool ok =
      resolve(h, "cufftCreate", f.cufftCreate) && resolve(h, "cufftDestroy", f.cufftDestroy) &&
      resolve(h, "cufftGetVersion", f.cufftGetVersion) &&
      resolve(h, "cufftSetAutoAllocation", f.cufftSetAutoAllocation) &&
      resolve(h, "cufftMakePlanMany64", f.cufftMakePlanMany64) &&
      resolve(h, "cufftSetWorkArea", f.cufftSetWorkArea) &&
      resolve(h, "cufftSetStream", f.cufftSetStream) &&
      resolve(h, "cufftExecC2C", f.cufftExecC2C) && resolve(h, "cufftExecZ2Z", f.cufftExecZ2Z) &&
      resolve(h, "cufftExecR2C", f.cufftExecR2C) && resolve(h, "cufftExecD2Z", f.cufftExecD2Z) &&
      resolve(h, "cufftExecC2R", f.cufftExecC2R) && resolve(h, "cufftExecZ2D", f.cufftExecZ2D);
  if (!ok) return "cuFFT entry points missing (cuFFT 10 or newer is needed)";
  if (f.cufftGetVersion(&f.version) != api::CUFFT_SUCCESS) return "cufftGetVersion failed";
  return {};
}

CufftState load_state() {
  CufftState s;
  const Driver* d = driver();
  const int driver_major = d ? d->version / 1000 : 0;
  for (const std::string& path : library_candidates(Library::Cufft)) {
    LoadStatus attempt;
    void* h = open_first({path}, "cufftCreate", attempt);
    s.status.tried.push_back(path);
    if (!h) {
      s.status.error = attempt.error;
      continue;
    }
    Cufft f;
    std::string err = load_fns(h, f);
    const int major = f.version / 1000;
    if (err.empty() && driver_major > 0 && major + 1 > driver_major) {
      err = path + " is cuFFT " + std::to_string(major) + " (CUDA " + std::to_string(major + 1) +
            "), newer than the driver (CUDA " + std::to_string(driver_major) +
            "): version mismatch";
    }
    if (!err.empty()) {
      s.status.error = err;
      dlclose(h);
      continue;
    }
    s.cufft = f;
    s.status.ok = true;
    s.status.path = path;
    s.status.version = std::to_string(major) + "." + std::to_string((f.version % 1000) / 100);
    s.status.error.clear();
    return s;
  }
  if (s.status.error.empty()) s.status.error = "libcufft not found";
  return s;
}

CufftState& state() {
  static CufftState* s = new CufftState(load_state());
  return *s;
}

}  // namespace

const Cufft* cufft() {
  CufftState& s = state();
  return s.status.ok ? &s.cufft : nullptr;
}
const LoadStatus& cufft_status() { return state().status; }

const char* cufft_error_name(api::cufftResult r) {
  switch (r) {
    case 0x0:
      return "CUFFT_SUCCESS";
    case 0x1:
      return "CUFFT_INVALID_PLAN";
    case 0x2:
      return "CUFFT_ALLOC_FAILED";
    case 0x3:
      return "CUFFT_INVALID_TYPE";
    case 0x4:
      return "CUFFT_INVALID_VALUE";
    case 0x5:
      return "CUFFT_INTERNAL_ERROR";
    case 0x6:
      return "CUFFT_EXEC_FAILED";
    case 0x7:
      return "CUFFT_SETUP_FAILED";
    case 0x8:
      return "CUFFT_INVALID_SIZE";
    case 0x9:
      return "CUFFT_UNALIGNED_DATA";
    case 0xB:
      return "CUFFT_INVALID_DEVICE";
    case 0xD:
      return "CUFFT_NO_WORKSPACE";
    case 0xE:
      return "CUFFT_NOT_IMPLEMENTED";
    case 0x10:
      return "CUFFT_NOT_SUPPORTED";
    case 0x11:
      return "CUFFT_MISSING_DEPENDENCY";
    case 0x12:
      return "CUFFT_NVRTC_FAILURE";
    default:
      return "CUFFT error";
  }
}

}  // namespace accel::cuda
