// Helpers shared by the C++ tests of the core: host <-> Array conversions, random inputs and
// the evaluator's counters as differences.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "accel/accel.hpp"

namespace accel::test {

// Python's slice(start, stop, step).
inline Slice slice(std::optional<int64_t> start = std::nullopt,
                   std::optional<int64_t> stop = std::nullopt,
                   std::optional<int64_t> step = std::nullopt) {
  return Slice{start, stop, step};
}

inline Array make(const std::vector<double>& values, const Shape& shape) {
  EXPECT_EQ(shape_size(shape), int64_t(values.size()));
  return from_host(values.data(), DType::Float64, shape);
}

inline Array make(const std::vector<double>& values) {
  return make(values, Shape{int64_t(values.size())});
}

// The elements in C order, as float64 (evaluates).
inline std::vector<double> values(const Array& a) {
  const Array f = a.dtype() == DType::Float64 ? a : astype(a, DType::Float64);
  std::vector<double> out(size_t(f.size()));
  to_host(f, out.data());
  return out;
}

// Fresh random values: every run draws new ones (the seed is printed on failure by the caller).
inline std::vector<double> random_values(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-4.0, 4.0);
  std::vector<double> v(n);
  for (double& x : v) x = dist(gen);
  return v;
}

inline uint32_t fresh_seed() { return std::random_device{}(); }

// The evaluator's counters since construction.
class StatsDelta {
 public:
  StatsDelta() : start_(eval_stats()) {}
  uint64_t groups() const { return eval_stats().groups_run - start_.groups_run; }
  uint64_t nodes() const { return eval_stats().nodes_run - start_.nodes_run; }
  uint64_t written() const { return eval_stats().outputs_written - start_.outputs_written; }

 private:
  EvalStats start_;
};

}  // namespace accel::test
