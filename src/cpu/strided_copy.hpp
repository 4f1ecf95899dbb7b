// Moving elements between strided views and packed blocks by their size alone: the block
// executor's gathers and scatters (program.cpp), the small-group interpreter's (small_group.cpp)
// and the same-dtype copy group (copy_group.cpp); the indexing loops (indexing.cpp) use the
// dispatch. A move does not look at the dtype, so each loop is compiled once per element size
// rather than once per dtype.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "accel/shape.hpp"

namespace accel::cpu {

// A 16-byte element (complex128), moved as a whole.
struct Item16 {
  uint64_t lo, hi;
};

// Calls f(T{}) with T the type that moves one element of `size` bytes (1, 2, 4, 8 or 16) and
// returns true; for any other size calls nothing and returns false.
template <class F>
bool with_item_type(size_t size, F&& f) {
  switch (size) {
    case 1:
      f(uint8_t{});
      return true;
    case 2:
      f(uint16_t{});
      return true;
    case 4:
      f(uint32_t{});
      return true;
    case 8:
      f(uint64_t{});
      return true;
    case 16:
      f(Item16{});
      return true;
    default:
      return false;
  }
}

// Copies `count` elements of T from src (every `in_stride` elements) to dst (every
// `out_stride`). Dense on both sides: memmove, because the evaluator lets a copy write the very
// view it reads (`a[...] = a`). One element to a dense run: a fill. Dense on one side: a loop with
// that side's stride known to be 1. Elements are moved by memcpy: a view of bytes need not be
// aligned to its dtype.
template <class T>
void copy_items(const char* src, int64_t in_stride, char* dst, int64_t out_stride, int64_t count) {
  constexpr auto item = int64_t(sizeof(T));
  if (in_stride == 1 && out_stride == 1) {
    std::memmove(dst, src, size_t(count) * sizeof(T));
  } else if (in_stride == 0 && out_stride == 1) {
    // One element repeated (a per-row value broadcast along a row): read once, stored as a
    // fill, which compilers vectorize; the copy loop below reloaded it per element.
    T value;
    std::memcpy(&value, src, sizeof(T));
    for (int64_t j = 0; j < count; ++j) std::memcpy(dst + j * item, &value, sizeof(T));
  } else if (out_stride == 1) {
    for (int64_t j = 0; j < count; ++j) {
      std::memcpy(dst + j * item, src + j * in_stride * item, sizeof(T));
    }
  } else if (in_stride == 1) {
    for (int64_t j = 0; j < count; ++j) {
      std::memcpy(dst + j * out_stride * item, src + j * item, sizeof(T));
    }
  } else {
    for (int64_t j = 0; j < count; ++j) {
      std::memcpy(dst + j * out_stride * item, src + j * in_stride * item, sizeof(T));
    }
  }
}

// Walks linear indices [start, start + n) of `shape` in C order, one run along the last
// dimension at a time, for K views of that shape at once (strides in elements): calls
// fn(offsets, stride, count, pos) where view k's elements of the run are at offsets[k] +
// j * stride[k] and land at positions pos + j, j < count. A 0-d shape is one run of one element.
template <size_t K, class Fn>
void walk_runs(const Shape& shape, const std::array<const Strides*, K>& strides, int64_t start,
               int64_t n, Fn&& fn) {
  std::array<int64_t, K> offset{}, stride{};
  const size_t nd = shape.size();
  if (n <= 0) return;  // an empty shape has a 0 to divide by below
  if (nd == 0) return fn(offset, stride, int64_t(1), int64_t(0));
  SmallVector<int64_t, 6> idx(nd, 0);
  int64_t rem = start;
  for (size_t d = nd; rem && d-- > 0;) {  // no divisions for a walk from the start (small groups)
    idx[d] = rem % shape[d];
    rem /= shape[d];
    for (size_t k = 0; k < K; ++k) offset[k] += idx[d] * (*strides[k])[d];
  }
  for (size_t k = 0; k < K; ++k) stride[k] = (*strides[k])[nd - 1];
  const int64_t inner = shape[nd - 1];
  // A first run from the middle of a row, then whole rows, then the last one's beginning.
  int64_t count = std::min(n, inner - idx[nd - 1]);
  int64_t pos = 0;
  for (;;) {
    fn(offset, stride, count, pos);
    pos += count;
    if (pos >= n) return;
    // The next row: back to this row's first element, then carry into the outer dimensions.
    for (size_t k = 0; k < K; ++k) offset[k] -= idx[nd - 1] * stride[k];
    idx[nd - 1] = 0;
    for (size_t d = nd - 1; d-- > 0;) {
      for (size_t k = 0; k < K; ++k) offset[k] += (*strides[k])[d];
      if (++idx[d] < shape[d]) break;
      for (size_t k = 0; k < K; ++k) offset[k] -= shape[d] * (*strides[k])[d];
      idx[d] = 0;
    }
    count = std::min(n - pos, inner);
  }
}

// Copies linear indices [start, start + n) of a view of `shape` (its first element at `base`,
// `strides` in elements) to `packed`, where they lie in C order (gather), or back (!gather).
// False, nothing copied, for an element size with_item_type has no type for.
inline bool move_packed(bool gather, const Shape& shape, const Strides& strides, int64_t start,
                        int64_t n, size_t item, char* base, char* packed) {
  return with_item_type(item, [&](auto t) {
    using T = decltype(t);
    constexpr auto isz = int64_t(sizeof(T));
    walk_runs<1>(shape, {&strides}, start, n,
                 [&](const auto& off, const auto& step, int64_t count, int64_t pos) {
                   char* view = base + off[0] * isz;
                   if (gather) {
                     copy_items<T>(view, step[0], packed + pos * isz, 1, count);
                   } else {
                     copy_items<T>(packed + pos * isz, 1, view, step[0], count);
                   }
                 });
  });
}

}  // namespace accel::cpu
