#include "src/cpu/cpu_backend.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "accel/errors.hpp"
#include "accel/interrupt.hpp"
#include "src/cpu/allocator.hpp"
#include "src/cpu/copy_group.hpp"
#include "src/cpu/fft.hpp"
#include "src/cpu/gemm.hpp"
#include "src/cpu/indexing.hpp"
#include "src/cpu/lapack.hpp"
#include "src/cpu/program.hpp"
#include "src/cpu/reduce.hpp"
#include "src/cpu/row_group.hpp"
#include "src/cpu/scatter.hpp"
#include "src/cpu/small_group.hpp"
#include "src/cpu/sort_scan.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

// An elementwise group runs on one thread below this many element-steps (elements times
// steps): waking the pool's threads (a condition variable) costs 10-30 us on the 2-core build
// machine, and far more when the other core is busy; a 2-step chain pays from about 256K
// elements, a 20-step one from about 26K (docs/subsystems/cpu.md).
constexpr int64_t kParallelWork = int64_t(1) << 19;

class CpuBackend final : public Backend {
 public:
  void* allocate(size_t nbytes) override { return host_allocate(nbytes); }
  void deallocate(void* ptr, size_t nbytes) override { host_deallocate(ptr, nbytes); }
  void run(const Group& group) override {
    switch (group.kind) {
      case Group::Kind::Elementwise:
        return run_elementwise(group);
      case Group::Kind::Reduction:
        return run_reduction(group);
      case Group::Kind::Rows:
        return run_rows(group);
      case Group::Kind::Single:
        return run_concatenate_as_copies(group, run_elementwise);
    }
  }
  void copy_to_host(const void* src, void* dst, size_t nbytes) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }
  void copy_from_host(const void* src, void* dst, size_t nbytes) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }
  void copy_device(const void* src, void* dst, size_t nbytes) override {
    if (nbytes) std::memmove(dst, src, nbytes);
  }
  void copy_from_peer(Device, const void* src, void* dst, size_t nbytes) override {
    if (nbytes) std::memcpy(dst, src, nbytes);  // one CPU device: never really a peer
  }
  void synchronize() override {}
  void gemm(const Gemm& g) override { cpu::gemm(g); }
  FftBackend* fft() override { return &cpu_fft(); }
  LinalgBackend* linalg() override { return &cpu_linalg(); }
  IndexingBackend& indexing() override { return cpu_indexing(); }
  SortScanOps& sort_scan() override { return cpu_sort_scan(); }
  ScatterBackend* scatter() override { return &cpu_scatter(); }
};

}  // namespace

void run_elementwise(const Group& group) {
  if (run_small_group(group)) return;
  // Dimensions in the memory order of the first output (slowest first), so that results laid out
  // in another order than C's (a.T + 1: NumPy's order='K') are written sequentially.
  std::vector<int> perm(group.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  const Strides& out = group.outputs[0].dest.strides();
  if (group.outputs[0].dest.shape() == group.shape && !is_row_major(group.shape, out)) {
    std::stable_sort(perm.begin(), perm.end(),
                     [&](int a, int b) { return std::abs(out[a]) > std::abs(out[b]); });
  }
  Layout layout = make_layout(group, perm);
  if (shape_size(group.shape) < kParallelWork && run_copy_group(group, layout)) return;
  const Program prog(group, int(group.steps.size()), std::move(layout));
  const int64_t n = prog.size();
  const int64_t work = n * std::max<int64_t>(1, int64_t(group.steps.size()));
  const bool one_thread = work < kParallelWork || n < 2 * kBlock;
  parallel_for(n, one_thread ? n : kBlock, [&](int64_t lo, int64_t hi, int) {
    Program::Scratch s;
    for (int64_t b = lo; b < hi; b += kBlock) {
      interruption_point();
      prog.run(b, std::min(kBlock, hi - b), s);
    }
  });
}

Backend& cpu_backend() {
  static CpuBackend backend;
  return backend;
}

void register_cpu_backend() {
  register_backend(DeviceType::CPU, [](int) -> Backend& { return cpu_backend(); });
}

}  // namespace accel::cpu
