#include "src/cuda/ops/indexing_kernels.hpp"

#include <string>
#include <type_traits>

namespace accel::cuda {

namespace {

// Kernel text built with std::to_string rather than an ostringstream: on the GPU machine the
// stream's number formatting segfaulted inside the extension (2026-12-01, cuda-gdb backtrace in
// ostream::_M_insert<long>; the cause was not established).
struct Source {
  std::string text;
  Source& operator<<(const std::string& t) {
    text += t;
    return *this;
  }
  Source& operator<<(const char* t) {
    text += t;
    return *this;
  }
  Source& operator<<(char c) {
    text += c;
    return *this;
  }
  template <class I>
  requires std::is_integral_v<I> Source& operator<<(I i) {
    text += std::to_string(i);
    return *this;
  }
  std::string str() const { return text; }
};

const char* element_type(int size) {
  switch (size) {
    case 1:
      return "unsigned char";
    case 2:
      return "unsigned short";
    case 4:
      return "unsigned int";
    case 8:
      return "unsigned long long";
    default:
      return "accel_bytes16";
  }
}

const char* kBytes16 =
    "#ifndef ACCEL_BYTES16\n#define ACCEL_BYTES16\n"
    "struct __align__(8) accel_bytes16 { unsigned long long lo, hi; };\n#endif\n";

}  // namespace

int index_param_words(int ndim, int arrays) {
  return 4 + arrays + ndim + (2 + arrays) * ndim + 2 * arrays;
}

std::string index_kernel_name(const IndexKernelKey& k) {
  static const char* modes[] = {"raise", "wrap", "clip"};
  return std::string("accel_") + (k.scatter ? "scatter" : "gather") + "_e" +
         std::to_string(k.elem_size) + "_d" + std::to_string(k.ndim) + "_i" +
         std::to_string(k.arrays) + "_" + modes[int(k.mode)];
}

KernelSource index_kernel_source(const IndexKernelKey& k) {
  const int nd = k.ndim, na = k.arrays, nops = 2 + na;
  const int kShape = 4 + na, kStrides = kShape + nd, kSel = kStrides + nops * nd, kLen = kSel + na;
  const std::string name = index_kernel_name(k);
  Source o;
  if (k.elem_size == 16) o << kBytes16;
  o << "struct " << name << "_params { long long v[" << index_param_words(nd, na) << "]; };\n";
  o << "extern \"C\" __global__ void __launch_bounds__(" << kIndexThreads << ") " << name
    << "(const " << name << "_params p) {\n";
  o << "  typedef " << element_type(k.elem_size) << " E;\n";
  o << "  const long long n = p.v[0];\n";
  o << "  E* base = (E*)p.v[1];\n  E* dense = (E*)p.v[2];\n";
  if (k.mode == IndexMode::Raise) o << "  unsigned long long* err = (unsigned long long*)p.v[3];\n";
  o << "  const long long step = (long long)gridDim.x * blockDim.x * " << kIndexUnroll << ";\n";
  o << "  for (long long i0 = (long long)blockIdx.x * blockDim.x * " << kIndexUnroll
    << " + threadIdx.x; i0 < n; i0 += step) {\n";
  o << "    long long ob[" << kIndexUnroll << "], od[" << kIndexUnroll << "];\n";
  o << "    bool ok[" << kIndexUnroll << "];\n";
  o << "#pragma unroll\n    for (int u = 0; u < " << kIndexUnroll << "; ++u) {\n";
  o << "      const long long i = i0 + (long long)u * blockDim.x;\n";
  o << "      ok[u] = i < n;\n      ob[u] = 0;\n      od[u] = 0;\n";
  o << "      if (!ok[u]) continue;\n";
  o << "      long long r = i;\n";
  for (int j = 0; j < na; ++j) o << "      long long oi" << j << " = 0;\n";
  for (int d = nd - 1; d >= 0; --d) {
    if (d == 0) {
      o << "      {\n        const long long c = r;\n";
    } else {
      o << "      {\n        const long long c = r % p.v[" << kShape + d << "];\n";
      o << "        r /= p.v[" << kShape + d << "];\n";
    }
    o << "        ob[u] += c * p.v[" << kStrides + 0 * nd + d << "];\n";
    o << "        od[u] += c * p.v[" << kStrides + 1 * nd + d << "];\n";
    for (int j = 0; j < na; ++j)
      o << "        oi" << j << " += c * p.v[" << kStrides + (2 + j) * nd + d << "];\n";
    o << "      }\n";
  }
  for (int j = 0; j < na; ++j) {
    o << "      {\n        long long x = ((const long long*)p.v[" << 4 + j << "])[oi" << j
      << "];\n";
    o << "        const long long len = p.v[" << kLen + j << "];\n";
    switch (k.mode) {
      case IndexMode::Raise:
        o << "        const long long raw = x;\n";
        o << "        if (x < 0) x += len;\n";
        o << "        if ((unsigned long long)x >= (unsigned long long)len) {\n";
        o << "          if (atomicCAS(err, 0ull, " << j + 1
          << "ull) == 0ull) err[1] = (unsigned long long)raw;\n";
        o << "          ok[u] = false;\n          continue;\n        }\n";
        break;
      case IndexMode::Wrap:
        o << "        x %= len;\n        if (x < 0) x += len;\n";
        break;
      case IndexMode::Clip:
        o << "        x = x < 0 ? 0 : (x >= len ? len - 1 : x);\n";
        break;
    }
    o << "        ob[u] += x * p.v[" << kSel + j << "];\n      }\n";
  }
  o << "    }\n";
  if (k.scatter) {
    o << "#pragma unroll\n    for (int u = 0; u < " << kIndexUnroll << "; ++u)\n";
    o << "      if (ok[u]) base[ob[u]] = dense[od[u]];\n";
  } else {
    o << "    E val[" << kIndexUnroll << "];\n";
    o << "#pragma unroll\n    for (int u = 0; u < " << kIndexUnroll << "; ++u)\n";
    // Read-only path for the random reads (no overload of __ldg for the 16-byte struct).
    o << "      if (ok[u]) val[u] = " << (k.elem_size == 16 ? "base[ob[u]]" : "__ldg(base + ob[u])")
      << ";\n";
    o << "#pragma unroll\n    for (int u = 0; u < " << kIndexUnroll << "; ++u)\n";
    o << "      if (ok[u]) dense[od[u]] = val[u];\n";
  }
  o << "  }\n}\n";
  KernelSource src;
  src.code = o.str();
  src.entries = {name};
  return src;
}

std::string select_kernel_name(int elem_size) {
  if (elem_size < 0) return "accel_select_count";
  return "accel_select_write_e" + std::to_string(elem_size);
}

KernelSource select_kernel_source(int elem_size) {
  const std::string T = std::to_string(kSelectThreads), P = std::to_string(kSelectPerThread),
                    S = std::to_string(kScanThreads);
  // Each thread owns kSelectPerThread consecutive mask bytes, read as one 16-byte vector when
  // aligned and whole; a byte is true when nonzero (bools need not be exactly 1).
  std::string common = R"(
__device__ __forceinline__ unsigned accel_sel_bits(const unsigned char* m, long long t0,
                                                   long long n) {
  unsigned bits = 0;
  if (t0 + )" + P + R"( <= n && ((unsigned long long)(m + t0) & 15) == 0) {
    const uint4 v = *(const uint4*)(m + t0);
    const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int b = 0; b < 4; ++b) bits |= (((w[q] >> (8 * b)) & 0xffu) != 0u) << (4 * q + b);
  } else {
    for (int i = 0; i < )" +
                       P + R"(; ++i)
      if (t0 + i < n && m[t0 + i]) bits |= 1u << i;
  }
  return bits;
}
// Exclusive prefix of `v` over the block; `total` gets the block's sum.
template <int kThreads>
__device__ __forceinline__ unsigned long long accel_block_scan(unsigned long long v,
                                                               unsigned long long& total) {
  __shared__ unsigned long long warp_sums[kThreads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned long long x = v;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned long long y = __shfl_up_sync(0xffffffffu, x, off);
    if (lane >= off) x += y;
  }
  if (lane == 31) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    unsigned long long w = lane < kThreads / 32 ? warp_sums[lane] : 0ull;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      const unsigned long long y = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += y;
    }
    if (lane < kThreads / 32) warp_sums[lane] = w;
  }
  __syncthreads();
  const unsigned long long before = warp > 0 ? warp_sums[warp - 1] : 0ull;
  total = warp_sums[kThreads / 32 - 1];
  __syncthreads();
  return before + x - v;
}
)";
  KernelSource src;
  Source o;
  o << common;
  if (elem_size < 0) {
    o << "extern \"C\" __global__ void __launch_bounds__(" << T
      << ") accel_select_count(const unsigned char* m, long long n, unsigned long long* counts) "
         "{\n"
         "  const long long t0 = (long long)blockIdx.x * "
      << kSelectTile << " + (long long)threadIdx.x * " << P
      << ";\n"
         "  unsigned long long total;\n"
         "  accel_block_scan<"
      << T
      << ">(__popc(accel_sel_bits(m, t0, n)), total);\n"
         "  if (threadIdx.x == 0) counts[blockIdx.x] = total;\n}\n";
    // One block turns the tile counts into exclusive offsets; offs[tiles] is the total.
    o << "extern \"C\" __global__ void __launch_bounds__(" << S
      << ") accel_select_scan(unsigned long long* counts, long long tiles) {\n"
         "  const long long per = (tiles + "
      << S << " - 1) / " << S
      << ";\n"
         "  const long long lo = threadIdx.x * per;\n"
         "  const long long hi = lo + per < tiles ? lo + per : tiles;\n"
         "  unsigned long long s = 0;\n"
         "  for (long long t = lo; t < hi; ++t) s += counts[t];\n"
         "  unsigned long long total;\n"
         "  unsigned long long at = accel_block_scan<"
      << S
      << ">(s, total);\n"
         "  for (long long t = lo; t < hi; ++t) {\n"
         "    const unsigned long long c = counts[t];\n"
         "    counts[t] = at;\n"
         "    at += c;\n"
         "  }\n"
         "  if (threadIdx.x == 0) counts[tiles] = total;\n}\n";
    src.entries = {"accel_select_count", "accel_select_scan"};
  } else {
    const std::string name = select_kernel_name(elem_size);
    const bool values = elem_size > 0;
    if (elem_size == 16) o << kBytes16;
    o << "extern \"C\" __global__ void __launch_bounds__(" << T << ") " << name
      << "(const unsigned char* m, const void* values, long long n, "
         "const unsigned long long* offs, void* out) {\n";
    o << "  typedef " << (values ? element_type(elem_size) : "long long") << " E;\n";
    o << "  const long long t0 = (long long)blockIdx.x * " << kSelectTile
      << " + (long long)threadIdx.x * " << P << ";\n";
    o << "  const unsigned bits = accel_sel_bits(m, t0, n);\n";
    o << "  unsigned long long total;\n";
    o << "  unsigned long long at = offs[blockIdx.x] + accel_block_scan<" << T
      << ">(__popc(bits), total);\n";
    o << "  E* o = (E*)out;\n";
    if (values)
      o << "  const E* v = (const E*)values;\n";
    else
      o << "  (void)values;\n";
    if (elem_size <= 8) {
      // The tile's selection is staged in shared memory at its block-relative positions, then
      // written out by consecutive threads (coalesced stores).
      o << "  __shared__ E stage[" << kSelectTile << "];\n";
      o << "  unsigned long long k = at - offs[blockIdx.x];\n";
      o << "#pragma unroll\n  for (int i = 0; i < " << P << "; ++i)\n";
      o << "    if (bits & (1u << i)) stage[k++] = " << (values ? "v[t0 + i]" : "t0 + i") << ";\n";
      o << "  __syncthreads();\n";
      o << "  const unsigned long long first = offs[blockIdx.x];\n";
      o << "  for (unsigned j = threadIdx.x; j < (unsigned)total; j += " << T << ")\n";
      o << "    o[first + j] = stage[j];\n";
    } else {
      o << "#pragma unroll\n  for (int i = 0; i < " << P << "; ++i)\n";
      o << "    if (bits & (1u << i)) o[at++] = " << (values ? "v[t0 + i]" : "t0 + i") << ";\n";
    }
    o << "}\n";
    src.entries = {name};
  }
  src.code = o.str();
  return src;
}

}  // namespace accel::cuda
