// matmul: NumPy's gufunc (n?,k),(k,m?)->(n?,m?) rules, batch broadcasting, type promotion, and
// the reduction of every case to strided-batched GEMMs a backend runs (backend_matmul.hpp).
//
// Matrix products are not fused: the operands are computed, then the GEMM runs at once through
// the device's backend (in stream order on CUDA) into a new array.
#include <algorithm>
#include <string>

#include "accel/errors.hpp"
#include "src/core/backend.hpp"
#include "src/core/backend_matmul.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/type_rules.hpp"

namespace accel {

namespace {

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

// The BLAS layout of a rows x cols matrix with these strides (backend_matmul.hpp), if it has one.
// Strides of length-1 dimensions do not matter and are replaced by ones BLAS accepts.
bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, GemmOperand& out) {
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= std::max<int64_t>(1, cols))) {
    out.row_stride = rows == 1 ? std::max<int64_t>(1, cols) : rs;
    out.col_stride = 1;
    return true;
  }
  if ((rs == 1 || rows == 1) && (cols == 1 || cs >= std::max<int64_t>(1, rows))) {
    out.row_stride = 1;
    out.col_stride = cols == 1 ? std::max<int64_t>(1, rows) : cs;
    return true;
  }
  return false;
}

bool has_blas_layout(const Array& m) {
  GemmOperand unused;
  const int nd = m.ndim();
  return blas_layout(m.shape()[nd - 2], m.shape()[nd - 1], m.strides()[nd - 2], m.strides()[nd - 1],
                     unused);
}

// One batch dimension after merging: its length and each operand's stride (elements).
struct BatchDim {
  int64_t size, a, b, c;
};

// A vector as the one-row (first operand) or one-column (second) matrix matmul takes it for: a view
// of the same elements, as reshape makes it (a length-1 axis's stride is never read), without
// reshape's shape resolution (a loop's dot products pay it per call).
Array as_matrix(const Array& v, bool row) {
  const int64_t k = v.shape()[0], s = v.strides()[0];
  return row ? v.view(Shape{1, k}, Strides{k * s, s}, v.offset())
             : v.view(Shape{k, 1}, Strides{s, 1}, v.offset());
}

}  // namespace

Array matmul(const Array& x1, const Array& x2) {
  const ArrayOrScalar o1(x1), o2(x2);
  const ArrayOrScalar* operands[] = {&o1, &o2};
  const Device device = common_device(OperandSpan(operands, 2));
  for (int i = 0; i < 2; ++i) {
    const Array& x = i == 0 ? x1 : x2;
    if (x.ndim() == 0) {
      throw ValueError("matmul: Input operand " + std::to_string(i) +
                       " does not have enough dimensions (has 0, gufunc core with signature " +
                       kSignature + " requires 1)");
    }
  }
  const DType dtype = result_type_of(OperandSpan(operands, 2));
  // 1-D operands become a row (first) or a column (second), removed from the result again.
  Array a = x1.ndim() == 1 ? as_matrix(x1, true) : x1;
  Array b = x2.ndim() == 1 ? as_matrix(x2, false) : x2;
  const int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1];
  const int64_t n = b.shape()[b.ndim() - 1];
  if (b.shape()[b.ndim() - 2] != k) {
    throw ValueError(
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
        "signature " +
        std::string(kSignature) + " (size " + std::to_string(b.shape()[b.ndim() - 2]) +
        " is different from " + std::to_string(k) + ")");
  }
  const Shape batch_a(a.shape().begin(), a.shape().end() - 2);
  const Shape batch_b(b.shape().begin(), b.shape().end() - 2);
  Shape batch;
  try {
    batch = broadcast_shapes(batch_a, batch_b);
  } catch (const ValueError&) {
    throw ValueError("matmul: the batch dimensions of the operands, " + shape_str(batch_a) +
                     " and " + shape_str(batch_b) + " (shapes " + shape_str(x1.shape()) + " and " +
                     shape_str(x2.shape()) + "), could not be broadcast together");
  }
  Shape out_shape = batch;
  if (x1.ndim() > 1) out_shape.push_back(m);
  if (x2.ndim() > 1) out_shape.push_back(n);
  if (shape_size(out_shape) == 0) return Array::empty(out_shape, dtype, device);
  if (k == 0) return zeros(out_shape, dtype, device);

  // Operands in the result dtype, in a layout BLAS describes (else a contiguous copy), computed.
  a = cast_to(a, dtype);
  b = cast_to(b, dtype);
  if (!has_blas_layout(a)) a = copy(a);
  if (!has_blas_layout(b)) b = copy(b);
  a.eval();
  b.eval();

  Gemm g;
  g.dtype = dtype;
  g.m = m;
  g.n = n;
  g.k = k;
  blas_layout(m, k, a.strides()[a.ndim() - 2], a.strides()[a.ndim() - 1], g.a);
  blas_layout(k, n, b.strides()[b.ndim() - 2], b.strides()[b.ndim() - 1], g.b);

  // Batch dimensions, broadcast (stride 0) and merged where every operand walks them alike.
  const int nb = int(batch.size());
  const Array ab = broadcast_view(a, [&] {
    Shape s = batch;
    s.push_back(m);
    s.push_back(k);
    return s;
  }());
  const Array bb = broadcast_view(b, [&] {
    Shape s = batch;
    s.push_back(k);
    s.push_back(n);
    return s;
  }());
  std::vector<BatchDim> dims;
  int64_t c_stride = m * n;
  for (int d = nb - 1; d >= 0; --d) {
    const BatchDim bd{batch[d], ab.strides()[d], bb.strides()[d], c_stride};
    c_stride *= batch[d];
    if (bd.size == 1) continue;
    if (!dims.empty()) {
      BatchDim& in = dims.back();
      if (bd.a == in.a * in.size && bd.b == in.b * in.size && bd.c == in.c * in.size) {
        in.size *= bd.size;
        continue;
      }
    }
    dims.push_back(bd);
  }
  // The innermost merged dimension is the GEMM's batch; the others are looped over here.
  if (!dims.empty() && dims.front().a >= 0 && dims.front().b >= 0) {
    g.batch = dims.front().size;
    g.a.batch_stride = dims.front().a;
    g.b.batch_stride = dims.front().b;
    dims.erase(dims.begin());
  }
  // One B for the whole batch, and A's matrices the consecutive rows of one matrix (`x @ W`
  // with x of 3 dimensions): one GEMM of batch * m rows into C, which is contiguous, instead of
  // a GEMM per matrix (small ones cost their call each: 400 of 1 x 32 for NPBench's doitgen).
  if (g.batch > 1 && g.b.batch_stride == 0 && g.a.col_stride == 1 &&
      g.a.batch_stride >= std::max<int64_t>(1, k) &&
      (m == 1 || g.a.batch_stride == m * g.a.row_stride)) {
    g.a.row_stride = m == 1 ? g.a.batch_stride : g.a.row_stride;
    g.m *= g.batch;
    g.batch = 1;
    g.a.batch_stride = 0;
  }

  Array out = Array::empty(out_shape, dtype, device);
  const int64_t item = int64_t(itemsize(dtype));
  const char* pa = static_cast<const char*>(a.data());
  const char* pb = static_cast<const char*>(b.data());
  char* pc = static_cast<char*>(out.data());
  Backend& backend = backend_for(device);
  int64_t outer = 1;
  for (const BatchDim& d : dims) outer *= d.size;
  for (int64_t idx = 0; idx < outer; ++idx) {
    int64_t rest = idx, oa = 0, ob = 0, oc = 0;
    for (const BatchDim& d : dims) {
      const int64_t i = rest % d.size;
      rest /= d.size;
      oa += i * d.a;
      ob += i * d.b;
      oc += i * d.c;
    }
    g.a.data = pa + oa * item;
    g.b.data = pb + ob * item;
    g.c = pc + oc * item;
    backend.gemm(g);
  }
  return out;
}

}  // namespace accel
