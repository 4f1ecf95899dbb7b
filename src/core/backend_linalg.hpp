// What a backend provides for linear algebra (the front-end is src/core/ops/linalg.cpp).
//
// Matrices are column-major (LAPACK's and cuSOLVER's order), packed one after another: the
// front-end hands over contiguous copies it made (the factorizations overwrite them), in the
// dtype computed in (float32, float64, complex64, complex128).
#pragma once

#include <cstdint>
#include <vector>

#include "accel/dtype.hpp"

namespace accel {

enum class LinalgKind : uint8_t {
  Lu,        // getrf: a <- L\U (unit L), ipiv <- 1-based row swaps; info > 0: U is singular
  Solve,     // getrf + getrs: a <- L\U, b (n x nrhs) <- a^-1 b; info > 0: singular
  Cholesky,  // potrf, lower: a's lower triangle <- L (the upper one is left as it was);
             // info > 0: not positive definite
  Eigh,      // syevd/heevd of the `lower` (else upper) triangle: w <- ascending eigenvalues
             // (real dtype), a <- eigenvectors when `vectors`; info > 0: no convergence
  Svd,       // the SVD a = U S V^H of the m x n matrix a, m >= n (a is destroyed): w <- the n
             // singular values (real dtype, descending); when `vectors`, u <- U, m x (full ? m
             // : n), and v <- V, n x n (not V^H: cuSOLVER's gesvdj gives V); info > 0: no
             // convergence
  Qr,        // geqrf of the m x n matrix a: a's upper triangle <- R, the reflectors below it,
             // w <- tau (min(m, n) values); when `vectors`, u <- the first `qcols` columns of Q
             // (m x qcols, qcols >= min(m, n))
  Eig,       // geev of the complex n x n matrix a (destroyed): w <- the eigenvalues (complex);
             // when `vectors`, u <- the right eigenvectors (n x n, unit columns);
             // info > 0: no convergence
};

struct LinalgJob {
  LinalgKind kind = LinalgKind::Lu;
  DType dtype = DType::Float64;
  int64_t batch = 1;
  int64_t n = 0;      // a is n x n (Svd, Qr: m x n)
  int64_t m = 0;      // Svd, Qr
  int64_t nrhs = 0;   // Solve: b is n x nrhs
  int64_t qcols = 0;  // Qr
  bool lower = true;
  bool vectors = true;
  bool full = false;     // Svd
  bool inverse = false;  // Solve with b = I (inv): a backend may write a^-1 to b another way,
                         // or, as inverse_inputs() says, with b uninitialized
  void* a = nullptr;
  void* b = nullptr;
  void* w = nullptr;
  void* u = nullptr;
  void* v = nullptr;
  int64_t* ipiv = nullptr;  // Lu: batch x n, device memory

  // Elements of one matrix of a (batch matrices, one after another).
  int64_t matrix_size() const {
    return kind == LinalgKind::Svd || kind == LinalgKind::Qr ? m * n : n * n;
  }
};

class LinalgBackend {
 public:
  virtual ~LinalgBackend() = default;
  // Runs the job (CUDA: queues it, then waits for the info codes, which decide whether the
  // call raises); returns each matrix's info code (LAPACK's meaning; 0 is success).
  virtual std::vector<int64_t> run(const LinalgJob& job) = 0;
  // What an inverse job (`inverse`) needs of its operands besides a copy of a to factor in
  // place: the identity in b (LAPACK's getrs against I), or b only written (getrf + getri
  // out of place), when the caller skips building the identity.
  enum class InverseInputs { IdentityInB, OverwritesA };
  virtual InverseInputs inverse_inputs(const LinalgJob& /*job*/) {
    return InverseInputs::IdentityInB;
  }
};

}  // namespace accel
