// Finding and opening the CUDA libraries at run time (dlopen), so that one build runs with or
// without a GPU, and with whichever toolkit or pip wheels a machine has.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "src/cuda/driver/api.hpp"
#include "src/util/dynamic_library.hpp"

namespace accel::cuda {

// What happened when a library was looked for: where it was found, or why not.
using LoadStatus = dynlib::LoadStatus;

struct Driver {
  int version = 0;  // cuDriverGetVersion: 12040 for CUDA 12.4
  int device_count = 0;
#define ACCEL_DRIVER_FN(name) api::PFN_##name name = nullptr;
#include "src/cuda/driver/driver_fns.def"
#undef ACCEL_DRIVER_FN
  // Optional: null when the driver predates CUDA 12.4 (raw kernels then skip argument checks).
  api::PFN_cuFuncGetParamInfo cuFuncGetParamInfo = nullptr;
  // Optional: null before CUDA 13.2 (the count is then read from the kernel's image).
  api::PFN_cuFuncGetParamCount cuFuncGetParamCount = nullptr;
};

struct Nvrtc {
  int major = 0, minor = 0;
  std::vector<int> archs;  // supported sm_XX, as XX
#define ACCEL_NVRTC_FN(name) api::PFN_##name name = nullptr;
#include "src/cuda/driver/nvrtc_fns.def"
#undef ACCEL_NVRTC_FN
};

struct Cublas {
#define ACCEL_CUBLAS_FN(symbol, type) api::type symbol = nullptr;
#define ACCEL_CUBLASLT_FN(symbol, type) api::type symbol = nullptr;
#include "src/cuda/driver/cublas_fns.def"
#undef ACCEL_CUBLAS_FN
#undef ACCEL_CUBLASLT_FN
};

// Whether this process was forked from one that had initialized CUDA (then driver() is null
// and using a GPU raises kForkedMessage: CUDA does not survive fork).
bool forked_after_init();
inline constexpr const char* kForkedMessage =
    "CUDA was initialized in the parent process before fork(), and CUDA does not survive fork: "
    "start the process with the 'spawn' method (multiprocessing.get_context('spawn'), or "
    "'forkserver'), or initialize CUDA only in the child";

// Each is loaded once, on first call, thread-safely. Null when unusable; the status says why.
// Loading the driver also runs cuInit and counts the devices.
const Driver* driver();
const LoadStatus& driver_status();
// NVRTC is matched to the driver: a library newer than the driver's CUDA major version is
// skipped (its cubins would not load), so a machine with several toolkits picks one that works.
const Nvrtc* nvrtc();
const LoadStatus& nvrtc_status();
const Cublas* cublas();
const LoadStatus& cublas_status();
const LoadStatus& cublaslt_status();

// For a process that only compiles (the compile worker, kernel_upgrades.hpp): NVRTC is taken
// without matching it to a driver, which is never loaded. Call before nvrtc().
void compile_only();

// Directories where NVIDIA's pip wheels may hold libraries (site-packages entries); the Python
// package adds sys.path's site directories before anything is loaded.
void add_search_dirs(const std::vector<std::string>& dirs);
// Those directories (then the one accelpy is installed in): where CUDA's headers may be too.
std::vector<std::string> search_dirs();

// The building blocks, exposed for tests.
enum class Library { Driver, Nvrtc, Cublas, CublasLt, Cufft, Cusolver };
// Candidate files in search order: the env override alone when set (ACCELPY_CUDA_DRIVER,
// ACCELPY_NVRTC, ACCELPY_CUBLAS, ACCELPY_CUFFT, ACCELPY_CUSOLVER; a file or a directory), else pip
// wheel directories, CUDA_HOME/CUDA_PATH, /usr/local/cuda, then bare sonames for the system's
// search path.
std::vector<std::string> library_candidates(Library lib);
// Opens the first candidate that loads and exports `symbol`; records every attempt.
void* open_first(const std::vector<std::string>& candidates, const char* symbol,
                 LoadStatus& status);
// Why the CUDA library at `path` ("cuFFT 12.0", made for CUDA `cuda_major`) cannot be used with
// the driver: "" unless it is newer than the driver's CUDA major version (its code would not
// load). Without a driver any version will do (compile-only use).
std::string newer_than_driver(const std::string& path, const std::string& library, int cuda_major);
// Opens the first candidate of a CUDA math library (cuFFT, cuSOLVER: major version CUDA's minus
// one, version numbers major * 1000 + minor * 100 + patch) that `load` accepts and that is not
// newer than the driver; sets status.ok and status.version when one is. `load` resolves the
// entry points and reads the version: "" when usable, else why not.
using MathLibraryLoader =
    std::function<std::string(void* handle, const std::string& path, int& version)>;
void* open_math_library(Library lib, const std::string& title, LoadStatus& status,
                        const MathLibraryLoader& load);

// A math library's entry points (`Fns`: the fields of its X-macro table and `version`) and its
// status, loaded by open_math_library once, on first use, with `LoadFns` (resolves the entry
// points into a Fns and reads its version: "" when usable, else why not).
template <class Fns>
struct LoadedMathLibrary {
  Fns fns;
  LoadStatus status;
  const Fns* usable() const { return status.ok ? &fns : nullptr; }
};

template <class Fns, std::string (*LoadFns)(void*, const std::string&, Fns&)>
const LoadedMathLibrary<Fns>& load_math_library_once(Library lib, const char* title) {
  // Never freed: the entry points are used until the process exits, which runs no teardown.
  static const LoadedMathLibrary<Fns>* loaded = [&] {
    auto* l = new LoadedMathLibrary<Fns>();
    open_math_library(lib, title, l->status, [l](void* h, const std::string& path, int& version) {
      l->fns = Fns{};
      std::string err = LoadFns(h, path, l->fns);
      version = l->fns.version;
      return err;
    });
    return l;
  }();
  return *loaded;
}
// Loads the driver from explicit candidates without touching the process-wide state.
LoadStatus probe_driver(const std::vector<std::string>& candidates);

}  // namespace accel::cuda
