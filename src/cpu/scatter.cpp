// Scatter-add on the CPU: one pass in index order (as NumPy's bincount, so weighted sums round
// exactly as NumPy's do).
#include "src/cpu/scatter.hpp"

#include <cstdint>

namespace accel::cpu {

namespace {

class CpuScatter final : public ScatterBackend {
 public:
  void scatter_add(const Array& index, const Array* weights, const Array& out) override {
    const int64_t n = index.size();
    const int64_t* idx = index.data<int64_t>();
    if (weights) {
      const double* w = weights->data<double>();
      double* o = out.data<double>();
      for (int64_t i = 0; i < n; ++i) o[idx[i]] += w[i];
    } else {
      int64_t* o = out.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) ++o[idx[i]];
    }
  }
};

}  // namespace

ScatterBackend& cpu_scatter() {
  static CpuScatter s;
  return s;
}

}  // namespace accel::cpu
