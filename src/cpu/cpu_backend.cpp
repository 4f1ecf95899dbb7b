#include "src/cpu/cpu_backend.hpp"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "accel/errors.hpp"
#include "src/cpu/program.hpp"
#include "src/cpu/reduce.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

// Below this many elements an elementwise group runs on one thread.
constexpr int64_t kParallelMin = 1 << 15;

void run_concatenate(const Group& group) {
  const Node& node = *group.steps[0].node;
  const Array& out = group.outputs[0].dest;
  const int axis = node.params.axis;
  int64_t at = 0;
  for (const Operand& in : node.inputs) {
    const Array& src = in.array;
    // The slab of the output this input fills, written by a one-step copy group.
    const Array dest =
        out.view(out.dtype(), src.shape(), out.strides(), out.offset() + at * out.strides()[axis]);
    at += src.shape()[axis];
    if (src.size() == 0) continue;
    Node copy(OpKind::Cast, out.dtype(), out.device(), src.shape(), {Operand{src}});
    Group g;
    g.device = group.device;
    g.shape = src.shape();
    g.inputs = {src};
    g.steps = {Step{&copy, {StepArg{StepArg::Input, 0}}}};
    g.outputs = {GroupOutput{0, dest}};
    run_elementwise(g);
  }
}

class CpuBackend final : public Backend {
 public:
  void* allocate(size_t nbytes) override {
    const size_t bytes = std::max<size_t>(64, (nbytes + 63) / 64 * 64);
    void* p = std::aligned_alloc(64, bytes);
    if (!p) {
      throw OutOfMemoryError("out of host memory allocating " + std::to_string(nbytes) + " bytes");
    }
    return p;
  }
  void deallocate(void* ptr, size_t) override { std::free(ptr); }
  void run(const Group& group) override {
    switch (group.kind) {
      case Group::Kind::Elementwise:
        return run_elementwise(group);
      case Group::Kind::Reduction:
        return run_reduction(group);
      case Group::Kind::Single:
        return run_concatenate(group);
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
};

}  // namespace

void run_elementwise(const Group& group) {
  std::vector<int> perm(group.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  const Program prog(group, int(group.steps.size()), make_layout(group, perm));
  const int64_t n = prog.size();
  parallel_for(n, n < kParallelMin ? n : kBlock, [&](int64_t lo, int64_t hi, int) {
    Program::Scratch s;
    for (int64_t b = lo; b < hi; b += kBlock) prog.run(b, std::min(kBlock, hi - b), s);
  });
}

Backend& cpu_backend() {
  static CpuBackend backend;
  return backend;
}

}  // namespace accel::cpu
