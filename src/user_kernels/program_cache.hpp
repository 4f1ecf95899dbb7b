// The disk cache a user's program is stored in, on either device: the spec's cache_dir ("off":
// none), else the default directory NVRTC's images and CPU builds share.
#pragma once

#include "accel/user_kernels.hpp"
#include "src/util/disk_cache.hpp"

namespace accel {

inline util::DiskCache program_cache(const ProgramSpec& spec) {
  if (spec.cache_dir == "off") return util::DiskCache("");
  if (!spec.cache_dir.empty()) return util::DiskCache(spec.cache_dir);
  return util::DiskCache(util::default_cache_dir());
}

}  // namespace accel
