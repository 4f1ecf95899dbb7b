// Kernel plans (split and flat reductions, cached plans, structure-only keys), outlined heavy
// bodies, compile times, the compile worker's optimized cubin and reductions' prologue outputs.

#include "tests/cpp/cuda/jit/codegen_test_support.hpp"

namespace accel::cuda {
namespace {

using namespace codegen_testing;

TEST(CudaCodegen, ReductionPlansSplitNarrowReductions) {
  Batch b;
  auto full =
      reduction(b, OpKind::Sum, DType::Float32, DType::Float32, 3, false, {1 << 14, 1 << 14});
  KernelPlan p = make_plan(*full, h100());
  size_reduction(p, h100(), 8);  // a kernel of at most 32 registers
  EXPECT_EQ(p.strategy, Strategy::Inner);
  EXPECT_GT(p.splits, 100);  // one output: the range is split across the device
  EXPECT_GT(partial_bytes(p), 0u);
  EXPECT_EQ(p.vec, 4);  // 16-byte loads; every split starts on a vector
  EXPECT_EQ(p.chunk % 4, 0);
  EXPECT_EQ(p.tpo, 256);  // one output: the whole block works on it
  EXPECT_NE(generate(p, "k").code.find("vaccumulate"), std::string::npos);
  EXPECT_NE(generate(p, "k").code.find("accel_last_block"), std::string::npos);
  // Split counts follow the loaded kernel's occupancy. 6 blocks of it per SM: one wave of 792
  // would give each thread 5.3 KB of 2^28 float32, so the grid is twice the device's threads.
  KernelPlan wide = p;
  size_reduction(wide, h100(), 6);
  EXPECT_EQ(wide.splits, 2112);
  EXPECT_EQ(wide.grid[1], 2112u);
  // Half as many elements: 2.6 KB a thread, one wave.
  auto half =
      reduction(b, OpKind::Sum, DType::Float32, DType::Float32, 3, false, {1 << 13, 1 << 14});
  KernelPlan one = make_plan(*half, h100());
  size_reduction(one, h100(), 6);
  EXPECT_EQ(one.splits, 792);
  EXPECT_EQ(one.grid[0], 1u);
  EXPECT_EQ(one.chunk % 4, 0);
  EXPECT_GE(int64_t(one.splits) * one.chunk, int64_t(1) << 27);
  auto rows =
      reduction(b, OpKind::Sum, DType::Float32, DType::Float32, 2, false, {1 << 14, 1 << 14});
  KernelPlan q = make_plan(*rows, h100());
  size_reduction(q, h100(), 8);
  EXPECT_EQ(q.splits, 1);
  EXPECT_EQ(q.tpo, 256);
  EXPECT_EQ(q.vec, 4);
  auto strided_rows = reduction(b, OpKind::Sum, DType::Float32, DType::Float32, 2, false, {64, 64});
  strided_rows->inputs[0] = fake(DType::Float32, {64, 64}, {128, 2});  // every other element
  EXPECT_EQ(make_plan(*strided_rows, h100()).strategy, Strategy::Inner);
  EXPECT_EQ(make_plan(*strided_rows, h100()).vec, 1);
  auto cols =
      reduction(b, OpKind::Sum, DType::Float32, DType::Float32, 1, false, {1 << 14, 1 << 14});
  EXPECT_EQ(make_plan(*cols, h100()).strategy, Strategy::Outer);
}

// The contiguous-or-broadcast shortcut of make_plan gives what merging dimensions one by one
// gives: a group whose unit dimension has an unusual stride (so the shortcut does not apply) plans
// exactly as the same group with the usual strides.
TEST(CudaCodegen, FlatPlansMatchMergedDimensions) {
  Batch b;
  auto group = [&](Shape shape, Strides first_strides) {
    auto g = std::make_unique<Group>();
    g->device = Device::cuda(0);
    g->shape = shape;
    g->inputs = {fake(DType::Float32, shape, first_strides),
                 fake(DType::Float32, shape, Strides(shape.size(), 0), 1 << 22)};
    g->steps.push_back(
        {b.node(OpKind::Add, DType::Float32, shape), {{StepArg::Input, 0}, {StepArg::Input, 1}}});
    g->outputs.push_back({0, fake(DType::Float32, shape, {}, 1 << 23)});
    return g;
  };
  struct Case {
    Shape shape;
    Strides unusual;  // the same layout, with another stride on a unit dimension
  };
  const Case cases[] = {{{2, 1, 4}, {4, 99, 1}}, {{1, 1}, {7, 5}}, {{1}, {3}}, {{5, 1}, {1, 8}}};
  KernelPlan reused;
  for (const Case& c : cases) {
    auto flat = group(c.shape, {});
    auto merged = group(c.shape, c.unusual);
    const KernelPlan p = make_plan(*flat, h100()), q = make_plan(*merged, h100());
    EXPECT_EQ(p.key, q.key);
    EXPECT_EQ(p.rshape, q.rshape);
    EXPECT_EQ(p.n, q.n);
    ASSERT_EQ(p.inputs.size(), q.inputs.size());
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      EXPECT_EQ(p.inputs[j].rst, q.inputs[j].rst);
      EXPECT_EQ(p.inputs[j].cls, q.inputs[j].cls);
    }
    EXPECT_EQ(p.outputs[0].rst, q.outputs[0].rst);
    EXPECT_EQ(p.index.rst, q.index.rst);
    EXPECT_EQ(pack_params(p), pack_params(q));
    // A plan made into a reused one (the launch path's) is the same plan.
    make_plan(*merged, h100(), reused);
    EXPECT_EQ(reused.key, q.key);
    EXPECT_EQ(pack_params(reused), pack_params(q));
  }
  // One element: every operand (the broadcast one too) is one contiguous element.
  const KernelPlan one = make_plan(*group({1, 1}, {}), h100());
  EXPECT_EQ(one.rshape, Shape({1}));
  EXPECT_EQ(one.inputs[1].cls, Cls::Contig);
  const KernelPlan many = make_plan(*group({3, 4}, {}), h100());
  EXPECT_EQ(many.rshape, Shape({12}));
  EXPECT_EQ(many.inputs[1].cls, Cls::Bcast);
  EXPECT_TRUE(many.contiguous);
}

// The launch path's plan memo: a group with the signature of a recent one reuses its plan with
// fresh addresses; whatever the sequence, the plan is the one make_plan makes.
TEST(CudaCodegen, CachedPlansEqualFreshPlans) {
  Batch b;
  auto group = [&](Shape shape, Strides strides, uintptr_t addr, DType dt = DType::Float32) {
    auto g = std::make_unique<Group>();
    g->device = Device::cuda(0);
    g->shape = shape;
    g->inputs = {fake(dt, shape, strides, addr), fake(dt, shape, Strides(shape.size(), 0))};
    g->steps.push_back(
        {b.node(OpKind::Multiply, dt, shape), {{StepArg::Input, 0}, {StepArg::Input, 1}}});
    g->outputs.push_back({0, fake(dt, shape, {}, addr + (1 << 20))});
    return g;
  };
  std::vector<std::unique_ptr<Group>> groups;
  groups.push_back(group({1000}, {}, 1 << 22));
  groups.push_back(group({1000}, {}, (1 << 22) + 4));  // misaligned: the flag changes
  groups.push_back(group({1000}, {}, 1 << 23));
  groups.push_back(group({7, 9}, {}, 1 << 22));
  groups.push_back(group({7, 9}, {18, 2}, 1 << 22));  // strided
  groups.push_back(group({7, 9}, {18, 2}, 1 << 24));
  groups.push_back(group({7, 9}, {}, 1 << 22, DType::Float64));
  groups.push_back(group({1 << 20}, {}, 1 << 22));
  // Twice through the list: the second round finds each group's plan (fewer groups than
  // entries), with this round's addresses.
  LaunchPlans plans;
  for (int round = 0; round < 2; ++round) {
    for (const auto& g : groups) {
      const KernelPlan& cached = make_plan_cached(*g, h100(), 0, plans);
      const KernelPlan fresh = make_plan(*g, h100());
      EXPECT_EQ(cached.key, fresh.key);
      EXPECT_EQ(cached.aligned, fresh.aligned);
      EXPECT_EQ(cached.grid[0], fresh.grid[0]);
      EXPECT_EQ(cached.group, g.get());
      EXPECT_EQ(pack_params(cached), pack_params(fresh));
    }
  }
  // Groups 1, 2 and 5 differ from the group before them only in addresses.
  EXPECT_EQ(plans.hits, 3 + groups.size());
  // More signatures than entries: the oldest are replaced, and every plan is still right.
  for (int64_t n = 1; n <= int64_t(2 * LaunchPlans::kEntries); ++n) {
    auto g = group({n, 3}, {}, 1 << 22);
    const KernelPlan& cached = make_plan_cached(*g, h100(), 0, plans);
    EXPECT_EQ(pack_params(cached), pack_params(make_plan(*g, h100())));
    groups.push_back(std::move(g));
  }
}

TEST(CudaCodegen, KeyDependsOnStructureOnly) {
  Batch b;
  auto add_scalar = [&](int64_t n, double value, uintptr_t addr) {
    auto g = std::make_unique<Group>();
    g->device = Device::cuda(0);
    g->shape = {n};
    g->inputs = {fake(DType::Float32, {n}, {}, addr)};
    Node* holder = b.node(OpKind::Fill, DType::Float32, {},
                          {Operand{ScalarArg::of(Scalar::weak_float(value), DType::Float32)}});
    g->steps.push_back({b.node(OpKind::Add, DType::Float32, {n}),
                        {{StepArg::Input, 0}, {StepArg::Scalar, 0, &holder->inputs[0].scalar}}});
    g->outputs.push_back({0, fake(DType::Float32, {n}, {}, addr + 4096)});
    return g;
  };
  auto g1 = add_scalar(1000, 0.02, 1 << 20);
  auto g2 = add_scalar(1 << 24, 7.5, 1 << 24);
  auto g3 = add_scalar(3, 0.02, (1 << 20) + 4);  // misaligned: still the same kernel
  const KernelPlan p1 = make_plan(*g1, h100()), p2 = make_plan(*g2, h100()),
                   p3 = make_plan(*g3, h100());
  EXPECT_EQ(p1.key, p2.key);
  EXPECT_EQ(p1.key, p3.key);
  EXPECT_EQ(p3.aligned, 0);
  EXPECT_NE(pack_params(p1), pack_params(p2));  // sizes and scalars travel as parameters
  EXPECT_EQ(param_bytes(p1), pack_params(p1).size());
  EXPECT_EQ(generate(p1, "k").code, generate(p2, "k").code);
  // Another dtype or layout is another kernel.
  auto g4 = unary_or_binary(b, OpKind::Add, 2, DType::Float32, DType::Float32, true, false);
  auto g5 = unary_or_binary(b, OpKind::Add, 2, DType::Float64, DType::Float64, false, false);
  EXPECT_NE(make_plan(*g4, h100()).key, p1.key);
  EXPECT_NE(make_plan(*g5, h100()).key, p1.key);
}

// exp(sin(x) * a) - sqrt(x + b) over contiguous float32 (the first-use benchmark's kernel),
// writing sin(x) too when `both`, and reading arange's index instead of x when `generated`.
std::unique_ptr<Group> transcendental_chain(Batch& b, int64_t n, bool both, bool generated) {
  const DType f = DType::Float32;
  auto g = std::make_unique<Group>();
  g->device = Device::cuda(0);
  g->shape = {n};
  auto scalar = [&](double v) {
    Node* holder = b.node(OpKind::Fill, f, {}, {Operand{ScalarArg::of(Scalar::weak_float(v), f)}});
    return StepArg{StepArg::Scalar, 0, &holder->inputs[0].scalar};
  };
  StepArg x{StepArg::Input, 0};
  if (generated) {
    g->steps.push_back({b.node(OpKind::Arange, f, {n}), {scalar(0.0), scalar(1.0)}});
    x = {StepArg::Step, 0};
  } else {
    g->inputs = {fake(f, {n})};
  }
  const int s0 = int(g->steps.size());
  g->steps.push_back({b.node(OpKind::Sin, f, {n}), {x}});
  g->steps.push_back({b.node(OpKind::Multiply, f, {n}), {{StepArg::Step, s0}, scalar(0.5)}});
  g->steps.push_back({b.node(OpKind::Exp, f, {n}), {{StepArg::Step, s0 + 1}}});
  g->steps.push_back({b.node(OpKind::Add, f, {n}), {x, scalar(1.25)}});
  g->steps.push_back({b.node(OpKind::Sqrt, f, {n}), {{StepArg::Step, s0 + 3}}});
  g->steps.push_back(
      {b.node(OpKind::Subtract, f, {n}), {{StepArg::Step, s0 + 2}, {StepArg::Step, s0 + 4}}});
  g->outputs.push_back({s0 + 5, fake(f, {n}, {}, 1 << 24)});
  if (both) g->outputs.push_back({s0, fake(f, {n}, {}, 1 << 25)});
  return g;
}

// Transcendental bodies are called as one function from every unrolled element (compile time);
// light ones are inlined. Both compile, with one or several outputs and with a generator.
TEST(CudaCodegen, HeavyBodiesAreOutlined) {
  Batch b;
  for (bool both : {false, true}) {
    for (bool generated : {false, true}) b.add(transcendental_chain(b, 1 << 20, both, generated));
  }
  for (const auto& [name, code] : b.code) EXPECT_NE(code.find("__noinline__"), std::string::npos);
  const auto add = unary_or_binary(b, OpKind::Add, 2, DType::Float32, DType::Float32, false, false);
  const KernelPlan p = make_plan(*add, h100());
  EXPECT_FALSE(p.outlined);
  EXPECT_EQ(generate(p, "k").code.find("__noinline__"), std::string::npos);
  // Float32 vectors: a light body reads two per operand, a heavy one over few operands four.
  EXPECT_EQ(p.vec * p.unroll, 8);
  const KernelPlan heavy = make_plan(*b.groups.front(), h100());
  EXPECT_TRUE(heavy.outlined);
  EXPECT_EQ(heavy.vec * heavy.unroll, 16);
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  b.compile(1);
}

// The first-use cost of a new kernel, as a process with warm NVRTC pays it (bench/gpu.py's
// first_use): printed, not asserted, as it depends on the machine.
TEST(CudaCodegen, CompileTimeOfNewKernels) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  auto time_one = [&](std::unique_ptr<Group> g, const char* what) {
    const KernelPlan plan = make_plan(*g, h100());
    const std::string name = kernel_name(plan);
    const std::string code = generate(plan, name).code;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    EXPECT_NO_THROW(compile_program(code, 90, name));
    const double cpu_ms = 1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // CPU time too: on a loaded machine it is the figure that compares between runs.
    std::cout << "[ compile  ] " << what << ": " << ms << " ms wall, " << cpu_ms << " ms CPU\n";
    b.groups.push_back(std::move(g));
  };
  time_one(unary_or_binary(b, OpKind::Multiply, 2, DType::Float64, DType::Float64, false, true),
           "warm-up (first program of the process)");
  time_one(unary_or_binary(b, OpKind::Add, 2, DType::Float32, DType::Float32, false, false),
           "add float32");
  time_one(transcendental_chain(b, 1000, false, false), "exp(sin(x) * 0.5) - sqrt(x + 1.25)");
  time_one(reduction(b, OpKind::Sum, DType::Float32, DType::Float32, 3, false, {1 << 20, 256}),
           "sum float32 (vector path, split)");
}

// A kernel compiled quickly is replaced by its optimized build, which the compile worker (a
// process of its own) compiles, stores in the disk cache and sends back: the same cubin as this
// process compiles. A job that does not compile is a failure, and the worker goes on.
TEST(CudaCodegen, CompileWorkerBuildsTheOptimizedCubin) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  setenv("ACCELPY_COMPILE_WORKER", ACCEL_COMPILE_WORKER_PATH, 1);
  Batch b;
  const auto g = transcendental_chain(b, 1000, false, false);
  const KernelPlan plan = make_plan(*g, h100());
  const std::string name = kernel_name(plan);
  const std::string code = generate(plan, name).code;
  const CompiledImage optimized = compile_program(code, 90, name);
  if (!quick_compile_supported(90)) GTEST_SKIP() << "NVRTC older than 12.8: no quick builds";
  const CompiledImage quick = compile_program(code, 90, name, CompileTier::Quick);
  EXPECT_TRUE(quick.cubin);
  EXPECT_NE(quick.data, optimized.data);  // NVRTC took the option: another build

  ASSERT_TRUE(upgrades_enabled()) << "the compile worker did not start";
  const std::string key = disk_key(code, 90);
  std::string replied;
  queue_upgrade({name, code, key, 90, [&](const CompiledImage& img) { replied = img.data; }});
  ASSERT_TRUE(wait_for_upgrades(300));
  EXPECT_EQ(replied, optimized.data);
  if (util::disk_cache().enabled()) {
    const std::optional<CompiledImage> stored = util::disk_cache().load(key);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->data, optimized.data);
  }

  const UpgradeCounts before = upgrade_counts();
  replied.clear();
  queue_upgrade({"accel_not_cuda", "this is not CUDA", "accel_not_cuda", 90,
                 [](const CompiledImage&) { ADD_FAILURE() << "a failed build was used"; }});
  queue_upgrade({name, code, key, 90, [&](const CompiledImage& img) { replied = img.data; }});
  ASSERT_TRUE(wait_for_upgrades(300));
  const UpgradeCounts after = upgrade_counts();
  EXPECT_EQ(after.failed, before.failed + 1);
  EXPECT_EQ(after.done, before.done + 1);
  EXPECT_EQ(replied, optimized.data);
}

// t = x * x written from a reduction's pass (a referenced intermediate), with sum or argmax of
// t + 1 over each strategy; transposed inputs and a second, duplicate reduction output too.
TEST(CudaCodegen, ReductionsWritePrologueOutputs) {
  Batch b;
  std::map<Strategy, int> seen;
  for (OpKind op : {OpKind::Sum, OpKind::ArgMax}) {
    for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Complex64}) {
      if (op == OpKind::ArgMax && is_complex(dt)) continue;
      for (uint64_t axes : {uint64_t(2), uint64_t(1), uint64_t(3)}) {
        for (bool transposed : {false, true}) {
          const Shape shape = {4096, 64};
          auto g = std::make_unique<Group>();
          g->device = Device::cuda(0);
          g->kind = Group::Kind::Reduction;
          g->shape = shape;
          g->inputs = {transposed ? fake(dt, shape, {1, 4096}) : fake(dt, shape)};
          Node* one =
              b.node(OpKind::Fill, dt, {}, {Operand{ScalarArg::of(Scalar::weak_int(1), dt)}});
          g->steps.push_back(
              {b.node(OpKind::Multiply, dt, shape), {{StepArg::Input, 0}, {StepArg::Input, 0}}});
          g->steps.push_back({b.node(OpKind::Add, dt, shape),
                              {{StepArg::Step, 0}, {StepArg::Scalar, 0, &one->inputs[0].scalar}}});
          NodeParams p;
          p.axes = axes;
          Shape oshape;
          for (int d = 0; d < 2; ++d) {
            if (!((axes >> d) & 1)) oshape.push_back(shape[d]);
          }
          const DType out = op == OpKind::ArgMax ? DType::Int64 : dt;
          Node* reduce = b.node(op, out, oshape, {}, p);
          reduce->compute = dt;  // what compute_dtype() gives a reduction of a `dt` operand
          g->steps.push_back({reduce, {{StepArg::Step, 1}}});
          g->outputs.push_back({0, fake(dt, shape, {}, 1 << 26)});
          g->outputs.push_back({2, fake(out, oshape, {}, 1 << 27)});
          if (transposed) g->outputs.push_back({2, fake(out, oshape, {}, 1 << 28)});
          const KernelPlan plan = make_plan(*g, h100());
          ++seen[plan.strategy];
          EXPECT_EQ(plan.prologue_outputs.size(), 1u);
          EXPECT_EQ(plan.outputs.size(), transposed ? 2u : 1u);
          EXPECT_EQ(param_bytes(plan), pack_params(plan).size());
          expect_planner_counts_enough(*g, plan);
          const std::string code = generate(plan, "k").code;
          EXPECT_NE(code.find("p.w0["), std::string::npos);
          if (transposed) {
            EXPECT_NE(code.find("p.out1["), std::string::npos);
          }
          b.add(std::move(g));
        }
      }
    }
  }
  EXPECT_GT(seen[Strategy::Inner], 0);
  EXPECT_GT(seen[Strategy::Outer], 0);
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  b.compile();
}

}  // namespace
}  // namespace accel::cuda
