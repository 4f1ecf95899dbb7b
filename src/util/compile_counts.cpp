#include "src/util/compile_counts.hpp"

#include <mutex>

namespace accel::util {

namespace {

struct Counts {
  std::mutex mutex;
  CompileCounts c;
};
Counts& counts() {
  static Counts* c = new Counts;
  return *c;
}

}  // namespace

void record_compilation(double ms) {
  std::lock_guard<std::mutex> lock(counts().mutex);
  ++counts().c.compiled;
  counts().c.compile_ms += ms;
}

void record_disk_hit() {
  std::lock_guard<std::mutex> lock(counts().mutex);
  ++counts().c.disk_hits;
}

CompileCounts compile_counts() {
  std::lock_guard<std::mutex> lock(counts().mutex);
  return counts().c;
}

}  // namespace accel::util
