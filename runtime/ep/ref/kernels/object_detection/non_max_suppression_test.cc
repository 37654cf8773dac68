// Tests of NonMaxSuppression: suppression by IoU, both box formats, flipped corners, score
// thresholds, output limits, several batches and classes, and rejected inputs.
#include "runtime/ep/ref/kernels/object_detection/non_max_suppression.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Boxes() {
  return TensorValue<float>({1, 6, 4}, {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                        0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101});
}
Value Scores() { return TensorValue<float>({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f}); }
Value Max(int64_t n) { return TensorValue<int64_t>({1}, {n}); }
Value F(float v) { return TensorValue<float>({1}, {v}); }

TEST(NonMaxSuppressionTest, SuppressByIou) {
  auto y = RunIdx("y = NonMaxSuppression(b, s, m, iou, st)", 11,
                  {Boxes(), Scores(), Max(3), F(0.5f), F(0.0f)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(3, 3));
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(0, 0, 3, 0, 0, 0, 0, 0, 5));
}

TEST(NonMaxSuppressionTest, CenterPointBoxesAndFlippedCorners) {
  auto c = RunIdx(
      "y = NonMaxSuppression <center_point_box = 1> (b, s, m, iou)", 10,
      {TensorValue<float>({1, 6, 4}, {0.5f, 0.5f,  1, 1, 0.5f, 0.6f,  1, 1, 0.5f, 0.4f,   1, 1,
                                      0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1}),
       Scores(), Max(3), F(0.5f)});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(c[0]), ElementsAre(0, 0, 3, 0, 0, 0, 0, 0, 5));
  auto f = RunIdx("y = NonMaxSuppression(b, s, m, iou)", 11,
                  {TensorValue<float>({1, 2, 4}, {1, 1, 0, 0, 0, 0, 1, 1}),
                   TensorValue<float>({1, 1, 2}, {0.9f, 0.8f}), Max(3), F(0.5f)});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(f[0]), ElementsAre(0, 0, 0));  // the same box, flipped
}

TEST(NonMaxSuppressionTest, ScoreThresholdAndLimits) {
  auto y = RunIdx("y = NonMaxSuppression(b, s, m, iou, st)", 11,
                  {Boxes(), Scores(), Max(3), F(0.5f), F(0.4f)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(0, 0, 3, 0, 0, 0));
  auto one =
      RunIdx("y = NonMaxSuppression(b, s, m, iou)", 11, {Boxes(), Scores(), Max(1), F(0.5f)});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(one[0]), ElementsAre(0, 0, 3));
  auto none = RunIdx("y = NonMaxSuppression(b, s)", 11, {Boxes(), Scores()});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(0, 3));
}

TEST(NonMaxSuppressionTest, BatchesAndClassesInOrder) {
  // Two batches of the same two boxes; class 1 prefers the second box.
  auto y = RunIdx(
      "y = NonMaxSuppression(b, s, m)", 11,
      {TensorValue<float>({2, 2, 4}, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}),
       TensorValue<float>({2, 2, 2}, {0.9f, 0.1f, 0.2f, 0.8f, 0.9f, 0.1f, 0.2f, 0.8f}), Max(2)});
  ASSERT_EQ(y.size(), 1u);
  // iou_threshold 0: identical boxes suppress each other, so one box per class.
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1));
}

TEST(NonMaxSuppressionTest, TiesKeepTheLowerIndex) {
  auto y = RunIdx("y = NonMaxSuppression(b, s, m, iou)", 11,
                  {TensorValue<float>({1, 2, 4}, {0, 0, 1, 1, 5, 5, 6, 6}),
                   TensorValue<float>({1, 1, 2}, {0.5f, 0.5f}), Max(2), F(0.5f)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(0, 0, 0, 0, 0, 1));
}

TEST(NonMaxSuppressionTest, Rejections) {
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = NonMaxSuppression(b, s, m, iou)", 11, {Boxes(), Scores(), Max(3), F(1.5f)}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = NonMaxSuppression(b, s)", 11,
                                 {Boxes(), TensorValue<float>({1, 1, 5}, {1, 1, 1, 1, 1})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
