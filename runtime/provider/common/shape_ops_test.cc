// Tests of the shape-only ops' output shapes: Reshape's -1 and 0, Flatten's axis, Squeeze's and
// Unsqueeze's axes, and the requests each refuses.
#include "runtime/provider/common/shape_ops.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

TEST(ShapeOpsTest, ReshapeInfersMinusOneAndCopiesZero) {
  auto inferred = ReshapeShape(Shape{2, 3, 4}, {-1, 4}, /*allow_zero=*/false);
  ASSERT_TRUE(inferred.ok()) << inferred.status().ToString();
  EXPECT_EQ(*inferred, (Shape{6, 4}));
  auto copied = ReshapeShape(Shape{2, 3, 4}, {0, -1}, /*allow_zero=*/false);
  ASSERT_TRUE(copied.ok()) << copied.status().ToString();
  EXPECT_EQ(*copied, (Shape{2, 12}));
  auto zero = ReshapeShape(Shape{0, 3}, {0, 3}, /*allow_zero=*/true);
  ASSERT_TRUE(zero.ok()) << zero.status().ToString();
  EXPECT_EQ(*zero, (Shape{0, 3}));
}

TEST(ShapeOpsTest, ReshapeRefusesCountsThatDiffer) {
  EXPECT_EQ(ReshapeShape(Shape{2, 3}, {4, 2}, false).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReshapeShape(Shape{2, 3}, {-1, -1}, false).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(ShapeOpsTest, FlattenSplitsAtTheAxis) {
  auto two = FlattenShape(Shape{2, 3, 4}, 2, /*allow_negative=*/false);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_EQ(*two, (Shape{6, 4}));
  auto zero = FlattenShape(Shape{2, 3, 4}, 0, false);
  ASSERT_TRUE(zero.ok()) << zero.status().ToString();
  EXPECT_EQ(*zero, (Shape{1, 24}));
  auto negative = FlattenShape(Shape{2, 3, 4}, -1, /*allow_negative=*/true);
  ASSERT_TRUE(negative.ok()) << negative.status().ToString();
  EXPECT_EQ(*negative, (Shape{6, 4}));
  EXPECT_FALSE(FlattenShape(Shape{2, 3, 4}, -1, /*allow_negative=*/false).ok());
  EXPECT_FALSE(FlattenShape(Shape{2, 3, 4}, 4, false).ok());
}

TEST(ShapeOpsTest, SqueezeAndUnsqueezeMoveOnes) {
  auto squeezed = SqueezeShape(Shape{1, 3, 1}, std::nullopt, /*allow_negative=*/true);
  ASSERT_TRUE(squeezed.ok()) << squeezed.status().ToString();
  EXPECT_EQ(*squeezed, (Shape{3}));
  EXPECT_FALSE(SqueezeShape(Shape{1, 3}, std::vector<int64_t>{1}, true).ok());
  auto unsqueezed = UnsqueezeShape(Shape{3}, {0, -1}, /*allow_negative=*/true);
  ASSERT_TRUE(unsqueezed.ok()) << unsqueezed.status().ToString();
  EXPECT_EQ(*unsqueezed, (Shape{1, 3, 1}));
}

}  // namespace
}  // namespace onnxgate
