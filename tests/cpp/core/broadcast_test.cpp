// Broadcasting (src/core/shape.cpp, ops/shape_ops.cpp): NumPy's rules for result shapes, the
// views they produce (stride 0, read-only where NumPy's are), and error messages that name
// every shape involved.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

using test::make;
using test::values;

struct Case {
  std::vector<Shape> in;
  Shape out;
};

TEST(Broadcast, ResultShapes) {
  const std::vector<Case> cases = {
      {{{}, {}}, {}},
      {{{}, {3}}, {3}},
      {{{2, 3}, {}}, {2, 3}},
      {{{3}, {2, 3}}, {2, 3}},
      {{{2, 1}, {1, 3}}, {2, 3}},
      {{{2, 1, 4}, {3, 1}}, {2, 3, 4}},
      {{{1}, {0}}, {0}},
      {{{0, 1}, {1, 5}}, {0, 5}},
      {{{1, 1, 1}, {7}}, {1, 1, 7}},
      {{{5, 1, 3}, {4, 1}, {1, 3}}, {5, 4, 3}},
      {{{8, 1, 6, 1}, {7, 1, 5}}, {8, 7, 6, 5}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(broadcast_shapes(c.in), c.out) << shape_str(c.in[0]) << " " << shape_str(c.in[1]);
    if (c.in.size() == 2) {
      EXPECT_EQ(broadcast_shapes(c.in[0], c.in[1]), c.out);
      EXPECT_EQ(broadcast_shapes(c.in[1], c.in[0]), c.out);
    }
  }
}

// The message of the ValueError that `f` throws.
template <class F>
std::string value_error(F&& f) {
  try {
    f();
  } catch (const ValueError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ValueError";
  return "";
}

TEST(Broadcast, IncompatibleShapesNameEveryShape) {
  EXPECT_EQ(value_error([] {
              broadcast_shapes(Shape{2, 3}, Shape{4});
            }),
            "operands could not be broadcast together with shapes (2, 3) (4,)");
  EXPECT_EQ(value_error([] {
              broadcast_shapes({Shape{5, 1}, Shape{3}, Shape{4, 1}});
            }),
            "operands could not be broadcast together with shapes (5, 1) (3,) (4, 1)");
  EXPECT_THROW(broadcast_shapes(Shape{0}, Shape{2}), ValueError);
  EXPECT_THROW(broadcast_shapes(Shape{2, 3, 4}, Shape{3, 3}), ValueError);
}

TEST(Broadcast, ElementwiseOpsBroadcastTheirOperands) {
  const Array col = make({1, 2, 3}, {3, 1});
  const Array row = make({10, 20, 30, 40}, {4});
  const Array sum = add(col, row);
  EXPECT_EQ(sum.shape(), (Shape{3, 4}));
  EXPECT_EQ(values(sum), (std::vector<double>{11, 21, 31, 41, 12, 22, 32, 42, 13, 23, 33, 43}));
  EXPECT_EQ(add(make({}, {0}), make({5}, {1})).shape(), (Shape{0}));
  EXPECT_EQ(where(make({1, 0}, {2, 1}), col.view({1, 3}, {1, 1}, 0), 0.0).shape(), (Shape{2, 3}));
  EXPECT_EQ(value_error([&] {
              add(col, make({1, 2, 3, 4}, {2, 2}));
            }),
            "operands could not be broadcast together with shapes (3, 1) (2, 2)");
  EXPECT_THROW(multiply(make({1, 2, 3, 4}, {2, 2}), make({1, 2, 3}, {3})), ValueError);
}

TEST(Broadcast, BroadcastToIsAReadOnlyStrideZeroView) {
  const Array a = make({1, 2, 3}, {3});
  const Array b = broadcast_to(a, {2, 3});
  EXPECT_EQ(b.storage(), a.storage());
  EXPECT_EQ(b.strides(), (Strides{0, 1}));
  EXPECT_FALSE(b.writeable());
  EXPECT_EQ(values(b), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  const Array c = broadcast_to(make({7}, {1, 1}), {2, 1, 3});
  EXPECT_EQ(c.strides()[0], 0);
  EXPECT_EQ(c.strides()[2], 0);
  EXPECT_EQ(values(c), std::vector<double>(6, 7));
  EXPECT_EQ(broadcast_to(a, {0, 3}).size(), 0);
  EXPECT_EQ(value_error([&] {
              broadcast_to(a, {2, 4});
            }),
            "cannot broadcast array of shape (3,) to shape (2, 4)");
  EXPECT_THROW(broadcast_to(a, {}), ValueError);
  EXPECT_THROW(broadcast_to(make({1, 2, 3, 4, 5, 6}, {2, 3}), {3}), ValueError);
  EXPECT_THROW(broadcast_to(a, {-1, 3}), ValueError);
}

TEST(Broadcast, BroadcastArraysLeavesMatchingArraysAlone) {
  const Array a = make({1, 2, 3}, {1, 3});
  const Array b = make({4, 5}, {2, 1});
  const Array c = make({1, 2, 3, 4, 5, 6}, {2, 3});
  const std::vector<Array> out = broadcast_arrays({a, b, c});
  ASSERT_EQ(out.size(), 3u);
  for (const Array& o : out) EXPECT_EQ(o.shape(), (Shape{2, 3}));
  EXPECT_FALSE(out[0].writeable());
  EXPECT_TRUE(out[2].writeable());  // c needed no broadcasting: it is c itself
  EXPECT_EQ(values(out[1]), (std::vector<double>{4, 4, 4, 5, 5, 5}));
  EXPECT_THROW(broadcast_arrays({a, make({1, 2}, {2})}), ValueError);
}

TEST(Broadcast, AssignmentBroadcastsTheValue) {
  const Array x = zeros({2, 3});
  assign(x, make({1, 2, 3}, {3}));
  EXPECT_EQ(values(x), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  assign(x, make({4, 5, 6}, {1, 1, 3}));  // extra leading length-1 axes are allowed
  EXPECT_EQ(values(x), (std::vector<double>{4, 5, 6, 4, 5, 6}));
  EXPECT_EQ(value_error([&] {
              assign(x, make({1, 2}, {2}));
            }),
            "could not broadcast input array from shape (2,) into shape (2, 3)");
  EXPECT_THROW(assign(x, make({1, 2, 3, 4, 5, 6}, {2, 1, 3})), ValueError);
}

}  // namespace
}  // namespace accel
