// Gathers and scatters move elements as raw bytes (one loop per element size, not per dtype);
// gathers, selections and masked assignments are split across the thread pool, scatters run in
// order on one thread so that the last of duplicate indices wins, as in NumPy.
#include "src/cpu/indexing.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "accel/storage.hpp"
#include "src/cpu/strided_copy.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

template <class T>
T* element0(const Array& a) {
  return static_cast<T*>(a.storage()->data()) + a.offset();
}

// The first out-of-range index any thread met.
struct BadIndex {
  std::atomic<bool> set{false};
  int64_t value = 0;
  int operand = 0;
  void report(int64_t v, int j) {
    bool expected = false;
    if (set.compare_exchange_strong(expected, true)) {
      value = v;
      operand = j;
    }
  }
};

// Maps an index into [0, len) by the mode; false when it is out of range.
template <IndexMode mode>
inline bool normalize(int64_t& x, int64_t len) {
  if constexpr (mode == IndexMode::Raise) {
    if (x < 0) x += len;
    return uint64_t(x) < uint64_t(len);
  }
  if (len == 0) return false;
  if constexpr (mode == IndexMode::Wrap) {
    x %= len;
    if (x < 0) x += len;
  } else {
    x = x < 0 ? 0 : (x >= len ? len - 1 : x);
  }
  return true;
}

template <class T, bool kScatter, IndexMode kMode>
void run_map(const IndexMap& map, bool parallel) {
  const IndexLoop loop = make_index_loop(map);
  const int nd = int(loop.shape.size());
  const int k = int(map.indices.size());
  const int nops = 2 + k;
  T* base = element0<T>(map.base);
  T* dense = element0<T>(map.dense);
  std::vector<const int64_t*> idx(k);
  std::vector<int64_t> sel_stride(k), len(k);
  for (int j = 0; j < k; ++j) {
    idx[j] = element0<const int64_t>(map.indices[j].index);
    sel_stride[j] = map.indices[j].stride;
    len[j] = map.indices[j].len;
  }
  BadIndex bad;
  auto body = [&](int64_t lo, int64_t hi, int) {
    std::vector<int64_t> c(nd), off(nops);
    auto set_offsets = [&] {
      for (int op = 0; op < nops; ++op) {
        int64_t o = 0;
        for (int d = 0; d < nd; ++d) o += c[d] * loop.strides[op][d];
        off[op] = o;
      }
    };
    int64_t r = lo;
    for (int d = nd - 1; d >= 0; --d) {
      c[d] = r % loop.shape[d];
      r /= loop.shape[d];
    }
    set_offsets();
    const int64_t inner = loop.shape[nd - 1];
    const int64_t sb = loop.strides[0][nd - 1], sd = loop.strides[1][nd - 1];
    for (int64_t i = lo; i < hi;) {
      const int64_t count = std::min(inner - c[nd - 1], hi - i);
      if (k == 1) {
        // One index array (x[idx], take): the loop the compiler can keep in registers.
        const int64_t* ip = idx[0] + off[2];
        const int64_t si = loop.strides[2][nd - 1], sel = sel_stride[0], n0 = len[0];
        T* bp = base + off[0];
        T* dp = dense + off[1];
        for (int64_t t = 0; t < count; ++t) {
          int64_t x = ip[t * si];
          const int64_t raw = x;
          if (!normalize<kMode>(x, n0)) return bad.report(raw, 0);
          if constexpr (kScatter) {
            bp[t * sb + x * sel] = dp[t * sd];
          } else {
            dp[t * sd] = bp[t * sb + x * sel];
          }
        }
      } else {
        for (int64_t t = 0; t < count; ++t) {
          int64_t ob = off[0] + t * sb;
          for (int j = 0; j < k; ++j) {
            int64_t x = idx[j][off[2 + j] + t * loop.strides[2 + j][nd - 1]];
            const int64_t raw = x;
            if (!normalize<kMode>(x, len[j])) return bad.report(raw, j);
            ob += x * sel_stride[j];
          }
          if constexpr (kScatter) {
            base[ob] = dense[off[1] + t * sd];
          } else {
            dense[off[1] + t * sd] = base[ob];
          }
        }
      }
      if (bad.set.load(std::memory_order_relaxed)) return;
      i += count;
      c[nd - 1] += count;
      for (int d = nd - 1; d > 0 && c[d] == loop.shape[d]; --d) {
        c[d] = 0;
        ++c[d - 1];
      }
      set_offsets();
    }
  };
  constexpr int64_t kGrain = 1 << 14;
  if (parallel && loop.size > 4 * kGrain) {
    parallel_for(loop.size, kGrain, body);
  } else {
    body(0, loop.size, 0);
  }
  if (bad.set) {
    const IndexOperand& op = map.indices[bad.operand];
    throw_index_out_of_bounds(bad.value, op.axis, op.len);
  }
}

template <bool kScatter>
void dispatch(const IndexMap& map) {
  with_item_type(itemsize(map.base.dtype()), [&](auto t) {
    using T = decltype(t);
    switch (map.mode) {
      case IndexMode::Raise:
        return run_map<T, kScatter, IndexMode::Raise>(map, !kScatter);
      case IndexMode::Wrap:
        return run_map<T, kScatter, IndexMode::Wrap>(map, !kScatter);
      case IndexMode::Clip:
        return run_map<T, kScatter, IndexMode::Clip>(map, !kScatter);
    }
  });
}

// The true elements of a bool mask in [lo, hi) (at most 2^32 of them). Read as bytes into a
// 32-bit sum, the loop vectorizes; read as bool into a 64-bit count it ran a byte at a time, a
// third of a masked selection's time (Mandelbrot's `Z[I]`).
int64_t count_true(const unsigned char* m, int64_t lo, int64_t hi) {
  uint32_t count = 0;
  for (int64_t i = lo; i < hi; ++i) count += m[i] != 0;
  return count;
}

constexpr int64_t kBlock = 32;  // mask bytes per block: one bit each in a uint32_t

// Bit j of the result is set where mask byte m[j] is nonzero, for j < len <= kBlock (any
// nonzero byte is true, as in a bool view of other bytes).
inline uint32_t true_bits(const unsigned char* m, int64_t len) {
#if defined(__AVX2__)
  if (len == kBlock) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m));
    return ~uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, _mm256_setzero_si256())));
  }
#endif
  uint32_t bits = 0;
  for (int64_t j = 0; j < len; ++j) bits |= uint32_t(m[j] != 0) << j;
  return bits;
}

// Calls f(i, bits, all) for each block of 32 mask bytes in [lo, hi) that has a true element.
// Masks of real programs come in runs (Mandelbrot's bounded points, a region of a grid): a
// block that is all false is skipped and one that is all true (`all`) copied whole, where a
// byte-at-a-time loop spent about a cycle per element on both. Mixed blocks are read as bits.
template <class F>
void for_each_block(const unsigned char* m, int64_t lo, int64_t hi, F&& f) {
  for (int64_t i = lo; i < hi; i += kBlock) {
    const int64_t len = std::min(kBlock, hi - i);
    const uint32_t bits = true_bits(m + i, len);
    if (bits != 0) f(i, bits, len == kBlock && bits == ~uint32_t(0));
  }
}

// Stores the selected elements of [lo, hi) (their values, or without kValues their flat
// indices) at o[at], o[at + 1], ..., o[end - 1]; hi is the end of a chunk, end the end of its
// part of the output. A mixed block is stored branch-free, each of its 32 elements at the next
// free slot, which only advances past selected ones (unrolled: no branch for a random mask to
// mispredict, no loop exit that depends on the mask). Stores past the block's last selected
// element land on slots that later selected elements overwrite, so the chunk's last block with
// selected elements (the only one that may be short) visits its set bits instead, and nothing
// is read past hi or stored at end.
template <bool kValues, class T>
void compact(const unsigned char* m, const T* v, T* o, int64_t lo, int64_t hi, int64_t at,
             int64_t end) {
  auto element = [&](int64_t j) {
    if constexpr (kValues) {
      return v[j];
    } else {
      return T(j);
    }
  };
  for_each_block(m, lo, hi, [&](int64_t i, uint32_t bits, bool all) {
    if (all) {
      if constexpr (kValues) {
        std::memcpy(o + at, v + i, kBlock * sizeof(T));
      } else {
        for (int64_t j = 0; j < kBlock; ++j) o[at + j] = T(i + j);
      }
      at += kBlock;
    } else if (at + std::popcount(bits) < end) {
#pragma GCC unroll 32
      for (int j = 0; j < kBlock; ++j) {
        o[at] = element(i + j);
        at += (bits >> j) & 1;
      }
    } else {
      for (; bits != 0; bits &= bits - 1) o[at++] = element(i + std::countr_zero(bits));
    }
  });
}

// The inverse of compact: a[i] = v[at++] for each selected i in [lo, hi). A mixed block visits
// only its set bits (count trailing zeros, clear the lowest): a few instructions per selected
// element and one mispredicted loop exit per block. Branch-free, every element rewritten with
// itself or its value, took 15 instructions an element, more than the positions and scatter
// this pass replaced; a branch per element mispredicts at every other element of a random
// mask.
template <class T>
void expand(const unsigned char* m, const T* v, T* a, int64_t lo, int64_t hi, int64_t at) {
  for_each_block(m, lo, hi, [&](int64_t i, uint32_t bits, bool all) {
    if (all) {
      std::memcpy(a + i, v + at, kBlock * sizeof(T));
      at += kBlock;
      return;
    }
    for (; bits != 0; bits &= bits - 1) a[i + std::countr_zero(bits)] = v[at++];
  });
}

constexpr int64_t kChunk = 1 << 16;  // mask elements per task of selection and assignment

// Where each chunk's selected elements start in the packed values (a running count of the
// chunks' true elements, counted in parallel); the last entry is the total.
std::vector<int64_t> chunk_starts(const unsigned char* m, int64_t n) {
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<int64_t> start(size_t(chunks) + 1, 0);
  parallel_for(chunks, 1, [&](int64_t lo, int64_t hi, int) {
    for (int64_t ch = lo; ch < hi; ++ch) {
      start[size_t(ch) + 1] = count_true(m, ch * kChunk, std::min(n, (ch + 1) * kChunk));
    }
  });
  for (int64_t ch = 0; ch < chunks; ++ch) start[size_t(ch) + 1] += start[size_t(ch)];
  return start;
}

class CpuIndexing final : public IndexingBackend {
 public:
  void gather(const IndexMap& map) override { dispatch<false>(map); }
  void scatter(const IndexMap& map) override { dispatch<true>(map); }
  Array select(const Array& mask, const Array& values) override {
    const int64_t n = mask.size();
    const unsigned char* m = element0<const unsigned char>(mask);
    const std::vector<int64_t> start = chunk_starts(m, n);
    const int64_t chunks = int64_t(start.size()) - 1;
    const DType dt = values.defined() ? values.dtype() : DType::Int64;
    Array out = Array::empty(Shape{start[chunks]}, dt, mask.device());
    if (start[chunks] == 0) return out;
    auto write = [&](auto t) {
      using T = decltype(t);
      T* o = element0<T>(out);
      const T* v = values.defined() ? element0<const T>(values) : nullptr;
      parallel_for(chunks, 1, [&](int64_t lo, int64_t hi, int) {
        for (int64_t ch = lo; ch < hi; ++ch) {
          const int64_t e = std::min(n, (ch + 1) * kChunk);
          if (v) {
            compact<true>(m, v, o, ch * kChunk, e, start[ch], start[ch + 1]);
          } else if constexpr (std::is_same_v<T, uint64_t>) {
            compact<false>(m, v, o, ch * kChunk, e, start[ch], start[ch + 1]);
          }
        }
      });
    };
    with_item_type(itemsize(dt), write);
    return out;
  }
  int64_t place(const Array& a, const Array& mask, const Array& values) override {
    const int64_t n = mask.size();
    const unsigned char* m = element0<const unsigned char>(mask);
    const std::vector<int64_t> start = chunk_starts(m, n);
    const int64_t chunks = int64_t(start.size()) - 1;
    if (start[chunks] != values.size() || start[chunks] == 0) return start[chunks];
    with_item_type(itemsize(a.dtype()), [&](auto t) {
      using T = decltype(t);
      T* out = element0<T>(a);
      const T* v = element0<const T>(values);
      parallel_for(chunks, 1, [&](int64_t lo, int64_t hi, int) {
        for (int64_t ch = lo; ch < hi; ++ch) {
          expand(m, v, out, ch * kChunk, std::min(n, (ch + 1) * kChunk), start[ch]);
        }
      });
    });
    return start[chunks];
  }
};

}  // namespace

IndexingBackend& cpu_indexing() {
  static CpuIndexing backend;
  return backend;
}

}  // namespace accel::cpu
