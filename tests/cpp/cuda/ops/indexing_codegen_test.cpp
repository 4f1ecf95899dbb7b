// Compiles every indexing kernel structure (gather/scatter over each element size, index mode,
// a range of dimension and index-array counts; the selection kernels) to an sm_90 cubin with
// NVRTC, without a GPU; and checks the dimension merging the kernels iterate over.
#include <gtest/gtest.h>

#include <iostream>

#include "accel/ops.hpp"
#include "src/core/backend_indexing.hpp"
#include "src/cuda/driver/loader.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/cuda/jit/kernel_cache.hpp"
#include "src/cuda/ops/indexing_kernels.hpp"

namespace accel::cuda {
namespace {

bool nvrtc_found() {
  if (nvrtc()) return true;
  std::cerr << "NVRTC not found (" << nvrtc_status().error << "): skipping compilation\n";
  return false;
}

TEST(CudaIndexingCodegen, GatherScatterEveryStructure) {
  if (!nvrtc_found()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  // Every element size and mode in one and two dimensions; the dimension and index-array
  // counts vary the code only in unrolled offset arithmetic, so a few larger ones suffice
  // (the largest takes NVRTC long: it is compiled once, as a gather).
  std::string program;
  auto add = [&](IndexKernelKey key) {
    const KernelSource src = index_kernel_source(key);
    ASSERT_EQ(src.entries.size(), 1u);
    EXPECT_NE(src.code.find(src.entries[0]), std::string::npos);
    program += src.code;
  };
  for (bool scatter : {false, true}) {
    for (int size : {1, 2, 4, 8, 16}) {
      for (IndexMode mode : {IndexMode::Raise, IndexMode::Wrap, IndexMode::Clip}) {
        add({scatter, size, 1, 1, mode});
      }
      add({scatter, size, 2, 1, IndexMode::Raise});
    }
    add({scatter, 4, 3, 2, IndexMode::Raise});
  }
  add({false, 8, kMaxIndexDims, kMaxIndexArrays, IndexMode::Raise});
  EXPECT_NO_THROW(compile_program(program, 90, "indexing_batch"));
  // The largest parameter block still passes by value.
  EXPECT_LE(size_t(index_param_words(kMaxIndexDims, kMaxIndexArrays)) * 8, kMaxParamBytes);
}

TEST(CudaIndexingCodegen, SelectionKernels) {
  if (!nvrtc_found()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  for (int size : {-1, 0, 1, 2, 4, 8, 16}) {
    const KernelSource src = select_kernel_source(size);
    EXPECT_NO_THROW(compile_program(src.code, 90, select_kernel_name(size))) << size;
    EXPECT_EQ(src.entries.size(), size < 0 ? 2u : 1u);
  }
}

TEST(IndexLoop, MergesDimensionsEveryOperandWalksAlike) {
  const Device cpu = Device::cpu();
  IndexMap map;
  map.base = zeros(Shape{4, 6, 8}, DType::Float32, cpu);
  map.base.eval();
  map.dense = Array::empty(Shape{3, 6, 8}, DType::Float32, cpu);
  map.base_strides = Strides{0, 8, 1};
  Array idx = zeros(Shape{3}, DType::Int64, cpu);
  idx.eval();
  map.indices.push_back({idx.view(Shape{3, 6, 8}, Strides{1, 0, 0}, 0), 48, 4, 0});
  const IndexLoop loop = make_index_loop(map);
  // The last two dimensions merge (contiguous in base and dense, broadcast in the index).
  ASSERT_EQ(loop.shape.size(), 2u);
  EXPECT_EQ(loop.shape[0], 3);
  EXPECT_EQ(loop.shape[1], 48);
  EXPECT_EQ(loop.strides[0][1], 1);
  EXPECT_EQ(loop.strides[2][0], 1);
  EXPECT_EQ(loop.size, 144);
}

}  // namespace
}  // namespace accel::cuda
