// The hashes that name kernels and disk-cache files: FNV-1a (64-bit) and its hex spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace accel::util {

inline uint64_t fnv1a(const void* data, size_t n, uint64_t seed = 1469598103934665603ULL) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint64_t h = seed;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

// 16 lower-case hex digits.
inline std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace accel::util
