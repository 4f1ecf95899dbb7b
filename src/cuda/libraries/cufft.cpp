#include "src/cuda/libraries/cufft.hpp"

#include <string>

namespace accel::cuda {

namespace {

struct CufftState {
  Cufft cufft;
  LoadStatus status;
};

std::string load_fns(void* h, const std::string& path, Cufft& f) {
  dynlib::Symbols symbols(h);
#define ACCEL_CUFFT_FN(symbol, type) symbols.need(#symbol, f.symbol);
#include "src/cuda/libraries/cufft_fns.def"
#undef ACCEL_CUFFT_FN
  if (std::string err = symbols.error(path, "cuFFT", "10"); !err.empty()) return err;
  if (f.cufftGetVersion(&f.version) != api::CUFFT_SUCCESS) return path + ": cufftGetVersion failed";
  return {};
}

CufftState load_state() {
  CufftState s;
  const auto load = [&](void* h, const std::string& path, int& version) {
    s.cufft = Cufft{};
    std::string err = load_fns(h, path, s.cufft);
    version = s.cufft.version;
    return err;
  };
  open_math_library(Library::Cufft, "cuFFT", s.status, load);
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
