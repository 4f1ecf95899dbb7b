// Opening shared libraries at run time (dlopen), so that accelpy has no link-time dependency on
// CUDA or a BLAS: where to look (an environment override, site-packages directories such as
// NVIDIA's pip wheels or NumPy's bundled OpenBLAS, the CUDA toolkit, the system's search path),
// trying the candidates in order with the reason each one was passed over, and resolving a
// table of entry points. Used by the CUDA libraries' loaders (src/cuda/driver/loader.cpp,
// src/cuda/libraries/cufft.cpp, cusolver.cpp, cub_library.cpp; each lists its entry points in an
// X-macro table, *_fns.def) and the CPU BLAS loader (src/cpu/blas_loader.cpp); `python -m
// accelpy info` prints the statuses they keep.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace accel::dynlib {

// What happened when a library was looked for: where it was found, or why not.
struct LoadStatus {
  bool ok = false;
  std::string path;     // the file opened
  std::string version;  // "12.4"
  std::string error;    // why it is not usable
  std::vector<std::string> tried;
};

// Where to look for one library; candidates() lists the files in this order.
struct Search {
  // Environment variable naming a file or a directory (searched for `names`): when set, the
  // only place looked.
  const char* env = nullptr;
  // Whether "0" or "off" in `env` turns the library off (no candidates at all).
  bool env_can_disable = false;
  // The library's file names (sonames), preferred first.
  std::vector<std::string> names;
  // Relative to each site-packages directory: a directory to look for `names` in
  // ("nvidia/cu13/lib"), or, ending in '*', a file-name prefix: every shared library in that
  // directory whose name starts with it, sorted ("numpy.libs/libscipy_openblas*").
  std::vector<std::string> site_paths;
  // Then CUDA_HOME and CUDA_PATH, then /usr/local/cuda (their lib64 and lib) for `names`.
  bool cuda_toolkit = false;
  // Last, the bare names, for the dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
};

// Candidate files for `search` in order, each once. Files found in directories exist; the
// override is listed as given (a directory without the library as its first name's path, so
// that the status reports it as not found).
std::vector<std::string> candidates(const Search& search,
                                    const std::vector<std::string>& site_dirs);

// Site-packages directories registered at run time (the Python package passes sys.path's),
// each once, in registration order. Thread-safe.
class SiteDirs {
 public:
  void add(const std::vector<std::string>& dirs);
  // The registered directories, then the one this shared object is installed in, so that C++
  // programs get the same search as Python.
  std::vector<std::string> get() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> dirs_;
};

// The site-packages directory this shared object lies in (…/site-packages/accelpy/_core.so ->
// …/site-packages); empty when unknown.
std::string own_site_dir();

// Decides whether an opened library is usable: "" to keep it, else why not (the library is then
// closed and the next candidate tried).
using Accept = std::function<std::string(void* handle, const std::string& path)>;

// Accepts a library that exports `symbol`.
Accept exporting(const char* symbol);

// Opens the first candidate that dlopen loads (RTLD_NOW | RTLD_LOCAL) and `accept` keeps, and
// returns its handle (null when none). Every attempt is recorded in status.tried; on success
// status.path is set and status.error cleared (status.ok is the caller's to set, once the
// library is ready). On failure status.error says why: the reasons the libraries that opened
// were passed over ("; "-joined), else the loader's last error, else that nothing was found.
void* open_first(const std::vector<std::string>& candidates, LoadStatus& status,
                 const Accept& accept);

// Resolves entry points of an opened library into function pointers, a table of
// name -> pointer, remembering which required ones the library lacks.
class Symbols {
 public:
  explicit Symbols(void* handle) : handle_(handle) {}
  // fn = the address of `name`; a missing required name is recorded. Returns whether found.
  template <class F>
  bool need(const char* name, F& fn) {
    fn = reinterpret_cast<F>(address(name));
    if (!fn) missing_ += (missing_.empty() ? "" : ", ") + std::string(name);
    found_ += fn != nullptr;
    return fn != nullptr;
  }
  // fn = the address of `name`, or null: an entry point only some versions have.
  template <class F>
  bool want(const char* name, F& fn) {
    fn = reinterpret_cast<F>(address(name));
    return fn != nullptr;
  }
  void* address(const char* name) const;
  // The required names not found ("a, b"); empty when all were.
  const std::string& missing() const { return missing_; }
  // Why the library at `path` is not a usable `library` ("cuFFT"): "" when every required name
  // was found; "<path>: not cuFFT (does not export cufftCreate)" when none was; else the missing
  // names, and that `library` `minimum` ("10") or newer is needed.
  std::string error(const std::string& path, const std::string& library,
                    const std::string& minimum) const;

 private:
  void* handle_;
  std::string missing_;
  int found_ = 0;
};

}  // namespace accel::dynlib
