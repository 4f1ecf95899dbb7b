// Shared by the code generation tests: an H100's properties, device arrays over fake addresses,
// a batch of generated kernels compiled together with NVRTC, and the groups they plan.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "accel/dtype_traits.hpp"
#include "accel/kernels/generators.h"
#include "src/core/graph.hpp"
#include "src/core/plan.hpp"
#include "src/cuda/driver/loader.hpp"
#include "src/cuda/jit/codegen.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/cuda/jit/kernel_cache.hpp"
#include "src/cuda/jit/kernel_upgrades.hpp"
#include "src/util/disk_cache.hpp"

namespace accel::cuda::codegen_testing {

inline DeviceProperties h100() {
  DeviceProperties p;
  p.name = "test H100";
  p.major = 9;
  p.minor = 0;
  p.multiprocessor_count = 132;
  p.max_threads_per_multiprocessor = 2048;
  return p;
}

// Device arrays over fake, well-aligned addresses: code generation never dereferences them.
inline Array fake(DType dt, Shape shape, Strides strides = {}, uintptr_t addr = 1 << 20) {
  if (strides.empty()) strides = contiguous_strides(shape);
  return Array::wrap(reinterpret_cast<void*>(addr), dt, shape, strides, Device::cuda(0), nullptr,
                     true);
}

// Holds nodes and groups alive while a batch of kernels is generated.
struct Batch {
  std::vector<std::unique_ptr<Node>> nodes;
  std::vector<std::unique_ptr<Group>> groups;
  std::map<std::string, std::string> code;  // name -> kernel source

  Node* node(OpKind op, DType dt, Shape shape, std::vector<Operand> ins = {}, NodeParams p = {}) {
    nodes.push_back(std::make_unique<Node>(op, dt, Device::cuda(0), shape, std::move(ins), p));
    return nodes.back().get();
  }
  void add(std::unique_ptr<Group> g) {
    const KernelPlan plan = make_plan(*g, h100());
    const std::string name = kernel_name(plan);
    code.emplace(name, generate(plan, name).code);
    groups.push_back(std::move(g));
  }
  // Compiles everything added, in programs of up to `per` kernels.
  void compile(size_t per = 64) {
    std::string program;
    size_t n = 0;
    int part = 0;
    for (const auto& [name, c] : code) {
      program += c;
      if (++n % per == 0 || n == code.size()) {
        EXPECT_NO_THROW(compile_program(program, 90, "batch" + std::to_string(part++)))
            << "first kernel of the failing batch ends before: " << name;
        program.clear();
      }
    }
  }
};

inline bool have_nvrtc() {
  if (nvrtc()) return true;
  std::cerr << "NVRTC not found (" << nvrtc_status().error << "): skipping compilation\n";
  return false;
}

// One step over `arity` inputs of `dt`, contiguous or transposed, optionally with a scalar.
inline std::unique_ptr<Group> unary_or_binary(Batch& b, OpKind op, int arity, DType dt, DType out,
                                              bool strided, bool scalar) {
  auto g = std::make_unique<Group>();
  g->device = Device::cuda(0);
  g->shape = {33, 65};
  const Strides tr = {1, 33};
  Step st{nullptr, {}};
  for (int i = 0; i < arity; ++i) {
    if (scalar && i == 1) {
      auto* holder =
          b.node(OpKind::Fill, dt, {}, {Operand{ScalarArg::of(Scalar::weak_int(2), dt)}});
      st.args.push_back({StepArg::Scalar, 0, &holder->inputs[0].scalar});
      continue;
    }
    g->inputs.push_back(strided ? fake(dt, g->shape, tr) : fake(dt, g->shape));
    st.args.push_back({StepArg::Input, int(g->inputs.size()) - 1});
  }
  st.node = b.node(op, out, g->shape);
  g->steps.push_back(st);
  g->outputs.push_back({0, fake(out, g->shape)});
  return g;
}

// A reduction group: optional negation prologue, reducing `axes` of a 2-D input.
inline std::unique_ptr<Group> reduction(Batch& b, OpKind op, DType in, DType out, uint64_t axes,
                                        bool prologue, Shape shape = {4096, 64}) {
  auto g = std::make_unique<Group>();
  g->device = Device::cuda(0);
  g->kind = Group::Kind::Reduction;
  g->shape = shape;
  g->inputs = {fake(in, shape)};
  NodeParams p;
  p.axes = axes;
  StepArg value{StepArg::Input, 0};
  if (prologue) {
    g->steps.push_back({b.node(OpKind::Cast, in, shape), {{StepArg::Input, 0}}});
    value = {StepArg::Step, 0};
  }
  Shape oshape;
  for (int d = 0; d < int(shape.size()); ++d) {
    if (!((axes >> d) & 1)) oshape.push_back(shape[d]);
  }
  Node* reduce = b.node(op, out, oshape, {}, p);
  reduce->compute = in;  // what compute_dtype() gives a reduction of an `in` operand
  g->steps.push_back({reduce, {value}});
  g->outputs.push_back({int(g->steps.size()) - 1, fake(out, oshape)});
  return g;
}

// The planner's count of a group's parameter bytes (with the limits the CUDA backend reports,
// which are also the CPU's, so no GPU is needed) bounds the kernel's parameter block.
inline void expect_planner_counts_enough(const Group& g, const KernelPlan& plan) {
  Group on_cpu = g;
  on_cpu.device = Device::cpu();
  EXPECT_GE(plan::param_bytes(on_cpu), param_bytes(plan));
}

}  // namespace accel::cuda::codegen_testing
