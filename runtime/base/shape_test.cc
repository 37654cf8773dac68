// Tests for Shape: element counts, overflow, broadcasting and axis normalisation.
#include "runtime/base/shape.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

TEST(ShapeTest, ScalarHasOneElement) {
  EXPECT_EQ(Shape{}.NumElements(), 1);
  EXPECT_EQ(Shape({2, 0, 3}).NumElements(), 0);
  EXPECT_EQ(Shape({2, 3, 4}).Strides(), (std::vector<int64_t>{12, 4, 1}));
}

TEST(ShapeTest, ValidateRejectsNegativeAndOverflowingDims) {
  EXPECT_FALSE(Shape({2, -1}).Validate().ok());
  EXPECT_FALSE(Shape({INT64_MAX / 2, 3}).Validate().ok());
  EXPECT_TRUE(Shape({1 << 20, 1 << 20}).Validate().ok());
  EXPECT_FALSE(Shape({1 << 20, 1 << 20}).Validate(1000).ok());
}

TEST(ShapeTest, BroadcastsLikeNumpy) {
  EXPECT_EQ(*BroadcastShapes(Shape({2, 1, 4}), Shape({3, 1})), Shape({2, 3, 4}));
  EXPECT_EQ(*BroadcastShapes(Shape{}, Shape({5})), Shape({5}));
  EXPECT_EQ(*BroadcastShapes(Shape({0, 1}), Shape({1, 3})), Shape({0, 3}));
  EXPECT_FALSE(BroadcastShapes(Shape({2, 3}), Shape({4})).ok());
}

TEST(ShapeTest, NormalizesNegativeAxes) {
  EXPECT_EQ(*NormalizeAxis(-1, 4), 3);
  EXPECT_EQ(*NormalizeAxis(0, 0), 0);
  EXPECT_FALSE(NormalizeAxis(4, 4).ok());
  EXPECT_FALSE(NormalizeAxis(-5, 4).ok());
}

}  // namespace
}  // namespace onnxgate
