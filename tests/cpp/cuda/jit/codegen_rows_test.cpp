// Row kernels (codegen_rows.cpp) for every reducer and dtype compile to an sm_90 cubin with NVRTC
// (no GPU needed), in each of their mappings: a row kept in registers, a row looped over, and a
// column of threads per row; their parameter blocks are as large as the planner counts.

#include "tests/cpp/cuda/jit/codegen_test_support.hpp"

namespace accel::cuda {
namespace {

using namespace codegen_testing;

// A Rows group over `shape` reducing `axes`: the reduction of x (a per-row step, written), and
// x cast from the reduction's value broadcast back (a per-element step, written).
std::unique_ptr<Group> row_group(Batch& b, OpKind op, DType in, DType out, uint64_t axes,
                                 Shape shape) {
  auto g = std::make_unique<Group>();
  g->device = Device::cuda(0);
  g->kind = Group::Kind::Rows;
  g->shape = shape;
  g->row_axes = axes;
  g->inputs = {fake(in, shape)};
  g->row_inputs = {0};
  NodeParams p;
  p.axes = axes;
  Shape oshape;
  for (int d = 0; d < int(shape.size()); ++d) {
    if (!((axes >> d) & 1)) oshape.push_back(shape[d]);
  }
  Node* reduce = b.node(op, out, oshape, {}, p);
  reduce->compute = in;
  g->steps.push_back({reduce, {{StepArg::Input, 0}}, true});
  g->steps.push_back({b.node(OpKind::Cast, in, shape), {{StepArg::Step, 0}}, false});
  g->steps.push_back({b.node(OpKind::Cast, in, shape), {{StepArg::Input, 0}}, false});
  g->outputs.push_back({0, fake(out, oshape)});
  g->outputs.push_back({1, fake(in, shape)});
  g->outputs.push_back({2, fake(in, shape)});
  return g;
}

TEST(CudaCodegen, RowKernelsEveryReducerDtypeAndMapping) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  const OpKind ops[] = {OpKind::Sum,    OpKind::Prod,   OpKind::Max, OpKind::Min,
                        OpKind::ArgMax, OpKind::ArgMin, OpKind::Any, OpKind::All};
  int in_registers = 0, looped = 0, by_column = 0;
  for (OpKind op : ops) {
    for (int t = 0; t < kNumDTypes; ++t) {
      const DType dt = DType(t);
      const bool logical = op == OpKind::Any || op == OpKind::All;
      if (logical != (dt == DType::Bool)) continue;
      const DType out = (op == OpKind::ArgMax || op == OpKind::ArgMin) ? DType::Int64 : dt;
      // Rows along the last axis (short, and longer than registers hold), and along axis 0.
      const std::pair<uint64_t, Shape> spaces[] = {
          {2, {4096, 64}}, {2, {64, 40000}}, {1, {4096, 64}}};
      for (int m = 0; m < 3; ++m) {
        // Every mapping for float32, one (in turn) for the other dtypes: NVRTC's time.
        if (dt != DType::Float32 && m != (t + int(op)) % 3) continue;
        const auto& [axes, shape] = spaces[m];
        auto g = row_group(b, op, dt, out, axes, shape);
        const KernelPlan plan = make_plan(*g, h100());
        ASSERT_EQ(plan.strategy, Strategy::Rows);
        in_registers += plan.ept > 0;
        looped += plan.ept == 0 && !plan.by_column;
        by_column += plan.by_column;
        EXPECT_EQ(param_bytes(plan), pack_params(plan).size());
        b.add(std::move(g));
      }
    }
  }
  EXPECT_GT(in_registers, 0);
  EXPECT_GT(looped, 0);
  EXPECT_GT(by_column, 0);
  b.compile();
}

// x - sum(x) + w over the last axis, w broadcast over the rows (read by the last pass only)
// and x possibly with a strided row: the vector path's cached, uncached and written operands.
std::unique_ptr<Group> shifted_rows(Batch& b, DType dt, Shape shape, Strides x_strides) {
  auto g = std::make_unique<Group>();
  g->device = Device::cuda(0);
  g->kind = Group::Kind::Rows;
  g->shape = shape;
  g->row_axes = 2;
  g->inputs = {fake(dt, shape, x_strides), fake(dt, shape, {0, 1})};
  g->row_inputs = {0, 0};
  NodeParams p;
  p.axes = 2;
  Node* reduce = b.node(OpKind::Sum, dt, {shape[0]}, {}, p);
  reduce->compute = dt;
  g->steps.push_back({reduce, {{StepArg::Input, 0}}, true});
  g->steps.push_back(
      {b.node(OpKind::Subtract, dt, shape), {{StepArg::Input, 0}, {StepArg::Step, 0}}, false});
  g->steps.push_back(
      {b.node(OpKind::Add, dt, shape), {{StepArg::Step, 1}, {StepArg::Input, 1}}, false});
  g->outputs.push_back({2, fake(dt, shape)});
  return g;
}

TEST(CudaCodegen, RowKernelsInRegistersUseVectorAccesses) {
  Batch b;
  const struct {
    DType dt;
    Shape shape;
    Strides x;
    int vec;
  } cases[] = {// rows in registers: 16-byte chunks, or the whole row when shorter
               {DType::Float32, {8192, 4096}, {}, 4},
               {DType::Float64, {64, 1000}, {}, 2},
               {DType::Float16, {64, 8192}, {}, 8},
               {DType::Float32, {64, 2}, {}, 2},
               // a strided row: planned, then refused at run time by the contiguity check
               {DType::Float32, {64, 512}, {1024, 2}, 4},
               // looped rows: scalar
               {DType::Float32, {64, 40000}, {}, 1}};
  for (const auto& c : cases) {
    auto g = shifted_rows(b, c.dt, c.shape, c.x);
    const KernelPlan plan = make_plan(*g, h100());
    ASSERT_EQ(plan.strategy, Strategy::Rows);
    EXPECT_EQ(plan.vec, c.vec) << c.shape[1];
    const std::string name = kernel_name(plan);
    const std::string code = generate(plan, name).code;
    EXPECT_EQ(code.find("accel_vec<") != std::string::npos, c.vec > 1) << code;
    b.add(std::move(g));
  }
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  b.compile();
}

// Rows up to 4096 elements: 16 per thread; longer ones 32 per thread on 256 threads while the
// registers allow, more threads beyond; rows over kRowsInRegisters are looped over.
TEST(CudaCodegen, RowThreadsPerRowByLength) {
  Batch b;
  const struct {
    DType dt;
    int64_t n;
    int tpo, ept;
  } cases[] = {{DType::Float32, 4096, 256, 16},  {DType::Float32, 8192, 256, 32},
               {DType::Float32, 6000, 256, 32},  {DType::Float32, 16384, 512, 32},
               {DType::Float64, 8192, 256, 32},  {DType::Float32, 1000, 64, 16},
               {DType::Float32, 16500, 1024, 0}, {DType::Float32, 40000, 1024, 0}};
  for (const auto& c : cases) {
    auto g = shifted_rows(b, c.dt, {64, c.n}, {});
    const KernelPlan plan = make_plan(*g, h100());
    EXPECT_EQ(plan.tpo, c.tpo) << c.n;
    EXPECT_EQ(plan.ept, c.ept) << c.n;
  }
}

TEST(CudaCodegen, RowKernelKeysIgnoreRowCountsButNotTheMapping) {
  Batch b;
  auto short_rows = row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 2, {100, 4096});
  auto more_rows = row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 2, {300, 4096});
  auto long_rows = row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 2, {300, 40000});
  auto columns = row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 1, {300, 4096});
  const KernelPlan a = make_plan(*short_rows, h100()), c = make_plan(*more_rows, h100());
  EXPECT_EQ(a.key, c.key);
  EXPECT_EQ(a.tpo, 256);
  EXPECT_EQ(a.ept, 16);
  EXPECT_NE(a.key, make_plan(*long_rows, h100()).key);
  EXPECT_NE(a.key, make_plan(*columns, h100()).key);
}

// The launch path's plan memo covers row groups: a row group with the signature of a recent one
// reuses its plan with fresh addresses, and groups that differ in their reducer, its compute
// dtype, the reduced axes or which steps are per row get plans of their own.
TEST(CudaCodegen, CachedRowPlansEqualFreshPlans) {
  Batch b;
  std::vector<std::unique_ptr<Group>> groups;
  groups.push_back(row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 2, {64, 4096}));
  groups.push_back(row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 2, {64, 4096}));
  groups.back()->inputs[0] = fake(DType::Float32, {64, 4096}, {}, 1 << 24);  // other memory
  groups.push_back(row_group(b, OpKind::Max, DType::Float32, DType::Float32, 2, {64, 4096}));
  groups.push_back(row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 2, {64, 4096}));
  b.nodes[b.nodes.size() - 3]->compute = DType::Float64;  // its reduction (row_group's first)
  groups.push_back(row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 1, {64, 4096}));
  groups.push_back(row_group(b, OpKind::Sum, DType::Float32, DType::Float32, 2, {64, 40000}));
  groups.push_back(shifted_rows(b, DType::Float32, {64, 4096}, {}));
  groups.push_back(shifted_rows(b, DType::Float32, {64, 512}, {1024, 2}));
  LaunchPlans plans;
  for (int round = 0; round < 2; ++round) {
    for (const auto& g : groups) {
      const KernelPlan& cached = make_plan_cached(*g, h100(), 0, plans);
      const KernelPlan fresh = make_plan(*g, h100());
      ASSERT_EQ(cached.strategy, Strategy::Rows);
      EXPECT_EQ(cached.key, fresh.key);
      EXPECT_EQ(cached.group, g.get());
      EXPECT_EQ(cached.tpo, fresh.tpo);
      EXPECT_EQ(cached.ept, fresh.ept);
      EXPECT_EQ(cached.vec, fresh.vec);
      EXPECT_EQ(cached.grid[0], fresh.grid[0]);
      EXPECT_EQ(pack_params(cached), pack_params(fresh));
    }
  }
  // The second group differs from the first only in an address; the second round finds all.
  EXPECT_EQ(plans.hits, 1 + groups.size());
}

}  // namespace
}  // namespace accel::cuda
