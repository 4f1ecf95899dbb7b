// Advanced indexing through the C++ API (src/core/ops/advanced_indexing.cpp, selection.cpp):
// where the advanced dimensions go, gathers and scatters, masks, the indexing functions, and
// IndexError naming the index, the axis and the size. Expected values were printed by NumPy 2.
#include <gtest/gtest.h>

#include <vector>

#include "accel/errors.hpp"
#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

using test::make;
using test::slice;
using test::values;

// 0, 1, ..., 23 as a 2x3x4 float64 array: an element's value is its C-order position.
Array iota234() {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  return make(v, {2, 3, 4});
}

Array ints(const std::vector<double>& v, const Shape& shape) {
  return astype(make(v, shape), DType::Int64);
}

TEST(AdvancedIndexing, AdjacentIndicesReplaceTheirDimensions) {
  // x[:, [2, 0], [1, 3]] -> shape (2, 2): [[9, 3], [21, 15]]
  const Array r = index(iota234(), {slice(), ints({2, 0}, {2}), ints({1, 3}, {2})});
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(values(r), (std::vector<double>{9, 3, 21, 15}));
}

TEST(AdvancedIndexing, SeparatedIndicesGoFirst) {
  // x[[1, 0], :, [3, -1]] -> shape (2, 3): [[15, 19, 23], [3, 7, 11]]
  const Array r = index(iota234(), {ints({1, 0}, {2}), slice(), ints({3, -1}, {2})});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(values(r), (std::vector<double>{15, 19, 23, 3, 7, 11}));
  // An integer counts as an advanced index: x[0, :, [1, 2]] has shape (2, 3).
  const Array s = index(iota234(), {int64_t{0}, slice(), ints({1, 2}, {2})});
  EXPECT_EQ(s.shape(), (Shape{2, 3}));
  EXPECT_EQ(values(s), (std::vector<double>{1, 5, 9, 2, 6, 10}));
}

TEST(AdvancedIndexing, MasksSelectInCOrder) {
  const Array x = iota234();
  const Array r = index(x, {greater(remainder(x, 5.0), 2.5)});
  EXPECT_EQ(values(r), (std::vector<double>{3, 4, 8, 9, 13, 14, 18, 19, 23}));
  // A mask over the first two dimensions keeps the last: shape (count, 4).
  const Array rows = make({1, 0, 0, 0, 1, 1}, {2, 3});
  const Array m = index(x, {astype(rows, DType::Bool)});
  EXPECT_EQ(m.shape(), (Shape{3, 4}));
  EXPECT_EQ(values(m)[4], 16);
}

TEST(AdvancedIndexing, AssignmentScattersAndBroadcasts) {
  Array x = iota234();
  index_assign(x, {slice(), ints({2}, {1})}, ArrayOrScalar(make({-1, -2, -3, -4}, {4})));
  const std::vector<double> v = values(x);
  EXPECT_EQ(v[8], -1);
  EXPECT_EQ(v[11], -4);
  EXPECT_EQ(v[20], -1);
  EXPECT_EQ(v[0], 0);
  // A mask with a scalar is a where(): every element over 15 becomes 0.
  index_assign(x, {greater(x, 15.0)}, ArrayOrScalar(0.0));
  EXPECT_EQ(values(x)[19], 0);
  EXPECT_EQ(values(x)[15], 15);
  EXPECT_EQ(values(x)[23], -4);
}

TEST(AdvancedIndexing, OutOfRangeNamesIndexAxisAndSize) {
  try {
    (void)index(iota234(), {slice(), ints({0, 3}, {2})});
    FAIL() << "no IndexError";
  } catch (const IndexError& e) {
    EXPECT_STREQ(e.what(), "index 3 is out of bounds for axis 1 with size 3");
  }
  EXPECT_THROW(take(iota234(), ints({-25}, {1})), IndexError);
  // A mask whose length differs from its dimension's.
  EXPECT_THROW(index(iota234(), {astype(make({1, 0, 1}, {3}), DType::Bool), slice()}), IndexError);
}

TEST(IndexingFunctions, TakeNonzeroCount) {
  const Array x = iota234();
  EXPECT_EQ(values(take(x, ints({5, -1}, {2}), 2, "wrap")),
            (std::vector<double>{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}));
  const std::vector<Array> nz = nonzero(greater(x, 20.5));
  ASSERT_EQ(nz.size(), 3u);
  EXPECT_EQ(values(nz[0]), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(nz[1]), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(values(nz[2]), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values(count_nonzero(x, std::vector<int64_t>{2})),
            (std::vector<double>{3, 4, 4, 4, 4, 4}));
  Array y = zeros(Shape{5}, DType::Float64, Device::cpu());
  put(y, ints({4, 4, 0}, {3}), make({1, 2, 3}), "raise");
  EXPECT_EQ(values(y), (std::vector<double>{3, 0, 0, 0, 2}));  // the last duplicate wins
}

}  // namespace
}  // namespace accel
