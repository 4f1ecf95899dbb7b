// Linear algebra on stacks of matrices (numpy.linalg's factorization-based functions):
// batched over leading dimensions, through LAPACK on the CPU and cuSOLVER on CUDA devices.
//
// These run eagerly (the inputs are evaluated, the library is called in the device's stream
// order) and check the library's info codes: a singular or not positive definite matrix raises
// LinAlgError on every device, as NumPy does. Integer and bool inputs compute in float64;
// float16 and bfloat16 are a TypeError, as in numpy.linalg.
#pragma once

#include <string>
#include <utility>

#include "accel/array.hpp"
#include "accel/errors.hpp"

namespace accel {

// numpy.linalg.LinAlgError (a ValueError).
struct LinAlgError : ValueError {
  using ValueError::ValueError;
};

namespace linalg {

// x with a @ x = b. b is a vector (..., n) only when it is 1-D (NumPy 2's rule), else a stack
// of (n, k) matrices; batch dimensions broadcast.
Array solve(const Array& a, const Array& b);
Array inv(const Array& a);
// The lower (or, with `upper`, upper) Cholesky factor of Hermitian positive definite matrices.
Array cholesky(const Array& a, bool upper = false);
Array det(const Array& a);
// (sign, log|det|); sign is 0 and log|det| -inf for singular matrices.
std::pair<Array, Array> slogdet(const Array& a);
// Eigenvalues (ascending, real) and eigenvectors (columns) of Hermitian matrices, from the lower
// triangle (`lower`) or the upper one.
std::pair<Array, Array> eigh(const Array& a, bool lower = true);
Array eigvalsh(const Array& a, bool lower = true);

// Eigenvalues and right eigenvectors (unit columns) of general square matrices, computed in
// complex arithmetic (complex64 for float32/complex64 input, else complex128). NumPy returns
// real arrays when every eigenvalue of a real input is real: accelpy.linalg does that (a check
// that reads back one flag).
std::pair<Array, Array> eig(const Array& a, bool vectors = true);

struct Svd {
  Array u, s, vh;  // a = u @ diag(s) @ vh; s descending, real
};
// The singular value decomposition of each matrix (m x n): u is m x m (full_matrices) or
// m x min(m, n), vh min(m, n) x n or n x n.
Svd svd(const Array& a, bool full_matrices = true);
Array svdvals(const Array& a);

// numpy.linalg.qr: mode "reduced" (q: m x k, r: k x n, k = min(m, n)), "complete" (q: m x m,
// r: m x n), "r" (r only; q is left undefined) or "raw" (q <- h, r <- tau, LAPACK's
// Householder form: h is n x m).
std::pair<Array, Array> qr(const Array& a, const std::string& mode = "reduced");

}  // namespace linalg
}  // namespace accel
