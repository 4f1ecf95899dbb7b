// Strides and views (src/core/ops/shape_ops.cpp, indexing.cpp): reshape is a view exactly when
// NumPy's is, slicing with any step is a view with NumPy's strides and offset, and views of a
// storage see each other's writes. Expected layouts were printed by NumPy 2 (strides in
// elements; length-1 dimensions' strides are free, as in NumPy, and not compared).
#include <gtest/gtest.h>

#include <vector>

#include "tests/cpp/core/test_util.hpp"

namespace accel {
namespace {

using test::make;
using test::slice;
using test::values;

// 0, 1, ..., 23 as a 4x6 float64 array: an element's value is its offset in the storage.
Array base() {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  return make(v, {4, 6});
}

// The storage offsets of a layout's elements, in C order.
std::vector<double> offsets(const Shape& shape, const Strides& strides, int64_t offset) {
  std::vector<double> out;
  const int64_t n = shape_size(shape);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t rem = flat, off = offset;
    for (size_t d = shape.size(); d-- > 0;) {
      off += (rem % shape[d]) * strides[d];
      rem /= shape[d];
    }
    out.push_back(double(off));
  }
  return out;
}

struct Layout {
  Shape shape;
  Strides strides;
  int64_t offset;
};

// `v` is a view of `of` with NumPy's layout `want`, and reads the elements that layout names.
void expect_view(const Array& v, const Array& of, const Layout& want) {
  EXPECT_EQ(v.storage(), of.storage());
  ASSERT_EQ(v.shape(), want.shape);
  for (int d = 0; d < v.ndim(); ++d) {
    if (want.shape[d] != 1) {
      EXPECT_EQ(v.strides()[d], want.strides[d]) << "dimension " << d;
    }
  }
  if (v.size() > 0) {
    EXPECT_EQ(v.offset(), want.offset);
  }
  EXPECT_EQ(values(v), offsets(want.shape, want.strides, want.offset));
}

// `c` is a new array holding `source`'s elements in C order under `shape`.
void expect_copy(const Array& c, const Array& source, const Shape& shape) {
  EXPECT_NE(c.storage(), source.storage());
  EXPECT_EQ(c.shape(), shape);
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(values(c), values(source));
}

TEST(Reshape, ViewWhenNumPysIsAView) {
  const Array a = base();
  expect_view(reshape(a, {2, 12}), a, {{2, 12}, {12, 1}, 0});
  expect_view(reshape(a, {-1}), a, {{24}, {1}, 0});
  expect_view(reshape(a, {4, 2, 3}), a, {{4, 2, 3}, {6, 3, 1}, 0});
  expect_view(reshape(a, {1, 4, 1, 6, 1}), a, {{1, 4, 1, 6, 1}, {24, 6, 6, 1, 1}, 0});
  const Array rows = index(a, {slice({}, {}, 2)});  // a[::2]
  expect_view(reshape(rows, {2, 2, 3}), a, {{2, 2, 3}, {12, 3, 1}, 0});
  const Array cols = index(a, {slice(), slice({}, 3)});  // a[:, :3]
  expect_view(reshape(cols, {2, 2, 3}), a, {{2, 2, 3}, {12, 6, 1}, 0});
  const Array t = transpose(a);
  expect_view(reshape(t, {3, 2, 4}), a, {{3, 2, 4}, {2, 1, 6}, 0});
  expect_view(reshape(t, {6, 2, 2}), a, {{6, 2, 2}, {1, 12, 6}, 0});
  const Array flipped = index(a, {slice({}, {}, -1)});  // a[::-1]
  expect_view(reshape(flipped, {2, 2, 6}), a, {{2, 2, 6}, {-12, -6, 1}, 18});
  const Array mirrored = index(a, {slice(), slice({}, {}, -1)});  // a[:, ::-1]
  expect_view(reshape(mirrored, {4, 3, 2}), a, {{4, 3, 2}, {6, -2, -1}, 5});
  expect_view(reshape(index(a, {NewAxis{}, slice(), NewAxis{}}), {4, 6}), a, {{4, 6}, {6, 1}, 0});
}

TEST(Reshape, CopyWhenNoStridesFit) {
  const Array a = base();
  expect_copy(reshape(index(a, {slice({}, {}, 2)}), {12}), index(a, {slice({}, {}, 2)}), {12});
  expect_copy(reshape(index(a, {slice(), slice({}, 3)}), {12}), index(a, {slice(), slice({}, 3)}),
              {12});
  expect_copy(reshape(transpose(a), {24}), transpose(a), {24});
  expect_copy(ravel(transpose(a)), transpose(a), {24});
}

TEST(Reshape, InfersOneDimensionAndRejectsBadShapes) {
  const Array a = base();
  EXPECT_EQ(reshape(a, {3, -1}).shape(), (Shape{3, 8}));
  EXPECT_EQ(reshape(a, {-1, 2, 2}).shape(), (Shape{6, 2, 2}));
  EXPECT_THROW(reshape(a, {-1, -1}), ValueError);
  EXPECT_THROW(reshape(a, {5, -1}), ValueError);
  EXPECT_EQ(reshape(a, {-2, 12}).shape(), (Shape{2, 12}));  // NumPy: any negative is the unknown
  try {
    reshape(a, {5, 5});
    FAIL() << "reshape to the wrong size succeeded";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "cannot reshape array of size 24 into shape (5, 5)");
  }
  const Array empty = zeros({0, 3});
  EXPECT_EQ(reshape(empty, {3, 0, 5}).shape(), (Shape{3, 0, 5}));
  EXPECT_THROW(reshape(empty, {-1, 0}), ValueError);  // NumPy: the unknown is ambiguous
}

TEST(Slicing, NegativeStepsAndClampedBounds) {
  const Array a = base();
  expect_view(index(a, {slice({}, {}, -1)}), a, {{4, 6}, {-6, 1}, 18});
  expect_view(index(a, {slice(5, 1, -2)}), a, {{1, 6}, {-12, 1}, 18});
  expect_view(index(a, {slice(-1, -8, -3)}), a, {{2, 6}, {-18, 1}, 18});
  expect_view(index(a, {slice({}, {}, -2), slice(1, {}, 2)}), a, {{2, 3}, {-12, 2}, 19});
  expect_view(index(a, {slice(-100, 2)}), a, {{2, 6}, {6, 1}, 0});
  expect_view(index(a, {slice(1, -1), slice({}, {}, -3)}), a, {{2, 2}, {6, -3}, 11});
  EXPECT_EQ(index(a, {slice(10)}).shape(), (Shape{0, 6}));
  EXPECT_EQ(index(a, {slice(3, 1)}).shape(), (Shape{0, 6}));
  EXPECT_EQ(index(a, {slice(1, 3, -1)}).shape(), (Shape{0, 6}));
  EXPECT_THROW(index(a, {slice({}, {}, 0)}), ValueError);
}

TEST(Slicing, IntegersEllipsisAndNewAxis) {
  const Array a = base();
  expect_view(index(a, {int64_t{2}}), a, {{6}, {1}, 12});
  expect_view(index(a, {int64_t{-1}, slice(1)}), a, {{5}, {1}, 19});
  expect_view(index(a, {Ellipsis{}, int64_t{1}}), a, {{4}, {6}, 1});
  expect_view(index(a, {NewAxis{}, int64_t{1}, Ellipsis{}, NewAxis{}}), a,
              {{1, 6, 1}, {0, 1, 0}, 6});
  expect_view(index(index(a, {slice({}, {}, -1)}), {int64_t{0}, slice({}, {}, -2)}), a,
              {{3}, {-2}, 23});
  const Array scalar = index(a, {int64_t{3}, int64_t{-2}});
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(values(scalar), std::vector<double>{22});
  EXPECT_THROW(index(a, {int64_t{4}}), IndexError);
  EXPECT_THROW(index(a, {int64_t{0}, int64_t{-7}}), IndexError);
  EXPECT_THROW(index(a, {int64_t{0}, int64_t{0}, int64_t{0}}), IndexError);
  EXPECT_THROW(index(a, {Ellipsis{}, Ellipsis{}}), IndexError);
}

TEST(Transpose, PermutesStrides) {
  const Array a = reshape(base(), {2, 3, 4});
  expect_view(transpose(a), a, {{4, 3, 2}, {1, 4, 12}, 0});
  expect_view(transpose(a, std::vector<int64_t>{1, -1, 0}), a, {{3, 4, 2}, {4, 1, 12}, 0});
  expect_view(swapaxes(a, 0, 2), a, {{4, 3, 2}, {1, 4, 12}, 0});
  expect_view(moveaxis(a, {0}, {-1}), a, {{3, 4, 2}, {4, 1, 12}, 0});
  expect_view(moveaxis(a, {0, 1}, {2, 0}), a, {{3, 4, 2}, {4, 1, 12}, 0});
  EXPECT_THROW(transpose(a, std::vector<int64_t>{0, 1}), ValueError);
  EXPECT_THROW(transpose(a, std::vector<int64_t>{0, 1, 1}), ValueError);
  EXPECT_THROW(transpose(a, std::vector<int64_t>{0, 1, 3}), AxisError);
}

TEST(ExpandSqueeze, InsertAndRemoveLengthOneAxes) {
  const Array a = base();
  const Array e = expand_dims(a, {0, -1});
  EXPECT_EQ(e.shape(), (Shape{1, 4, 6, 1}));
  expect_view(e, a, {{1, 4, 6, 1}, {0, 6, 1, 0}, 0});
  EXPECT_EQ(expand_dims(a, {1}).shape(), (Shape{4, 1, 6}));
  EXPECT_EQ(expand_dims(a, {-2}).shape(), (Shape{4, 1, 6}));
  EXPECT_THROW(expand_dims(a, {3}), AxisError);
  EXPECT_THROW(expand_dims(a, {0, 0}), ValueError);
  expect_view(squeeze(e), a, {{4, 6}, {6, 1}, 0});
  EXPECT_EQ(squeeze(e, std::vector<int64_t>{-1}).shape(), (Shape{1, 4, 6}));
  EXPECT_THROW(squeeze(e, std::vector<int64_t>{1}), ValueError);
  EXPECT_THROW(squeeze(e, std::vector<int64_t>{4}), AxisError);
  const Array column = index(a, {slice(), slice(2, 3)});  // a[:, 2:3]
  expect_view(squeeze(column), a, {{4}, {6}, 2});
}

TEST(Views, ShareWritesWithTheirBase) {
  const Array a = base();
  const Array t = transpose(a);
  const Array corner = index(a, {slice({}, {}, -3), slice({}, {}, -5)});  // a[::-3, ::-5]
  index_assign(t, {int64_t{5}, int64_t{3}}, -1.0);                        // t[5, 3] is a[3, 5]
  EXPECT_EQ(values(corner), (std::vector<double>{-1, 18, 5, 0}));
  assign(reshape(a, {24}), 0.0);
  EXPECT_EQ(values(corner), std::vector<double>(4, 0.0));
}

TEST(Views, RealAndImagOfComplex) {
  const std::vector<double> parts = {1, 2, 3, 4, 5, 6};  // (1+2j), (3+4j), (5+6j)
  const Array z = from_host(parts.data(), DType::Complex128, {3});
  const Array re = real(z), im = imag(z);
  EXPECT_EQ(re.dtype(), DType::Float64);
  EXPECT_EQ(re.strides(), (Strides{2}));
  EXPECT_EQ(values(re), (std::vector<double>{1, 3, 5}));
  EXPECT_EQ(values(im), (std::vector<double>{2, 4, 6}));
  assign(index(im, {slice({}, {}, -2)}), 0.0);  // z.imag[::-2] = 0
  EXPECT_EQ(values(im), (std::vector<double>{0, 4, 0}));
  EXPECT_FALSE(imag(re).writeable());  // the zeros of a real array's imag are read-only
}

// ndarray.view(dtype): float64 bytes read as float32 halves the last axis's stride unit and
// doubles its length; the other axes' strides rescale; writes reach the base.
TEST(Views, ViewAsAnotherDtype) {
  const Array a = base();                                                      // 4 x 6 float64
  const Array halves = view_as(index(a, {slice({}, {}, 2)}), DType::Float32);  // a[::2]
  EXPECT_EQ(halves.shape(), (Shape{2, 12}));
  EXPECT_EQ(halves.strides(), (Strides{24, 1}));
  EXPECT_EQ(view_as(halves, DType::Float64).strides(), (Strides{12, 1}));
  const Array same = view_as(a, DType::Int64);
  EXPECT_EQ(same.strides(), a.strides());
  assign(view_as(a, DType::Int64), int64_t{0});  // all-zero bits are 0.0
  EXPECT_EQ(values(a), std::vector<double>(24, 0.0));
  EXPECT_THROW(view_as(transpose(a), DType::Float32), ValueError);  // last axis strided
  EXPECT_THROW(view_as(index(a, {int64_t{0}, int64_t{0}}), DType::Float32), ValueError);  // 0-d
  EXPECT_THROW(view_as(index(a, {slice({}, {}), slice(1, {}, 1)}), DType::Complex128),
               ValueError);  // 5 x 8 bytes per row is not whole 16-byte elements
}

}  // namespace
}  // namespace accel
