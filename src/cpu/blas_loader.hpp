// Finding a CBLAS at run time (dlopen), so that the CPU backend uses an optimized BLAS without
// a link-time dependency: the one the user names, NumPy's bundled OpenBLAS, or the system's.
//
// Search order (the first file that opens and exports a usable dgemm wins; the search itself is
// src/util/dynamic_library.hpp's, shared with the CUDA libraries):
//   1. ACCELPY_BLAS: a file, or a directory holding one of the system names below (the only
//      place looked when set; "off"/"0" disables BLAS).
//   2. NumPy's bundled OpenBLAS: site-packages/numpy.libs/libscipy_openblas*.so (NumPy 2 wheels;
//      symbols carry the prefix "scipy_" and the suffix "64_", integers are 64-bit) or
//      site-packages/numpy/.libs/libopenblas*.so (older wheels), in the site directories the
//      Python package registers and the one this library lives in.
//   3. System libraries: libopenblas.so.0, libopenblas64_.so.0 (suffix "64_", 64-bit), libmkl_rt,
//      libcblas.so.3, libblas.so.3.
// Nothing is loaded until a matmul needs it, so `import accelpy` stays fast.
#pragma once

#include <string>
#include <vector>

#include "src/util/dynamic_library.hpp"

namespace accel::cpu {

// ok, path, error (why none was usable) and tried as for every library loaded at run time.
struct BlasStatus : dynlib::LoadStatus {
  std::string name;    // "scipy_openblas64 0.3.29 ...", "OpenBLAS ...", "reference BLAS"
  std::string prefix;  // symbol decoration: prefix + name + suffix ("scipy_" / "64_")
  std::string suffix;
  bool int64 = false;  // integer arguments are 64-bit (ILP64)
};

// Loads on first call (thread-safe) and reports what was found.
const BlasStatus& blas_status();

// The address of BLAS/LAPACK routine `name` in the loaded library, with the library's symbol
// decoration applied ("cblas_dgemm" -> "scipy_cblas_dgemm64_"; Fortran "dgetrf_" ->
// "scipy_dgetrf_64_"), or nullptr (no BLAS, or the library lacks it). Callers must pass the
// integer width blas_status().int64 says.
void* blas_symbol(const char* name);

// Site-packages directories to search for NumPy's bundled OpenBLAS (the Python package registers
// sys.path's before the first matmul).
void add_blas_search_dirs(const std::vector<std::string>& dirs);

// The building blocks, exposed for tests.
// Candidate files in search order (see above).
std::vector<std::string> blas_candidates();
// Tries the candidates in order without touching the process-wide state.
BlasStatus probe_blas(const std::vector<std::string>& candidates);

}  // namespace accel::cpu
