// CUDA C of the indexing kernels (gather, scatter, selection), generated per structure: the
// element size (elements move as raw bytes), the number of merged dimensions and of index
// arrays, and the index mode. Sizes, strides and pointers are run-time parameters.
#pragma once

#include <cstdint>
#include <string>

#include "src/core/backend_indexing.hpp"
#include "src/cuda/jit/codegen.hpp"

namespace accel::cuda {

// Launch shape of the gather/scatter kernels: each thread moves kUnroll elements per step,
// loading them all before storing, so that several random reads are in flight per thread.
inline constexpr int kIndexThreads = 256;
inline constexpr int kIndexUnroll = 4;
// The parameter block is a flat array of 64-bit words (see index_param_words).
inline constexpr int kMaxIndexDims = 16;
inline constexpr int kMaxIndexArrays = 16;

struct IndexKernelKey {
  bool scatter = false;
  int elem_size = 4;  // 1, 2, 4, 8 or 16 bytes
  int ndim = 1;
  int arrays = 1;
  IndexMode mode = IndexMode::Raise;
};
// Words of the parameter block: n, base, dense, error flag, index pointers, shape, strides of
// every operand (base, dense, indices) per dimension, selected strides, lengths.
int index_param_words(int ndim, int arrays);
std::string index_kernel_name(const IndexKernelKey& key);
KernelSource index_kernel_source(const IndexKernelKey& key);

// Selection (compaction) over tiles of kSelectTile mask bytes: count per tile, one-block scan
// of the counts, write. elem_size 0 writes flat indices (int64) instead of values.
inline constexpr int kSelectThreads = 256;
inline constexpr int kSelectPerThread = 16;
inline constexpr int kSelectTile = kSelectThreads * kSelectPerThread;
inline constexpr int kScanThreads = 1024;
std::string select_kernel_name(int elem_size);
// Entries: [count, scan] for the counting program (elem_size -1), [write] otherwise.
KernelSource select_kernel_source(int elem_size);

}  // namespace accel::cuda
