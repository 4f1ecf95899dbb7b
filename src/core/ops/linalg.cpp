// The linalg front-end: NumPy's argument rules and dtypes, the column-major copies the
// libraries factor in place, info codes turned into LinAlgError, and the results as views.
// What is elementwise (det from the LU factors, Cholesky's zeroed triangle) stays lazy, so it
// fuses with what uses the result.
#include "accel/linalg.hpp"

#include <algorithm>
#include <string>

#include "accel/ops.hpp"
#include "src/core/backend.hpp"
#include "src/core/backend_linalg.hpp"

namespace accel::linalg {

namespace {

// The dtype LAPACK computes in, as numpy.linalg's: float32/complex64 stay, other numbers are
// float64 (integers, bool) or themselves; half precision has no LAPACK routine.
DType compute_dtype(DType dt, const char* fn) {
  switch (dt) {
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128:
      return dt;
    case DType::Float16:
    case DType::BFloat16:
      throw TypeError(std::string(fn) + ": array type " + std::string(dtype_name(dt)) +
                      " is unsupported in linalg");
    default:
      return DType::Float64;
  }
}

DType real_of(DType dt) {
  return dt == DType::Complex64 ? DType::Float32 : dt == DType::Complex128 ? DType::Float64 : dt;
}

void check_square(const Array& a) {
  if (a.ndim() < 2) {
    throw LinAlgError(std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
  if (a.shape()[size_t(a.ndim() - 1)] != a.shape()[size_t(a.ndim() - 2)]) {
    throw LinAlgError("Last 2 dimensions of the array must be square (got shape " +
                      shape_str(a.shape()) + ")");
  }
}

// A new contiguous array holding each matrix of `a` column-major (the C-order copy of its
// transpose), in `dtype`, computed.
Array column_major_copy(const Array& a, DType dtype) {
  Array t = astype(swapaxes(a, -1, -2), dtype, true);
  t.eval();
  return t;
}

// The column-major stack `cm` seen as the matrices it holds (a view).
Array as_matrices(const Array& cm) { return swapaxes(cm, -1, -2); }

LinalgBackend& linalg_backend(Device device) {
  LinalgBackend* lb = backend_for(device).linalg();
  if (!lb) throw NotImplementedError("linalg is not available on " + device.str());
  return *lb;
}

int64_t batch_of(const Shape& shape, int matrix_dims) {
  int64_t b = 1;
  for (size_t i = 0; i + size_t(matrix_dims) < shape.size(); ++i) b *= shape[i];
  return b;
}

// Raises LinAlgError for the first failed matrix.
void check_info(const std::vector<int64_t>& info, const char* what) {
  for (int64_t i : info) {
    if (i > 0) throw LinAlgError(what);
    if (i < 0) throw Error("internal: LAPACK argument " + std::to_string(-i) + " was illegal");
  }
}

std::vector<int64_t> run(const LinalgJob& job, Device device) {
  if (job.batch == 0 || job.n == 0) return {};
  return linalg_backend(device).run(job);
}

// The LU factors (column-major, in place of a copy of `a`) and the pivots.
std::pair<Array, Array> lu(const Array& a, const char* fn) {
  check_square(a);
  const DType dt = compute_dtype(a.dtype(), fn);
  Array f = column_major_copy(a, dt);
  const int64_t n = a.shape().back();
  Shape piv_shape(a.shape().begin(), a.shape().end() - 1);
  Array piv = Array::empty(piv_shape, DType::Int64, a.device());
  LinalgJob job;
  job.kind = LinalgKind::Lu;
  job.dtype = dt;
  job.batch = batch_of(a.shape(), 2);
  job.n = n;
  if (f.size()) {
    job.a = f.data();
    job.ipiv = piv.data<int64_t>();
  }
  run(job, a.device());  // a singular U is a valid factorization: det is 0
  return {f, piv};
}

// The diagonals of a stack of square matrices (a view).
Array diagonals(const Array& m) {
  Shape shape(m.shape().begin(), m.shape().end() - 1);
  Strides strides(m.strides().begin(), m.strides().end() - 2);
  strides.push_back(m.strides()[size_t(m.ndim() - 2)] + m.strides()[size_t(m.ndim() - 1)]);
  return m.view(shape, strides, m.offset());
}

// +1 or -1: the parity of the row swaps LAPACK's pivots describe.
Array pivot_sign(const Array& piv, DType dtype) {
  const int64_t n = piv.shape().back();
  Array swapped = not_equal(piv, arange(Scalar::weak_int(1), Scalar::weak_int(n + 1),
                                        Scalar::weak_int(1), DType::Int64, piv.device()));
  Array odd = remainder(sum(swapped, std::vector<int64_t>{-1}, false, DType::Int64), 2);
  return astype(subtract(1, multiply(odd, 2)), dtype);
}

}  // namespace

Array solve(const Array& a, const Array& b) {
  check_square(a);
  const DType dt = compute_dtype(result_type({a, b}), "solve");
  if (a.device() != b.device()) {
    throw ValueError("solve: arrays on different devices (" + a.device().str() + " and " +
                     b.device().str() + ")");
  }
  const int64_t n = a.shape().back();
  const bool vector = b.ndim() == 1;
  Array bm = vector ? reshape(b, {b.shape()[0], 1}) : b;
  if (bm.ndim() < 2 || bm.shape()[size_t(bm.ndim() - 2)] != n) {
    throw ValueError("solve: b has shape " + shape_str(b.shape()) + " but a has shape " +
                     shape_str(a.shape()) + ": b's " + (vector ? "length" : "rows") +
                     " must equal a's size " + std::to_string(n));
  }
  // Batch dimensions broadcast.
  const Shape a_batch(a.shape().begin(), a.shape().end() - 2);
  const Shape b_batch(bm.shape().begin(), bm.shape().end() - 2);
  const Shape batch = broadcast_shapes(a_batch, b_batch);
  Shape a_shape = batch, b_shape = batch;
  a_shape.push_back(n);
  a_shape.push_back(n);
  b_shape.push_back(n);
  b_shape.push_back(bm.shape().back());
  Array fa = column_major_copy(broadcast_to(a, a_shape), dt);
  Array fb = column_major_copy(broadcast_to(bm, b_shape), dt);
  LinalgJob job;
  job.kind = LinalgKind::Solve;
  job.dtype = dt;
  job.batch = batch_of(a_shape, 2);
  job.n = n;
  job.nrhs = b_shape.back();
  if (fa.size() && fb.size()) {
    job.a = fa.data();
    job.b = fb.data();
    check_info(run(job, a.device()), "Singular matrix");
  }
  Array x = as_matrices(fb);
  return vector ? reshape(x, Shape(x.shape().begin(), x.shape().end() - 1)) : x;
}

Array inv(const Array& a) {
  // Solves a x = I: the same LU and triangular solves as LAPACK's getri, and one code path for
  // every library (cuSOLVER has no getri). The job runs on a^T: a C-ordered `a` is a^T in
  // column-major order, and the inverse of a^T, (a^-1)^T, left column-major in x is a^-1 in C
  // order. So no transposing copies, and the result is C-contiguous, as NumPy's.
  check_square(a);
  const DType dt = compute_dtype(a.dtype(), "inv");
  const int64_t n = a.shape().back();
  LinalgJob job;
  job.kind = LinalgKind::Solve;
  job.dtype = dt;
  job.batch = batch_of(a.shape(), 2);
  job.n = n;
  job.nrhs = n;
  job.inverse = true;
  if (job.batch == 0 || n == 0) return Array::empty(a.shape(), dt, a.device());
  using Inputs = LinalgBackend::InverseInputs;
  const Inputs inputs = linalg_backend(a.device()).inverse_inputs(job);
  Array f = astype(a, dt, true), x;  // factored in place
  if (inputs == Inputs::IdentityInB) {
    x = astype(broadcast_to(eye(n, std::nullopt, 0, dt, a.device()), a.shape()), dt, true);
    eval({f, x});
  } else {
    x = Array::empty(a.shape(), dt, a.device());
    f.eval();
  }
  job.a = f.data();
  job.b = x.data();
  check_info(run(job, a.device()), "Singular matrix");
  return x;
}

Array cholesky(const Array& a, bool upper) {
  check_square(a);
  Array f = column_major_copy(a, compute_dtype(a.dtype(), "cholesky"));
  LinalgJob job;
  job.kind = LinalgKind::Cholesky;
  job.dtype = f.dtype();
  job.batch = batch_of(a.shape(), 2);
  job.n = a.shape().back();
  if (f.size()) {
    job.a = f.data();
    check_info(run(job, a.device()), "Matrix is not positive definite");
  }
  // The library leaves the other triangle as it was: zero it (lazily).
  const int64_t n = job.n;
  Array rows = reshape(arange(Scalar::weak_int(0), Scalar::weak_int(n), Scalar::weak_int(1),
                              DType::Int64, a.device()),
                       {n, 1});
  Array cols = reshape(arange(Scalar::weak_int(0), Scalar::weak_int(n), Scalar::weak_int(1),
                              DType::Int64, a.device()),
                       {1, n});
  Array l = where(greater_equal(rows, cols), as_matrices(f), Scalar::weak_int(0));
  return upper ? conj(swapaxes(l, -1, -2)) : l;
}

Array det(const Array& a) {
  auto [f, piv] = lu(a, "det");
  return multiply(pivot_sign(piv, f.dtype()), prod(diagonals(f), std::vector<int64_t>{-1}));
}

std::pair<Array, Array> slogdet(const Array& a) {
  auto [f, piv] = lu(a, "slogdet");
  const Array d = diagonals(f);
  const Array mag = abs(d);
  const Array unit =
      is_complex(d.dtype()) ? where(equal(mag, 0), Scalar::weak_int(0), divide(d, mag)) : sign(d);
  const std::vector<int64_t> last{-1};
  Array sgn = multiply(pivot_sign(piv, f.dtype()), prod(unit, last));
  Array logabs = sum(log(mag), last);
  return {sgn, logabs};
}

namespace {

std::pair<Array, Array> eigh_impl(const Array& a, bool lower, bool vectors, const char* fn) {
  check_square(a);
  Array f = column_major_copy(a, compute_dtype(a.dtype(), fn));
  Shape w_shape(a.shape().begin(), a.shape().end() - 1);
  Array w = Array::empty(w_shape, real_of(f.dtype()), a.device());
  LinalgJob job;
  job.kind = LinalgKind::Eigh;
  job.dtype = f.dtype();
  job.batch = batch_of(a.shape(), 2);
  job.n = a.shape().back();
  // `lower` names a triangle of the matrices; the column-major copy holds them as they are.
  job.lower = lower;
  job.vectors = vectors;
  if (f.size()) {
    job.a = f.data();
    job.w = w.data();
    check_info(run(job, a.device()), "Eigenvalues did not converge");
  }
  return {w, as_matrices(f)};
}

}  // namespace

std::pair<Array, Array> eigh(const Array& a, bool lower) {
  return eigh_impl(a, lower, true, "eigh");
}

Array eigvalsh(const Array& a, bool lower) { return eigh_impl(a, lower, false, "eigvalsh").first; }

namespace {

void check_matrix(const Array& a) {
  if (a.ndim() < 2) {
    throw LinAlgError(std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
}

// The matrices' upper triangle (lower when `lower`); the rest zero (lazy).
Array triangle(const Array& m, bool lower) {
  const int64_t rows = m.shape()[size_t(m.ndim() - 2)], cols = m.shape().back();
  const Array r = reshape(arange(Scalar::weak_int(0), Scalar::weak_int(rows), Scalar::weak_int(1),
                                 DType::Int64, m.device()),
                          {rows, 1});
  const Array c = reshape(arange(Scalar::weak_int(0), Scalar::weak_int(cols), Scalar::weak_int(1),
                                 DType::Int64, m.device()),
                          {1, cols});
  return where(lower ? greater_equal(r, c) : less_equal(r, c), m, Scalar::weak_int(0));
}

Shape with_matrix(const Shape& batch, int64_t rows, int64_t cols) {
  Shape s = batch;
  s.push_back(rows);
  s.push_back(cols);
  return s;
}

Svd svd_impl(const Array& a, bool full, bool vectors) {
  check_matrix(a);
  const DType dt = compute_dtype(a.dtype(), "svd");
  const int64_t rows = a.shape()[size_t(a.ndim() - 2)], cols = a.shape().back();
  // The libraries take m >= n (cuSOLVER's gesvd only that): a wide matrix is decomposed as its
  // transpose, whose column-major copy is a's C-order copy: a^T = u' s vh' gives
  // a = vh'^T s u'^T.
  const bool wide = rows < cols;
  const int64_t m = wide ? cols : rows, n = wide ? rows : cols;
  Array f = wide ? astype(a, dt, true) : column_major_copy(a, dt);
  f.eval();
  const Shape batch(a.shape().begin(), a.shape().end() - 2);
  Shape s_shape = batch;
  s_shape.push_back(n);
  Array s = Array::empty(s_shape, real_of(dt), a.device());
  const int64_t ucols = full ? m : n;
  // Column-major buffers: u is m x ucols, v n x n.
  Array u = vectors ? Array::empty(with_matrix(batch, ucols, m), dt, a.device()) : Array();
  Array v = vectors ? Array::empty(with_matrix(batch, n, n), dt, a.device()) : Array();
  LinalgJob job;
  job.kind = LinalgKind::Svd;
  job.dtype = dt;
  job.batch = batch_of(a.shape(), 2);
  job.m = m;
  job.n = n;
  job.vectors = vectors;
  job.full = full;
  if (f.size()) {
    job.a = f.data();
    job.w = s.data();
    if (vectors) {
      job.u = u.data();
      job.v = v.data();
    }
    check_info(run(job, a.device()), "SVD did not converge");
  } else if (vectors && n == 0) {
    // No singular values: u is the identity when full (as NumPy returns), else empty.
    if (full && m > 0) {
      u = astype(broadcast_to(eye(m, std::nullopt, 0, dt, a.device()), u.shape()), dt, true);
    }
  }
  if (!vectors) return {Array(), s, Array()};
  // v's buffer read in C order is V^T, so V^H is its conjugate. A wide a was decomposed as
  // a^T = u' s v'^H: a = conj(v') s u'^T, and u's buffer read in C order is u'^T.
  const auto conj_if_complex = [&](const Array& x) { return is_complex(dt) ? conj(x) : x; };
  if (wide) return {conj_if_complex(as_matrices(v)), s, u};
  return {as_matrices(u), s, conj_if_complex(v)};
}

}  // namespace

Svd svd(const Array& a, bool full_matrices) { return svd_impl(a, full_matrices, true); }

Array svdvals(const Array& a) { return svd_impl(a, false, false).s; }

std::pair<Array, Array> qr(const Array& a, const std::string& mode) {
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw") {
    throw ValueError("Unrecognized mode '" + mode + "'");
  }
  check_matrix(a);
  const DType dt = compute_dtype(a.dtype(), "qr");
  const int64_t m = a.shape()[size_t(a.ndim() - 2)], n = a.shape().back(), k = std::min(m, n);
  const Shape batch(a.shape().begin(), a.shape().end() - 2);
  Array f = column_major_copy(a, dt);
  Shape tau_shape = batch;
  tau_shape.push_back(k);
  Array tau = Array::empty(tau_shape, dt, a.device());
  const bool vectors = mode == "reduced" || mode == "complete";
  const int64_t qcols = mode == "complete" ? m : k;
  Array q = vectors ? Array::empty(with_matrix(batch, qcols, m), dt, a.device()) : Array();
  LinalgJob job;
  job.kind = LinalgKind::Qr;
  job.dtype = dt;
  job.batch = batch_of(a.shape(), 2);
  job.m = m;
  job.n = n;
  job.qcols = qcols;
  job.vectors = vectors;
  if (f.size()) {
    job.a = f.data();
    job.w = tau.data();
    if (vectors) job.u = q.data();
    check_info(run(job, a.device()), "QR factorization failed");
  } else if (vectors && qcols > 0) {
    // Nothing to factor (n == 0 or an empty batch): q is the identity's first columns.
    q = astype(broadcast_to(eye(qcols, m, 0, dt, a.device()), q.shape()), dt, true);
  }
  if (mode == "raw") return {f, tau};
  const Array factors = as_matrices(f);
  const int64_t r_rows = mode == "complete" ? m : k;
  std::vector<Index> rows(size_t(a.ndim()), Index{Slice{}});
  rows[size_t(a.ndim() - 2)] = Slice{std::nullopt, r_rows, std::nullopt};
  Array r = triangle(index(factors, rows), false);
  if (!vectors) return {Array(), r};
  return {as_matrices(q), r};
}

std::pair<Array, Array> eig(const Array& a, bool vectors) {
  check_square(a);
  const DType real = compute_dtype(a.dtype(), "eig");
  const DType dt =
      real == DType::Float32 || real == DType::Complex64 ? DType::Complex64 : DType::Complex128;
  Array f = column_major_copy(a, dt);
  const int64_t n = a.shape().back();
  Shape w_shape(a.shape().begin(), a.shape().end() - 1);
  Array w = Array::empty(w_shape, dt, a.device());
  Array v = vectors ? Array::empty(a.shape(), dt, a.device()) : Array();
  LinalgJob job;
  job.kind = LinalgKind::Eig;
  job.dtype = dt;
  job.batch = batch_of(a.shape(), 2);
  job.n = n;
  job.vectors = vectors;
  if (f.size()) {
    job.a = f.data();
    job.w = w.data();
    if (vectors) job.u = v.data();
    check_info(run(job, a.device()), "Eigenvalues did not converge");
  }
  return {w, vectors ? as_matrices(v) : Array()};
}

}  // namespace accel::linalg
