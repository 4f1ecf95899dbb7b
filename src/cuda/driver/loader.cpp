#include "src/cuda/driver/loader.hpp"

#include <pthread.h>

#include <atomic>
#include <type_traits>

namespace accel::cuda {

namespace {

bool compile_only_process = false;

dynlib::SiteDirs& site_dirs() {
  static dynlib::SiteDirs* dirs = new dynlib::SiteDirs;
  return *dirs;
}

// A toolkit library: `stem`.so.N for each of `majors` (newest first), then `stem`.so; looked for
// in NVIDIA's CUDA 13 wheel directory and in `wheel_dir` (the library's own wheel) under
// site-packages, in the toolkit's directories, then by the system's search.
dynlib::Search toolkit_library(const char* env, const std::string& stem,
                               std::initializer_list<int> majors, const char* wheel_dir) {
  dynlib::Search search{env, false, {}, {"nvidia/cu13/lib", wheel_dir}, true};
  for (int major : majors) search.names.push_back(stem + ".so." + std::to_string(major));
  search.names.push_back(stem + ".so");
  return search;
}

// Where each library is looked for. The driver is never looked for in the toolkit: it holds
// only a stub libcuda.
dynlib::Search search_for(Library lib) {
  switch (lib) {
    case Library::Driver:
      return {"ACCELPY_CUDA_DRIVER", false, {"libcuda.so.1"}, {}, false};
    case Library::Nvrtc:
      return toolkit_library("ACCELPY_NVRTC", "libnvrtc", {13, 12}, "nvidia/cuda_nvrtc/lib");
    case Library::Cublas:
      return toolkit_library("ACCELPY_CUBLAS", "libcublas", {13, 12}, "nvidia/cublas/lib");
    case Library::CublasLt:
      return toolkit_library("ACCELPY_CUBLAS", "libcublasLt", {13, 12}, "nvidia/cublas/lib");
    // cuFFT and cuSOLVER number their sonames apart from CUDA: 12 ships with CUDA 13, 11
    // with CUDA 12.
    case Library::Cufft:
      return toolkit_library("ACCELPY_CUFFT", "libcufft", {12, 11}, "nvidia/cufft/lib");
    case Library::Cusolver:
      return toolkit_library("ACCELPY_CUSOLVER", "libcusolver", {12, 11}, "nvidia/cusolver/lib");
  }
  return {};
}

std::string version_string(int v) {  // 12040 -> "12.4"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

void add_search_dirs(const std::vector<std::string>& dirs) { site_dirs().add(dirs); }

std::vector<std::string> search_dirs() { return site_dirs().get(); }

void compile_only() { compile_only_process = true; }

std::vector<std::string> library_candidates(Library lib) {
  return dynlib::candidates(search_for(lib), site_dirs().get());
}

void* open_first(const std::vector<std::string>& candidates, const char* symbol,
                 LoadStatus& status) {
  return dynlib::open_first(candidates, status, dynlib::exporting(symbol));
}

namespace {

// Resolves every driver entry point through cuGetProcAddress, asking for the ABI of
// api::kDriverApiVersion. Returns an error message, or "" on success.
std::string load_driver(void* h, Driver& d) {
  dynlib::Symbols symbols(h);
  api::PFN_cuGetProcAddress_v2 gpa2 = nullptr;
  api::PFN_cuGetProcAddress_v1 gpa1 = nullptr;
  if (!symbols.want("cuGetProcAddress_v2", gpa2)) symbols.want("cuGetProcAddress", gpa1);
  if (!gpa2 && !gpa1) return "the driver has no cuGetProcAddress (it predates CUDA 11.3)";
  api::PFN_cuDriverGetVersion get_version = nullptr;
  if (!symbols.need("cuDriverGetVersion", get_version)) return "no cuDriverGetVersion";
  if (get_version(&d.version) != api::CUDA_SUCCESS) return "cuDriverGetVersion failed";
  if (d.version < api::kDriverApiVersion) {
    return "the driver supports CUDA " + version_string(d.version) +
           "; accelpy needs a driver for CUDA " + version_string(api::kDriverApiVersion) +
           " or newer";
  }
  // The entry point `name` with the ABI of CUDA `version`, or null.
  auto lookup = [&](const char* name, int version) -> void* {
    void* p = nullptr;
    int status = 0;
    const api::CUresult r = gpa2
                                ? gpa2(name, &p, version, api::CU_GET_PROC_ADDRESS_DEFAULT, &status)
                                : gpa1(name, &p, version, api::CU_GET_PROC_ADDRESS_DEFAULT);
    return r == api::CUDA_SUCCESS ? p : nullptr;
  };
  std::string missing;
  auto get = [&](const char* name, auto& fn) {
    void* p = lookup(name, api::kDriverApiVersion);
    if (!p) {
      missing += missing.empty() ? name : std::string(", ") + name;
      return;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
#define ACCEL_DRIVER_FN(name) get(#name, d.name);
#include "src/cuda/driver/driver_fns.def"
#undef ACCEL_DRIVER_FN
  if (!missing.empty()) return "driver entry points not found: " + missing;
  // Optional entry points are looked up only where the driver's version has them: a lookup that
  // fails is an API error in the output of compute-sanitizer and of the user's own checks.
  if (d.version >= api::kParamInfoApiVersion) {
    d.cuFuncGetParamInfo = reinterpret_cast<api::PFN_cuFuncGetParamInfo>(
        lookup("cuFuncGetParamInfo", api::kParamInfoApiVersion));
  }
  if (d.version >= api::kParamCountApiVersion) {
    d.cuFuncGetParamCount = reinterpret_cast<api::PFN_cuFuncGetParamCount>(
        lookup("cuFuncGetParamCount", api::kParamCountApiVersion));
  }
  return {};
}

std::string error_name(const Driver& d, api::CUresult r) {
  const char* name = nullptr;
  if (d.cuGetErrorName && d.cuGetErrorName(r, &name) == api::CUDA_SUCCESS && name) return name;
  return "CUDA error " + std::to_string(r);
}

// Set in a child forked after cuInit: the driver's state (contexts, memory, streams) does not
// survive fork, and a CUDA call there fails or hangs. The child then sees no driver, and any
// use of a GPU raises kForkedMessage.
std::atomic<bool> g_forked_after_init{false};

struct DriverState {
  Driver driver;
  LoadStatus status;
  bool usable = false;
};

DriverState load_driver_state(const std::vector<std::string>& candidates) {
  DriverState s;
  void* h = open_first(candidates, "cuDriverGetVersion", s.status);
  if (!h) {
    s.status.error = "no NVIDIA driver (libcuda.so.1 not found: " + s.status.error + ")";
    return s;
  }
  s.status.error = load_driver(h, s.driver);
  if (s.driver.version) s.status.version = version_string(s.driver.version);
  if (!s.status.error.empty()) return s;
  const api::CUresult r = s.driver.cuInit(0);
  if (r == api::CUDA_ERROR_STUB_LIBRARY) {
    s.status.error = s.status.path + " is the toolkit's stub library, not a driver";
    return s;
  }
  if (r == api::CUDA_ERROR_NO_DEVICE) {
    s.status.error = "the driver found no CUDA device (CUDA_ERROR_NO_DEVICE)";
    return s;
  }
  if (r != api::CUDA_SUCCESS) {
    s.status.error = "cuInit failed: " + error_name(s.driver, r);
    return s;
  }
  if (s.driver.cuDeviceGetCount(&s.driver.device_count) != api::CUDA_SUCCESS ||
      s.driver.device_count == 0) {
    s.status.error = "the driver found no CUDA device";
    return s;
  }
  s.status.ok = true;
  s.usable = true;
  pthread_atfork(nullptr, nullptr, [] { g_forked_after_init = true; });
  return s;
}

DriverState& driver_state() {
  static DriverState* s = new DriverState(load_driver_state(library_candidates(Library::Driver)));
  return *s;
}

struct NvrtcState {
  Nvrtc nvrtc;
  LoadStatus status;
};

std::string load_nvrtc_fns(void* h, const std::string& path, Nvrtc& n) {
  dynlib::Symbols symbols(h);
#define ACCEL_NVRTC_FN(name) symbols.need(#name, n.name);
#include "src/cuda/driver/nvrtc_fns.def"
#undef ACCEL_NVRTC_FN
  if (std::string err = symbols.error(path, "NVRTC", "11.2"); !err.empty()) return err;
  if (n.nvrtcVersion(&n.major, &n.minor) != api::NVRTC_SUCCESS)
    return path + ": nvrtcVersion failed";
  int count = 0;
  if (n.nvrtcGetNumSupportedArchs(&count) == api::NVRTC_SUCCESS && count > 0) {
    n.archs.resize(size_t(count));
    if (n.nvrtcGetSupportedArchs(n.archs.data()) != api::NVRTC_SUCCESS) n.archs.clear();
  }
  return {};
}

NvrtcState load_nvrtc_state() {
  NvrtcState s;
  // The driver's CUDA version bounds which NVRTC can produce loadable code; without a driver
  // (CI) any NVRTC will do, for compile-only use.
  const auto accept = [&](void* h, const std::string& path) {
    s.nvrtc = Nvrtc{};
    std::string err = load_nvrtc_fns(h, path, s.nvrtc);
    if (!err.empty()) return err;
    const std::string version = std::to_string(s.nvrtc.major) + "." + std::to_string(s.nvrtc.minor);
    return newer_than_driver(path, "NVRTC " + version, s.nvrtc.major);
  };
  if (dynlib::open_first(library_candidates(Library::Nvrtc), s.status, accept)) {
    s.status.ok = true;
    s.status.version = std::to_string(s.nvrtc.major) + "." + std::to_string(s.nvrtc.minor);
  }
  return s;
}

NvrtcState& nvrtc_state() {
  static NvrtcState* s = new NvrtcState(load_nvrtc_state());
  return *s;
}

struct CublasState {
  Cublas cublas;
  LoadStatus status, lt_status;
};

CublasState load_cublas_state() {
  CublasState s;
  Cublas& b = s.cublas;
  // Entry points beyond the one each library is recognized by are checked where they are used
  // (gemm.cpp), so that a partial library still reports its version.
  if (void* h = open_first(library_candidates(Library::Cublas), "cublasCreate_v2", s.status)) {
    dynlib::Symbols symbols(h);
#define ACCEL_CUBLAS_FN(symbol, type) symbols.want(#symbol, b.symbol);
#define ACCEL_CUBLASLT_FN(symbol, type)
#include "src/cuda/driver/cublas_fns.def"
#undef ACCEL_CUBLAS_FN
#undef ACCEL_CUBLASLT_FN
    int major = 0, minor = 0;
    if (b.cublasGetProperty &&
        b.cublasGetProperty(api::MAJOR_VERSION, &major) == api::CUBLAS_STATUS_SUCCESS &&
        b.cublasGetProperty(api::MINOR_VERSION, &minor) == api::CUBLAS_STATUS_SUCCESS) {
      s.status.version = std::to_string(major) + "." + std::to_string(minor);
    }
    s.status.ok = true;
  }
  if (void* h = open_first(library_candidates(Library::CublasLt), "cublasLtCreate", s.lt_status)) {
    dynlib::Symbols symbols(h);
#define ACCEL_CUBLAS_FN(symbol, type)
#define ACCEL_CUBLASLT_FN(symbol, type) symbols.want(#symbol, b.symbol);
#include "src/cuda/driver/cublas_fns.def"
#undef ACCEL_CUBLAS_FN
#undef ACCEL_CUBLASLT_FN
    if (b.cublasLtGetVersion) {
      const size_t v = b.cublasLtGetVersion();  // 120304 for 12.3.4
      s.lt_status.version = std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100);
    }
    s.lt_status.ok = true;
  }
  return s;
}

CublasState& cublas_state() {
  static CublasState* s = new CublasState(load_cublas_state());
  return *s;
}

}  // namespace

const Driver* driver() {
  DriverState& s = driver_state();
  return s.usable && !g_forked_after_init ? &s.driver : nullptr;
}
const LoadStatus& driver_status() {
  static const LoadStatus forked{false, "", "", kForkedMessage, {}};
  return g_forked_after_init ? forked : driver_state().status;
}
bool forked_after_init() { return g_forked_after_init; }

const Nvrtc* nvrtc() {
  NvrtcState& s = nvrtc_state();
  return s.status.ok ? &s.nvrtc : nullptr;
}
const LoadStatus& nvrtc_status() { return nvrtc_state().status; }

const Cublas* cublas() {
  CublasState& s = cublas_state();
  return s.status.ok ? &s.cublas : nullptr;
}
const LoadStatus& cublas_status() { return cublas_state().status; }
const LoadStatus& cublaslt_status() { return cublas_state().lt_status; }

std::string newer_than_driver(const std::string& path, const std::string& library, int cuda_major) {
  if (compile_only_process) return {};
  const int driver_version = driver_state().driver.version;  // 0 without a driver
  if (driver_version == 0 || cuda_major <= driver_version / 1000) return {};
  return path + " is " + library + " (CUDA " + std::to_string(cuda_major) +
         "), newer than the driver (CUDA " + version_string(driver_version) + "): version mismatch";
}

void* open_math_library(Library lib, const std::string& title, LoadStatus& status,
                        const MathLibraryLoader& load) {
  int version = 0;
  const auto version_text = [&] {  // 12004 -> "12.0"
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 100);
  };
  const auto accept = [&](void* h, const std::string& path) {
    version = 0;
    if (std::string err = load(h, path, version); !err.empty()) return err;
    // Their major version is CUDA's minus one.
    return newer_than_driver(path, title + " " + version_text(), version / 1000 + 1);
  };
  void* h = dynlib::open_first(library_candidates(lib), status, accept);
  if (h) {
    status.ok = true;
    status.version = version_text();
  }
  return h;
}

LoadStatus probe_driver(const std::vector<std::string>& candidates) {
  return load_driver_state(candidates).status;
}

}  // namespace accel::cuda
