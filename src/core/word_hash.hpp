// A word-at-a-time hash (a multiply-xorshift mix per value) for the planner's structural keys:
// they are hashed on the dispatch path of every operation, where a byte-wise hash over a
// string built first cost allocations.
#pragma once

#include <cstdint>
#include <cstring>

namespace accel {

struct WordHash {
  uint64_t h = 1469598103934665603ULL;
  void add(uint64_t v) {
    h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  // The value's bits (a double's -0.0 and 0.0 differ).
  template <class T>
  void add_bits(const T& v) {
    static_assert(sizeof(T) <= sizeof(uint64_t));
    uint64_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    add(u);
  }
};

}  // namespace accel
