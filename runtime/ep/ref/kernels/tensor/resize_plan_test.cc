// Tests of the per-axis resampling math: every coordinate transformation, the cubic weights,
// exclude_outside renormalisation and clamping at the edges.
#include "runtime/ep/ref/kernels/tensor/resize_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;

AxisResample Axis(int64_t in, int64_t out, double scale, double length) {
  AxisResample a;
  a.in = in;
  a.out = out;
  a.scale = scale;
  a.length_resized = length;
  return a;
}

TEST(ResizePlanTest, CoordinateTransformations) {
  const AxisResample a = Axis(4, 8, 2.0, 8.0);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(0, a, CoordinateTransform::kHalfPixel), -0.25);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(3, a, CoordinateTransform::kPytorchHalfPixel), 1.25);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(7, a, CoordinateTransform::kAlignCorners), 3.0);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(3, a, CoordinateTransform::kAsymmetric), 1.5);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(3, a, CoordinateTransform::kTfHalfPixelForNn), 1.75);
  AxisResample crop = a;
  crop.roi_start = 0.5;
  crop.roi_end = 1.0;
  EXPECT_DOUBLE_EQ(OriginalCoordinate(0, crop, CoordinateTransform::kTfCropAndResize), 1.5);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(7, crop, CoordinateTransform::kTfCropAndResize), 3.0);
  // A resized length of 1 pins pytorch_half_pixel and align_corners to 0 and crops to the
  // middle of the roi.
  const AxisResample one = Axis(4, 1, 0.25, 1.0);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(0, one, CoordinateTransform::kPytorchHalfPixel), 0.0);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(0, one, CoordinateTransform::kAlignCorners), 0.0);
  AxisResample one_crop = one;
  one_crop.roi_start = 0.0;
  one_crop.roi_end = 1.0;
  EXPECT_DOUBLE_EQ(OriginalCoordinate(0, one_crop, CoordinateTransform::kTfCropAndResize), 1.5);
}

TEST(ResizePlanTest, CubicWeightsSumToOneAndInterpolate) {
  for (double t : {0.0, 0.25, 0.5, 0.9}) {
    double w[4];
    CubicWeights(t, -0.75, w);
    EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.0, 1e-12) << t;
  }
  double w[4];
  CubicWeights(0.0, -0.5, w);
  EXPECT_THAT(std::vector<double>(w, w + 4), ElementsAre(0.0, 1.0, 0.0, 0.0));
}

TEST(ResizePlanTest, LinearTapsClampAtTheEdges) {
  ResizeOptions o;
  o.mode = ResizeMode::kLinear;
  const auto samples = PlanAxis(Axis(2, 4, 2.0, 4.0), o);
  ASSERT_EQ(samples.size(), 4u);
  EXPECT_THAT(samples[0].index, ElementsAre(0, 0));  // -0.25: both taps clamp to 0
  EXPECT_THAT(samples[3].index, ElementsAre(1, 1));  // 1.25
  EXPECT_THAT(samples[1].weight, ElementsAre(DoubleNear(0.75, 1e-12), DoubleNear(0.25, 1e-12)));
}

TEST(ResizePlanTest, ExcludeOutsideRenormalises) {
  ResizeOptions o;
  o.mode = ResizeMode::kCubic;
  o.exclude_outside = true;
  const auto samples = PlanAxis(Axis(4, 8, 2.0, 8.0), o);
  // Output 0 reads around -0.25: taps -2 and -1 are outside and get no weight.
  EXPECT_EQ(samples[0].weight[0], 0.0);
  EXPECT_EQ(samples[0].weight[1], 0.0);
  EXPECT_NEAR(samples[0].weight[2] + samples[0].weight[3], 1.0, 1e-12);
}

TEST(ResizePlanTest, TfCropMarksOutsideSamples) {
  ResizeOptions o;
  o.transform = CoordinateTransform::kTfCropAndResize;
  AxisResample a = Axis(4, 3, 0.75, 3.0);
  a.roi_start = 0.5;
  a.roi_end = 1.5;
  const auto samples = PlanAxis(a, o);
  EXPECT_FALSE(samples[0].outside);
  EXPECT_TRUE(samples[2].outside);
}

TEST(ResizePlanTest, HalfPixelSymmetricCentresARoundedOutput) {
  // 4 * 0.6 = 2.4 resized, 2 outputs: the output is shifted by 2 * (1 - 2 / 2.4) = 1/3.
  const AxisResample a = Axis(4, 2, 0.6, 2.4);
  EXPECT_NEAR(OriginalCoordinate(0, a, CoordinateTransform::kHalfPixelSymmetric),
              1.0 / 3.0 + 0.5 / 0.6 - 0.5, 1e-12);
  // Without rounding it is half_pixel.
  const AxisResample exact = Axis(4, 8, 2.0, 8.0);
  EXPECT_DOUBLE_EQ(OriginalCoordinate(5, exact, CoordinateTransform::kHalfPixelSymmetric),
                   OriginalCoordinate(5, exact, CoordinateTransform::kHalfPixel));
}

TEST(ResizePlanTest, AntialiasStretchesTheFilterWhenDownsampling) {
  ResizeOptions o;
  o.mode = ResizeMode::kLinear;
  o.antialias = true;
  // Scale 0.5: the triangle spans 2 input pixels each side, 4 taps, weights summing to 1.
  const auto down = PlanAxis(Axis(8, 4, 0.5, 4.0), o);
  ASSERT_EQ(down.size(), 4u);
  EXPECT_THAT(down[1].index, ElementsAre(1, 2, 3, 4));  // around 2.5
  EXPECT_THAT(down[1].weight, ElementsAre(DoubleNear(0.125, 1e-12), DoubleNear(0.375, 1e-12),
                                          DoubleNear(0.375, 1e-12), DoubleNear(0.125, 1e-12)));
  // Upsampling keeps the plain 2-tap kernel.
  const auto up = PlanAxis(Axis(2, 4, 2.0, 4.0), o);
  EXPECT_THAT(up[1].weight, ElementsAre(DoubleNear(0.75, 1e-12), DoubleNear(0.25, 1e-12)));
  o.mode = ResizeMode::kCubic;
  const auto cubic = PlanAxis(Axis(8, 4, 0.5, 4.0), o);
  ASSERT_EQ(cubic[1].weight.size(), 8u);
  double sum = 0.0;
  for (double w : cubic[1].weight) sum += w;
  EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(ResizePlanTest, ParsersRejectUnknownNames) {
  EXPECT_FALSE(ParseResizeMode("bilinear").ok());
  EXPECT_FALSE(ParseCoordinateTransform("corners").ok());
  EXPECT_TRUE(ParseCoordinateTransform("half_pixel_symmetric").ok());
  EXPECT_FALSE(ParseNearestMode("round").ok());
  EXPECT_TRUE(ParseNearestMode("ceil").ok());
}

}  // namespace
}  // namespace onnxgate::ref
