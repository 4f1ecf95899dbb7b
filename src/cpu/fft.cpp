// pocketfft on the thread pool. pocketfft's own threads are compiled out
// (POCKETFFT_NO_MULTITHREADING): each transform pass is split along its largest other
// dimension into contiguous slabs, one per worker, and each slab is one pocketfft call (which
// vectorizes across the lines of its slab). A single 1-D transform runs on one core, as in
// NumPy.
#include "src/cpu/fft.hpp"

#include <algorithm>
#include <complex>

#define POCKETFFT_NO_MULTITHREADING
#define POCKETFFT_CACHE_SIZE 16  // twiddle tables of recent lengths, as repeated calls need
#include "third_party/pocketfft/pocketfft_hdronly.h"

#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

using pocketfft::shape_t;
using pocketfft::stride_t;

// A contiguous array of `dims` with elements of `itemsize` bytes: strides in bytes.
stride_t byte_strides(const shape_t& dims, size_t itemsize) {
  stride_t s(dims.size());
  ptrdiff_t step = ptrdiff_t(itemsize);
  for (size_t i = dims.size(); i-- > 0;) {
    s[i] = step;
    step *= ptrdiff_t(dims[i]);
  }
  return s;
}

// Calls pass(dims, in_offset_bytes, out_offset_bytes) over slabs of the full array, split
// along the largest dimension other than `axis`. Slabs of fewer than ~64K elements are not
// worth a thread.
template <class Pass>
void split_pass(const shape_t& dims, size_t axis, const stride_t& in_strides,
                const stride_t& out_strides, const Pass& pass) {
  size_t along = dims.size();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i != axis && (along == dims.size() || dims[i] > dims[along])) along = i;
  }
  if (along == dims.size()) return pass(dims, 0, 0);
  size_t total = 1;
  for (size_t d : dims) total *= d;
  const int64_t per_index = int64_t(total / dims[along]);
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(per_index, 1));
  parallel_for(int64_t(dims[along]), grain, [&](int64_t begin, int64_t end, int) {
    shape_t slab = dims;
    slab[along] = size_t(end - begin);
    pass(slab, begin * in_strides[along], begin * out_strides[along]);
  });
}

template <class T>
void run(const FftJob& job) {
  using C = std::complex<T>;
  const size_t rank = job.n.size();
  // Full shapes: [batch, n...] (the real side for R2C/C2R) and its complex counterpart.
  shape_t real_dims{size_t(job.batch)};
  for (int64_t n : job.n) real_dims.push_back(size_t(n));
  shape_t complex_dims = real_dims;
  if (job.kind != FftKind::C2C) complex_dims.back() = complex_dims.back() / 2 + 1;
  const stride_t cs = byte_strides(complex_dims, sizeof(C));
  const stride_t rs = byte_strides(real_dims, sizeof(T));
  const T fct = T(job.scale);
  const char* in = static_cast<const char*>(job.in);
  char* out = static_cast<char*>(job.out);

  // One axis per pass (pocketfft does the same internally): the first pass reads the input
  // and applies the scale, later ones transform the output in place.
  switch (job.kind) {
    case FftKind::C2C:
      for (size_t k = rank; k >= 1; --k) {
        const bool first = k == rank;
        const char* src = first ? in : out;
        split_pass(complex_dims, k, cs, cs, [&](const shape_t& d, ptrdiff_t io, ptrdiff_t oo) {
          pocketfft::c2c<T>(d, cs, cs, {k}, job.forward, reinterpret_cast<const C*>(src + io),
                            reinterpret_cast<C*>(out + oo), first ? fct : T(1));
        });
      }
      break;
    case FftKind::R2C:
      split_pass(real_dims, rank, rs, cs, [&](const shape_t& d, ptrdiff_t io, ptrdiff_t oo) {
        pocketfft::r2c<T>(d, rs, cs, rank, pocketfft::FORWARD, reinterpret_cast<const T*>(in + io),
                          reinterpret_cast<C*>(out + oo), fct);
      });
      for (size_t k = rank - 1; k >= 1; --k) {
        split_pass(complex_dims, k, cs, cs, [&](const shape_t& d, ptrdiff_t io, ptrdiff_t oo) {
          pocketfft::c2c<T>(d, cs, cs, {k}, pocketfft::FORWARD,
                            reinterpret_cast<const C*>(out + io), reinterpret_cast<C*>(out + oo),
                            T(1));
        });
      }
      break;
    case FftKind::C2R:
      split_pass(real_dims, rank, cs, rs, [&](const shape_t& d, ptrdiff_t io, ptrdiff_t oo) {
        pocketfft::c2r<T>(d, cs, rs, rank, pocketfft::BACKWARD, reinterpret_cast<const C*>(in + io),
                          reinterpret_cast<T*>(out + oo), fct);
      });
      break;
  }
}

class CpuFft final : public FftBackend {
 public:
  void execute(const FftJob& job) override {
    if (job.real == DType::Float32) return run<float>(job);
    return run<double>(job);
  }
  bool applies_scale() const override { return true; }
  // Any rank: the passes above take one axis at a time.
  int max_rank() const override { return 64; }
};

}  // namespace

FftBackend& cpu_fft() {
  static CpuFft* f = new CpuFft();
  return *f;
}

}  // namespace accel::cpu
