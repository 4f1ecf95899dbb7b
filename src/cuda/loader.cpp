#include "src/cuda/loader.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>
#include <mutex>

namespace accel::cuda {

namespace {

std::mutex g_dirs_mutex;
std::vector<std::string> g_site_dirs;  // site-packages directories, from Python

bool is_dir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

const char* env_override(Library lib) {
  switch (lib) {
    case Library::Driver:
      return "ACCELPY_CUDA_DRIVER";
    case Library::Nvrtc:
      return "ACCELPY_NVRTC";
    case Library::Cublas:
    case Library::CublasLt:
      return "ACCELPY_CUBLAS";
    case Library::Cufft:
      return "ACCELPY_CUFFT";
    case Library::Cusolver:
      return "ACCELPY_CUSOLVER";
  }
  return "";
}

std::vector<std::string> sonames(Library lib) {
  switch (lib) {
    case Library::Driver:
      return {"libcuda.so.1"};
    case Library::Nvrtc:
      return {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    case Library::Cublas:
      return {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
    case Library::CublasLt:
      return {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"};
    // cuFFT and cuSOLVER number their sonames apart from CUDA: 12 ships with CUDA 13, 11
    // with CUDA 12.
    case Library::Cufft:
      return {"libcufft.so.12", "libcufft.so.11", "libcufft.so"};
    case Library::Cusolver:
      return {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"};
  }
  return {};
}

// Subdirectories of site-packages where NVIDIA's wheels put the library.
std::vector<std::string> wheel_subdirs(Library lib) {
  switch (lib) {
    case Library::Driver:
      return {};
    case Library::Nvrtc:
      return {"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"};
    case Library::Cublas:
    case Library::CublasLt:
      return {"nvidia/cu13/lib", "nvidia/cublas/lib"};
    case Library::Cufft:
      return {"nvidia/cu13/lib", "nvidia/cufft/lib"};
    case Library::Cusolver:
      return {"nvidia/cu13/lib", "nvidia/cusolver/lib"};
  }
  return {};
}

// The directory of this shared object's site-packages (…/site-packages/accelpy/_core.so ->
// …/site-packages), found without Python so that C++ programs get the same search.
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

std::string version_string(int v) {  // 12040 -> "12.4"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

template <class F>
bool resolve(void* handle, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  return fn != nullptr;
}

}  // namespace

void add_search_dirs(const std::vector<std::string>& dirs) {
  std::lock_guard<std::mutex> lock(g_dirs_mutex);
  for (const std::string& d : dirs) {
    bool seen = false;
    for (const std::string& e : g_site_dirs) seen = seen || e == d;
    if (!seen) g_site_dirs.push_back(d);
  }
}

std::vector<std::string> library_candidates(Library lib) {
  std::vector<std::string> out;
  const std::vector<std::string> names = sonames(lib);
  auto add_dir = [&](const std::string& dir) {
    if (dir.empty() || !is_dir(dir)) return;
    for (const std::string& n : names) {
      const std::string p = dir + "/" + n;
      if (is_file(p)) out.push_back(p);
    }
  };
  if (const char* env = std::getenv(env_override(lib)); env && *env) {
    const std::string v = env;
    if (is_dir(v)) {
      add_dir(v);
      if (out.empty()) out.push_back(v + "/" + names[0]);  // reported as not found
    } else {
      out.push_back(v);
    }
    return out;
  }
  std::vector<std::string> sites;
  {
    std::lock_guard<std::mutex> lock(g_dirs_mutex);
    sites = g_site_dirs;
  }
  sites.push_back(own_site_dir());
  for (const std::string& site : sites) {
    for (const std::string& sub : wheel_subdirs(lib)) add_dir(site + "/" + sub);
  }
  if (lib != Library::Driver) {
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
      if (const char* root = std::getenv(var); root && *root) {
        add_dir(std::string(root) + "/lib64");
        add_dir(std::string(root) + "/lib");
      }
    }
    add_dir("/usr/local/cuda/lib64");
    add_dir("/usr/local/cuda/lib");
  }
  for (const std::string& n : names) out.push_back(n);  // the dynamic loader's own search
  // Duplicates (the same file reached twice) are harmless but noisy in `info`.
  std::vector<std::string> unique;
  for (const std::string& p : out) {
    bool seen = false;
    for (const std::string& u : unique) seen = seen || u == p;
    if (!seen) unique.push_back(p);
  }
  return unique;
}

void* open_first(const std::vector<std::string>& candidates, const char* symbol,
                 LoadStatus& status) {
  for (const std::string& path : candidates) {
    status.tried.push_back(path);
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      status.error = e ? std::string(e) : path + ": cannot be opened";
      continue;
    }
    if (!dlsym(h, symbol)) {
      status.error = path + ": does not export " + symbol;
      dlclose(h);
      continue;
    }
    status.path = path;
    return h;
  }
  if (candidates.empty()) status.error = "no candidate file found";
  return nullptr;
}

namespace {

// Resolves every driver entry point through cuGetProcAddress, asking for the ABI of
// api::kDriverApiVersion. Returns an error message, or "" on success.
std::string load_driver(void* h, Driver& d) {
  api::PFN_cuGetProcAddress_v2 gpa2 = nullptr;
  api::PFN_cuGetProcAddress_v1 gpa1 = nullptr;
  resolve(h, "cuGetProcAddress_v2", gpa2);
  if (!gpa2) resolve(h, "cuGetProcAddress", gpa1);
  if (!gpa2 && !gpa1) return "the driver has no cuGetProcAddress (it predates CUDA 11.3)";
  api::PFN_cuDriverGetVersion get_version = nullptr;
  if (!resolve(h, "cuDriverGetVersion", get_version)) return "no cuDriverGetVersion";
  if (get_version(&d.version) != api::CUDA_SUCCESS) return "cuDriverGetVersion failed";
  if (d.version < api::kDriverApiVersion) {
    return "the driver supports CUDA " + version_string(d.version) +
           "; accelpy needs a driver for CUDA " + version_string(api::kDriverApiVersion) +
           " or newer";
  }
  std::string missing;
  auto get = [&](const char* name, auto& fn) {
    void* p = nullptr;
    int status = 0;
    const api::CUresult r =
        gpa2 ? gpa2(name, &p, api::kDriverApiVersion, api::CU_GET_PROC_ADDRESS_DEFAULT, &status)
             : gpa1(name, &p, api::kDriverApiVersion, api::CU_GET_PROC_ADDRESS_DEFAULT);
    if (r != api::CUDA_SUCCESS || !p) {
      missing += missing.empty() ? name : std::string(", ") + name;
      return;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
#define ACCEL_DRIVER_FN(name) get(#name, d.name);
#include "src/cuda/driver_fns.def"
#undef ACCEL_DRIVER_FN
  if (!missing.empty()) return "driver entry points not found: " + missing;
  if (d.version >= api::kParamInfoApiVersion) {
    void* p = nullptr;
    int status = 0;
    const api::CUresult r = gpa2 ? gpa2("cuFuncGetParamInfo", &p, api::kParamInfoApiVersion,
                                        api::CU_GET_PROC_ADDRESS_DEFAULT, &status)
                                 : gpa1("cuFuncGetParamInfo", &p, api::kParamInfoApiVersion,
                                        api::CU_GET_PROC_ADDRESS_DEFAULT);
    if (r == api::CUDA_SUCCESS && p)
      d.cuFuncGetParamInfo = reinterpret_cast<api::PFN_cuFuncGetParamInfo>(p);
  }
  return {};
}

std::string error_name(const Driver& d, api::CUresult r) {
  const char* name = nullptr;
  if (d.cuGetErrorName && d.cuGetErrorName(r, &name) == api::CUDA_SUCCESS && name) return name;
  return "CUDA error " + std::to_string(r);
}

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

std::string load_nvrtc_fns(void* h, Nvrtc& n) {
  bool ok = resolve(h, "nvrtcVersion", n.nvrtcVersion) &&
            resolve(h, "nvrtcGetErrorString", n.nvrtcGetErrorString) &&
            resolve(h, "nvrtcCreateProgram", n.nvrtcCreateProgram) &&
            resolve(h, "nvrtcDestroyProgram", n.nvrtcDestroyProgram) &&
            resolve(h, "nvrtcCompileProgram", n.nvrtcCompileProgram) &&
            resolve(h, "nvrtcGetProgramLogSize", n.nvrtcGetProgramLogSize) &&
            resolve(h, "nvrtcGetProgramLog", n.nvrtcGetProgramLog) &&
            resolve(h, "nvrtcGetPTXSize", n.nvrtcGetPTXSize) &&
            resolve(h, "nvrtcGetPTX", n.nvrtcGetPTX) &&
            resolve(h, "nvrtcGetNumSupportedArchs", n.nvrtcGetNumSupportedArchs) &&
            resolve(h, "nvrtcGetSupportedArchs", n.nvrtcGetSupportedArchs) &&
            resolve(h, "nvrtcGetCUBINSize", n.nvrtcGetCUBINSize) &&
            resolve(h, "nvrtcGetCUBIN", n.nvrtcGetCUBIN) &&
            resolve(h, "nvrtcAddNameExpression", n.nvrtcAddNameExpression) &&
            resolve(h, "nvrtcGetLoweredName", n.nvrtcGetLoweredName);
  if (!ok) return "NVRTC entry points missing (NVRTC 11.2 or newer is needed)";
  if (n.nvrtcVersion(&n.major, &n.minor) != api::NVRTC_SUCCESS) return "nvrtcVersion failed";
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
  const DriverState& d = driver_state();
  const int driver_major = d.driver.version / 1000;
  std::string skipped;
  for (const std::string& path : library_candidates(Library::Nvrtc)) {
    LoadStatus attempt;
    void* h = open_first({path}, "nvrtcCreateProgram", attempt);
    s.status.tried.push_back(path);
    if (!h) {
      s.status.error = attempt.error;
      continue;
    }
    Nvrtc n;
    std::string err = load_nvrtc_fns(h, n);
    if (err.empty() && driver_major > 0 && n.major > driver_major) {
      err = path + " is NVRTC " + std::to_string(n.major) + "." + std::to_string(n.minor) +
            ", newer than the driver (CUDA " + version_string(d.driver.version) +
            "): version mismatch";
    }
    if (!err.empty()) {
      skipped += (skipped.empty() ? "" : "; ") + err;
      s.status.error = err;
      dlclose(h);
      continue;
    }
    s.nvrtc = n;
    s.status.ok = true;
    s.status.path = path;
    s.status.version = std::to_string(n.major) + "." + std::to_string(n.minor);
    s.status.error.clear();
    return s;
  }
  if (!skipped.empty()) s.status.error = skipped;
  if (s.status.error.empty()) s.status.error = "libnvrtc not found";
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
  if (void* h = open_first(library_candidates(Library::Cublas), "cublasCreate_v2", s.status)) {
    resolve(h, "cublasGetProperty", s.cublas.cublasGetProperty);
    resolve(h, "cublasCreate_v2", s.cublas.cublasCreate_v2);
    resolve(h, "cublasDestroy_v2", s.cublas.cublasDestroy_v2);
    resolve(h, "cublasSetStream_v2", s.cublas.cublasSetStream_v2);
    resolve(h, "cublasSetWorkspace_v2", s.cublas.cublasSetWorkspace_v2);
    resolve(h, "cublasGemmEx", s.cublas.cublasGemmEx);
    resolve(h, "cublasGemmStridedBatchedEx", s.cublas.cublasGemmStridedBatchedEx);
    int major = 0, minor = 0;
    if (s.cublas.cublasGetProperty &&
        s.cublas.cublasGetProperty(api::MAJOR_VERSION, &major) == api::CUBLAS_STATUS_SUCCESS &&
        s.cublas.cublasGetProperty(api::MINOR_VERSION, &minor) == api::CUBLAS_STATUS_SUCCESS) {
      s.status.version = std::to_string(major) + "." + std::to_string(minor);
    }
    s.status.ok = true;
    s.status.error.clear();
  }
  if (void* h = open_first(library_candidates(Library::CublasLt), "cublasLtCreate", s.lt_status)) {
    resolve(h, "cublasLtGetVersion", s.cublas.cublasLtGetVersion);
    resolve(h, "cublasLtCreate", s.cublas.cublasLtCreate);
    resolve(h, "cublasLtDestroy", s.cublas.cublasLtDestroy);
    if (s.cublas.cublasLtGetVersion) {
      const size_t v = s.cublas.cublasLtGetVersion();  // 120304 for 12.3.4
      s.lt_status.version = std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100);
    }
    s.lt_status.ok = true;
    s.lt_status.error.clear();
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
  return s.usable ? &s.driver : nullptr;
}
const LoadStatus& driver_status() { return driver_state().status; }

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

LoadStatus probe_driver(const std::vector<std::string>& candidates) {
  return load_driver_state(candidates).status;
}

}  // namespace accel::cuda
