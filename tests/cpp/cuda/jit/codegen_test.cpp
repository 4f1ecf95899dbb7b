// Compiles every kernel template for every dtype to an sm_90 cubin with NVRTC (no GPU needed):
// elementwise ops, casts, generators, random generators and reductions of every strategy.

#include "tests/cpp/cuda/jit/codegen_test_support.hpp"

namespace accel::cuda {
namespace {

using namespace codegen_testing;

DType result_of(DType in, const char* rule) {
  const std::string r = rule;
  if (r == "Bool") return DType::Bool;
  if (r == "Real") return real_dtype(in);
  if (r == "Int32") return DType::Int32;
  return in;
}

TEST(CudaCodegen, ElementwiseOpsEveryDtype) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  using namespace dtypes;  // NOLINT: the masks named in the table
#define ACCEL_ELEMENTWISE(Name, name, arity, inputs, result, flags, ...)                        \
  for_each_dtype([&](auto d) {                                                                  \
    constexpr DType D = decltype(d)::value;                                                     \
    if (!contains(inputs, D)) return;                                                           \
    const DType out = result_of(D, #result);                                                    \
    b.add(unary_or_binary(b, OpKind::Name, arity, D, out, false, false));                       \
    if (D == DType::Float32 || D == DType::Int32 || D == DType::Complex128 || D == DType::Bool) \
      b.add(unary_or_binary(b, OpKind::Name, arity, D, out, true, arity == 2));                 \
  });
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
  for_each_dtype([&](auto d) {
    constexpr DType D = decltype(d)::value;
    auto g = std::make_unique<Group>();
    g->device = Device::cuda(0);
    g->shape = {100};
    g->inputs = {fake(DType::Bool, {100}), fake(D, {100}), fake(D, {1}, {0})};
    g->inputs[2] = g->inputs[2].view({100}, {0}, 0);
    g->steps.push_back({b.node(OpKind::Where, D, {100}),
                        {{StepArg::Input, 0}, {StepArg::Input, 1}, {StepArg::Input, 2}}});
    g->outputs.push_back({0, fake(D, {100})});
    b.add(std::move(g));
  });
  b.compile();
}

TEST(CudaCodegen, CastsBetweenEveryPair) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  for (int f = 0; f < kNumDTypes; ++f) {
    for (int t = 0; t < kNumDTypes; ++t) {
      auto g = std::make_unique<Group>();
      g->device = Device::cuda(0);
      g->shape = {1000};
      g->inputs = {fake(DType(f), {1000})};
      g->steps.push_back({b.node(OpKind::Cast, DType(t), {1000}), {{StepArg::Input, 0}}});
      g->outputs.push_back({0, fake(DType(t), {1000})});
      b.add(std::move(g));
    }
  }
  b.compile(120);
}

TEST(CudaCodegen, GeneratorsEveryDtype) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType dt = DType(t);
    const DType wide = is_complex(dt) ? DType::Complex128 : DType::Float64;
    auto sc = [&](DType d) { return Operand{ScalarArg::of(Scalar::weak_int(3), d)}; };
    struct G {
      OpKind op;
      std::vector<Operand> ins;
    };
    std::vector<G> gens = {
        {OpKind::Fill, {sc(dt)}},
        {OpKind::Arange, {sc(dt), sc(dt)}},  // first, second
        // start, stop (in the compute type), div
        {OpKind::Linspace, {sc(wide), sc(wide), sc(DType::Int64)}},
        {OpKind::Linspace, {sc(DType::Float32), sc(DType::Float32), sc(DType::Int64)}},
        {OpKind::Eye, {}},
        {OpKind::Tri, {}}};
    for (G& gen : gens) {
      for (bool strided_out : {false, true}) {
        auto g = std::make_unique<Group>();
        g->device = Device::cuda(0);
        g->shape = {17, 9};
        Node* n = b.node(gen.op, dt, g->shape, gen.ins);
        Step st{n, {}};
        for (const Operand& o : n->inputs) st.args.push_back({StepArg::Scalar, 0, &o.scalar});
        g->steps.push_back(st);
        g->outputs.push_back({0, strided_out ? fake(dt, g->shape, {1, 17}) : fake(dt, g->shape)});
        b.add(std::move(g));
      }
    }
  }
  b.compile();
}

TEST(CudaCodegen, RandomGenerators) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  auto u64 = [](uint64_t v) {
    ScalarArg s;
    s.dtype = DType::UInt64;
    *reinterpret_cast<uint64_t*>(s.bytes) = v;
    return Operand{s};
  };
  struct G {
    OpKind op;
    DType dtype;
    int scalars;
  };
  std::vector<G> gens;
  for (DType f : {DType::Float32, DType::Float64}) {
    for (OpKind op : {OpKind::RandomUniform, OpKind::RandomNormal, OpKind::RandomExponential}) {
      gens.push_back({op, f, 2});
    }
  }
  for (int t = 0; t < kNumDTypes; ++t) {
    if (is_integer(DType(t)) || DType(t) == DType::Bool) {
      gens.push_back({OpKind::RandomIntegers, DType(t), 4});
    }
  }
  gens.push_back({OpKind::RandomPermutation, DType::Int64, 3});
  for (const G& gen : gens) {
    for (bool strided_out : {false, true}) {
      auto g = std::make_unique<Group>();
      g->device = Device::cuda(0);
      g->shape = {17, 9};
      std::vector<Operand> ins;
      for (int i = 0; i < gen.scalars; ++i) ins.push_back(u64(uint64_t(i) * 977 + 5));
      Node* n = b.node(gen.op, gen.dtype, g->shape, ins);
      Step st{n, {}};
      for (const Operand& o : n->inputs) st.args.push_back({StepArg::Scalar, 0, &o.scalar});
      g->steps.push_back(st);
      g->outputs.push_back(
          {0, strided_out ? fake(gen.dtype, g->shape, {1, 17}) : fake(gen.dtype, g->shape)});
      b.add(std::move(g));
    }
  }
  b.compile();
}

TEST(CudaCodegen, ReductionsEveryDtypeAndStrategy) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  const OpKind ops[] = {OpKind::Sum,    OpKind::Prod,   OpKind::Max, OpKind::Min,
                        OpKind::ArgMax, OpKind::ArgMin, OpKind::Any, OpKind::All};
  std::map<Strategy, int> seen;
  for (OpKind op : ops) {
    for (int t = 0; t < kNumDTypes; ++t) {
      const DType dt = DType(t);
      const bool logical = op == OpKind::Any || op == OpKind::All;
      if (logical != (dt == DType::Bool)) continue;
      const DType out = (op == OpKind::ArgMax || op == OpKind::ArgMin) ? DType::Int64 : dt;
      for (uint64_t axes : {uint64_t(2), uint64_t(1), uint64_t(3)}) {  // inner, outer, all
        auto g = reduction(b, op, dt, out, axes, t % 2 == 0);
        const KernelPlan plan = make_plan(*g, h100());
        ++seen[plan.strategy];
        EXPECT_EQ(param_bytes(plan), pack_params(plan).size());
        expect_planner_counts_enough(*g, plan);
        b.add(std::move(g));
      }
    }
  }
  EXPECT_GT(seen[Strategy::Inner], 0);
  EXPECT_GT(seen[Strategy::Outer], 0);
  b.compile();
}

}  // namespace
}  // namespace accel::cuda
