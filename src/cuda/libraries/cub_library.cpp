#include "src/cuda/libraries/cub_library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "accel/errors.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/context.hpp"
#include "src/cuda/libraries/cub/accel_cub.h"

namespace accel::cuda {

namespace {

constexpr const char* kLibraryName = "libaccel_cub.so";

struct CubLibrary {
#define ACCEL_CUB_FN(field, symbol) decltype(&symbol) field = nullptr;
#include "src/cuda/libraries/accel_cub_fns.def"
#undef ACCEL_CUB_FN
  LoadStatus status;
};

bool is_dir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::vector<std::string> candidates() {
  if (const char* env = std::getenv("ACCELPY_CUB"); env && *env) {
    const std::string p(env);
    return {is_dir(p) ? p + "/" + kLibraryName : p};
  }
  std::vector<std::string> out;
  // Next to the binary this code is linked into: the extension module in an installed package.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&candidates), &info) && info.dli_fname) {
    out.push_back(directory_of(info.dli_fname) + "/" + kLibraryName);
  }
#ifdef ACCEL_CUB_BUILD_PATH
  out.push_back(ACCEL_CUB_BUILD_PATH);  // the build tree, for the C++ tests
#endif
  return out;
}

// Loads the library once; its status says whether that worked.
const CubLibrary& load() {
  static CubLibrary lib;
  static std::once_flag once;
  std::call_once(once, [] {
    LoadStatus& s = lib.status;
    void* h = open_first(candidates(), "accel_cub_abi_version", s);
    if (!h) return;
    dynlib::Symbols symbols(h);
    decltype(&accel_cub_abi_version) abi = nullptr;
    symbols.need("accel_cub_abi_version", abi);
    if (abi() != ACCEL_CUB_ABI_VERSION) {
      s.error = s.path + " has interface version " + std::to_string(abi()) +
                ", this accelpy needs " + std::to_string(ACCEL_CUB_ABI_VERSION) +
                " (a library from another build)";
      return;
    }
#define ACCEL_CUB_FN(field, symbol) symbols.need(#symbol, lib.field);
#include "src/cuda/libraries/accel_cub_fns.def"
#undef ACCEL_CUB_FN
    const bool ok = symbols.missing().empty();
    if (!ok) {
      s.error = s.path + " lacks an entry point";
      return;
    }
    s.version = std::to_string(ACCEL_CUB_ABI_VERSION);
    s.ok = true;
  });
  return lib;
}

// The loaded library, or an Error saying why there is none and how to get it.
const CubLibrary& library() {
  const CubLibrary& lib = load();
  if (!lib.status.ok) {
    throw Error(
        "this operation needs accelpy's CUB library (libaccel_cub.so) on CUDA devices, which "
        "could not be loaded: " +
        lib.status.error +
        ". It is built only when CMake finds nvcc (the CUDA toolkit) while building accelpy; "
        "rebuild with the toolkit installed, or set ACCELPY_CUB to the library's path");
  }
  return lib;
}

void check_cub(const CubLibrary& lib, int r, const char* what, int device) {
  if (r == 0) return;
  throw Error(std::string("CUB ") + what + " failed on cuda:" + std::to_string(device) + ": " +
              lib.error_string(r));
}

accel_cub_stream stream_of(const DeviceContext& c) {
  return reinterpret_cast<accel_cub_stream>(c.stream());
}

// Runs a CUB call twice: once to size its temporary memory, then with that memory from the
// pool (freed in stream order right after the call is queued).
template <class Call>
void with_temp(DeviceContext& c, const CubLibrary& lib, const char* what, Call&& call) {
  size_t bytes = 0;
  check_cub(lib, call(nullptr, &bytes), what, c.index);
  void* temp = device_allocate(c, bytes);
  const int r = call(temp, &bytes);
  device_free(c, temp, bytes);
  check_cub(lib, r, what, c.index);
}

}  // namespace

const LoadStatus& cub_status() { return load().status; }

bool cub_available() { return load().status.ok; }

void cub_sort(int device, DType dtype, bool descending, const void* keys, void* keys_out,
              int64_t* indices_out, int64_t rows, int64_t len) {
  const CubLibrary& lib = library();
  DeviceContext& c = context(device);
  c.make_current();
  with_temp(c, lib, "sort", [&](void* temp, size_t* bytes) {
    return lib.sort(int(dtype), descending, keys, keys_out, indices_out, rows, len, temp, bytes,
                    stream_of(c));
  });
}

void cub_scan(int device, DType dtype, ScanOp op, const void* in, void* out, int64_t rows,
              int64_t len) {
  const CubLibrary& lib = library();
  DeviceContext& c = context(device);
  c.make_current();
  with_temp(c, lib, "scan", [&](void* temp, size_t* bytes) {
    return lib.scan(int(dtype), op == ScanOp::Sum ? 0 : 1, in, out, rows, len, temp, bytes,
                    stream_of(c));
  });
}

void select_flagged(int device, const void* in, size_t elem_size, const bool* flags, void* out,
                    int64_t* num_selected, int64_t n) {
  const CubLibrary& lib = library();
  DeviceContext& c = context(device);
  c.make_current();
  with_temp(c, lib, "select", [&](void* temp, size_t* bytes) {
    return lib.select_flagged(elem_size, in, reinterpret_cast<const uint8_t*>(flags), out,
                              num_selected, n, temp, bytes, stream_of(c));
  });
}

void gather(int device, size_t elem_size, const void* src, const int64_t* index, void* out,
            int64_t n) {
  const CubLibrary& lib = library();
  DeviceContext& c = context(device);
  c.make_current();
  check_cub(lib, lib.gather(elem_size, src, index, out, n, stream_of(c)), "gather", device);
}

void searchsorted(int device, DType dtype, bool right, const void* sorted, int64_t len,
                  const int64_t* sorter, const void* values, int64_t n, int64_t* out) {
  const CubLibrary& lib = library();
  DeviceContext& c = context(device);
  c.make_current();
  check_cub(lib,
            lib.searchsorted(int(dtype), right, sorted, len, sorter, values, n, out, stream_of(c)),
            "searchsorted", device);
}

}  // namespace accel::cuda
