// The FFT front-end: argument checks, dtype rules, cutting/padding, and the layout the
// backends take (contiguous, transformed axes last). The transforms themselves are the
// backend's library (src/cpu/fft.cpp: pocketfft; src/cuda/fft.cpp: cuFFT).
#include "accel/fft.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "accel/errors.hpp"
#include "accel/ops.hpp"
#include "src/core/backend.hpp"
#include "src/core/backend_fft.hpp"

namespace accel::fft {

namespace {

bool single_precision(DType dt) {
  return dt == DType::Float16 || dt == DType::BFloat16 || dt == DType::Float32 ||
         dt == DType::Complex64;
}
DType complex_for(DType dt) { return single_precision(dt) ? DType::Complex64 : DType::Complex128; }
DType real_for(DType dt) { return single_precision(dt) ? DType::Float32 : DType::Float64; }

// Axes normalized and distinct, lengths checked.
std::vector<int> check_axes(const Array& a, const std::vector<int64_t>& axes,
                            const std::vector<int64_t>& lengths) {
  if (axes.empty()) throw ValueError("at least one axis must be transformed");
  if (lengths.size() != axes.size()) {
    throw ValueError("shape and axes have different lengths: " + std::to_string(lengths.size()) +
                     " and " + std::to_string(axes.size()));
  }
  for (int64_t n : lengths) {
    if (n < 1)
      throw ValueError("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
  }
  return normalize_axes(axes, a.ndim());
}

// `a` with `axis` cut (a view) or zero-padded (a new array) to `n`.
Array resize_axis(const Array& a, int axis, int64_t n) {
  const int64_t have = a.shape()[size_t(axis)];
  if (have == n) return a;
  std::vector<Index> region(size_t(a.ndim()), Index{Slice{}});
  region[size_t(axis)] = Slice{std::nullopt, std::min(have, n), std::nullopt};
  if (have > n) return index(a, region);
  Shape shape = a.shape();
  shape[size_t(axis)] = n;
  Array padded = zeros(shape, a.dtype(), a.device());
  index_assign(padded, region, index(a, region));
  return padded;
}

// The layout the backends take: axes moved last (in the given order), C-contiguous,
// computed. `fresh` forces a copy the backend may overwrite.
Array transform_layout(const Array& a, const std::vector<int>& axes, bool fresh) {
  std::vector<int64_t> src(axes.begin(), axes.end()), dst;
  const int k = int(axes.size());
  for (int i = 0; i < k; ++i) dst.push_back(a.ndim() - k + i);
  Array moved = moveaxis(a, src, dst);
  if (fresh || !moved.is_contiguous()) moved = copy(moved);
  moved.eval();
  // cuFFT wants its data aligned to the complex type (a view at an odd offset is not).
  if (moved.size() && reinterpret_cast<uintptr_t>(moved.data()) % 16 != 0) {
    moved = copy(moved);
    moved.eval();
  }
  return moved;
}

// Where the transformed axes go back to: the inverse of transform_layout's move.
Array restore_layout(const Array& out, const std::vector<int>& axes) {
  std::vector<int64_t> src, dst(axes.begin(), axes.end());
  const int k = int(axes.size());
  for (int i = 0; i < k; ++i) src.push_back(out.ndim() - k + i);
  return moveaxis(out, src, dst);
}

FftBackend& fft_backend(Device device) {
  FftBackend* fb = backend_for(device).fft();
  if (!fb) throw NotImplementedError("FFTs are not available on " + device.str());
  return *fb;
}

double scale_for(Norm norm, bool inverse, double n) {
  switch (norm) {
    case Norm::Backward:
      return inverse ? 1 / n : 1;
    case Norm::Ortho:
      return 1 / std::sqrt(n);
    case Norm::Forward:
      return inverse ? 1 : 1 / n;
  }
  return 1;
}

// Runs one job over `in` (transform layout, last `n.size()` axes transformed) into a new
// array of `out_shape`, and applies the scale (lazily where the library does not).
Array execute(FftKind kind, const Array& in, const std::vector<int64_t>& n, bool forward,
              double scale, const Shape& out_shape, DType out_dtype) {
  Array out = Array::empty(out_shape, out_dtype, in.device());
  if (out.size() == 0) return out;
  FftBackend& fb = fft_backend(in.device());
  FftJob job;
  job.kind = kind;
  job.real = real_for(in.dtype());
  job.n = n;
  for (size_t i = 0; i + n.size() < out_shape.size(); ++i) job.batch *= out_shape[i];
  job.forward = forward;
  job.scale = scale;
  job.in = in.data();
  job.out = out.data();
  fb.execute(job);
  if (!fb.applies_scale() && scale != 1) out = multiply(out, scale);
  return out;
}

// c2c over axes already resized, in the compute dtype; `scale` applied at the end.
Array c2c_resized(const Array& a, const std::vector<int>& axes, bool inverse, double scale) {
  const int max_rank = fft_backend(a.device()).max_rank();
  if (int(axes.size()) > max_rank) {
    // The library takes at most max_rank axes at once: the last ones first, then the rest
    // (a product of 1-D transforms: any order gives the same result).
    const std::vector<int> tail(axes.end() - max_rank, axes.end());
    const std::vector<int> head(axes.begin(), axes.end() - max_rank);
    return c2c_resized(c2c_resized(a, tail, inverse, 1), head, inverse, scale);
  }
  const Array in = transform_layout(a, axes, false);
  std::vector<int64_t> n;
  for (int ax : axes) n.push_back(a.shape()[size_t(ax)]);
  return restore_layout(execute(FftKind::C2C, in, n, !inverse, scale, in.shape(), in.dtype()),
                        axes);
}

}  // namespace

Array c2c(const Array& a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
          bool inverse, Norm norm) {
  const std::vector<int> ax = check_axes(a, axes, lengths);
  Array x = astype(a, complex_for(a.dtype()), false);
  double total = 1;
  for (size_t i = 0; i < ax.size(); ++i) {
    x = resize_axis(x, ax[i], lengths[i]);
    total *= double(lengths[i]);
  }
  return c2c_resized(x, ax, inverse, scale_for(norm, inverse, total));
}

Array r2c(const Array& a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
          Norm norm) {
  if (is_complex(a.dtype())) {
    throw TypeError("rfft needs real input, not " + std::string(dtype_name(a.dtype())) +
                    " (use fft for complex input)");
  }
  const std::vector<int> ax = check_axes(a, axes, lengths);
  Array x = astype(a, real_for(a.dtype()), false);
  double total = 1;
  for (size_t i = 0; i < ax.size(); ++i) {
    x = resize_axis(x, ax[i], lengths[i]);
    total *= double(lengths[i]);
  }
  const double scale = scale_for(norm, false, total);
  FftBackend& fb = fft_backend(a.device());
  // The real-to-complex step covers the last axis and as many before it as the library takes;
  // the remaining axes are complex transforms of its result.
  const size_t rank = std::min(ax.size(), size_t(fb.max_rank()));
  const std::vector<int> tail(ax.end() - long(rank), ax.end());
  const std::vector<int> head(ax.begin(), ax.end() - long(rank));
  const Array in = transform_layout(x, tail, false);
  std::vector<int64_t> n;
  for (int i : tail) n.push_back(x.shape()[size_t(i)]);
  Shape out_shape = in.shape();
  out_shape.back() = n.back() / 2 + 1;
  Array out = restore_layout(execute(FftKind::R2C, in, n, true, head.empty() ? scale : 1, out_shape,
                                     complex_for(x.dtype())),
                             tail);
  if (!head.empty()) out = c2c_resized(out, head, false, scale);
  return out;
}

Array c2r(const Array& a, const std::vector<int64_t>& axes, const std::vector<int64_t>& lengths,
          Norm norm) {
  const std::vector<int> ax = check_axes(a, axes, lengths);
  const DType out_dtype = a.dtype() == DType::Float16    ? DType::Float16
                          : a.dtype() == DType::BFloat16 ? DType::BFloat16
                                                         : real_for(a.dtype());
  Array x = astype(a, complex_for(a.dtype()), false);
  double total = 1;
  for (size_t i = 0; i < ax.size(); ++i) {
    const bool last = i + 1 == ax.size();
    x = resize_axis(x, ax[i], last ? lengths[i] / 2 + 1 : lengths[i]);
    total *= double(lengths[i]);
  }
  const double scale = scale_for(norm, true, total);
  // As NumPy's irfftn: inverse complex transforms over all but the last axis, then one
  // complex-to-real transform along it. Libraries doing both at once (cuFFT) assume a
  // Hermitian input and differ from NumPy on inputs that are not.
  if (ax.size() > 1) x = c2c_resized(x, std::vector<int>(ax.begin(), ax.end() - 1), true, 1);
  const int last = ax.back();
  Array in = transform_layout(x, {last}, true);
  // The imaginary parts of the zero (and, for even lengths, the Nyquist) frequency do not
  // enter a real result; NumPy ignores them and so does pocketfft, but not every library.
  const int64_t n = lengths.back();
  {
    std::vector<Index> dc(size_t(in.ndim()), Index{Slice{}});
    dc.back() = Slice{0, 1, std::nullopt};
    index_assign(imag(in), dc, Scalar::weak_float(0));
    if (n % 2 == 0) {
      dc.back() = Slice{n / 2, n / 2 + 1, std::nullopt};
      index_assign(imag(in), dc, Scalar::weak_float(0));
    }
    in.eval();
  }
  Shape out_shape = in.shape();
  out_shape.back() = n;
  Array out = execute(FftKind::C2R, in, {n}, false, scale, out_shape, real_for(x.dtype()));
  out = restore_layout(out, {last});
  return astype(out, out_dtype, false);
}

}  // namespace accel::fft
