#include "src/cuda/libraries/cufft.hpp"

#include <string>

namespace accel::cuda {

namespace {

std::string load_fns(void* h, const std::string& path, Cufft& f) {
  dynlib::Symbols symbols(h);
#define ACCEL_CUFFT_FN(symbol, type) symbols.need(#symbol, f.symbol);
#include "src/cuda/libraries/cufft_fns.def"
#undef ACCEL_CUFFT_FN
  if (std::string err = symbols.error(path, "cuFFT", "10"); !err.empty()) return err;
  if (f.cufftGetVersion(&f.version) != api::CUFFT_SUCCESS) return path + ": cufftGetVersion failed";
  return {};
}

const LoadedMathLibrary<Cufft>& loaded() {
  return load_math_library_once<Cufft, load_fns>(Library::Cufft, "cuFFT");
}

}  // namespace

const Cufft* cufft() { return loaded().usable(); }
const LoadStatus& cufft_status() { return loaded().status; }

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
