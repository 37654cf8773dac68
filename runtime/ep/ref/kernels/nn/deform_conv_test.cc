// Tests of DeformConv: zero offsets give Conv, fractional offsets interpolate, samples outside X
// read zeros, mask and bias, groups with offset groups, and the shape checks.
#include "runtime/ep/ref/kernels/nn/deform_conv.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value X3x3() { return TensorValue<float>({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}); }
Value W2x2() { return TensorValue<float>({1, 1, 2, 2}, {1, 2, 3, 4}); }
Value Offsets(std::vector<float> v) { return TensorValue<float>({1, 8, 2, 2}, std::move(v)); }

TEST(DeformConvTest, ZeroOffsetsAreAConvolution) {
  auto y = RunNn("Y = DeformConv (X, W, offset)", 19,
                 {X3x3(), W2x2(), Offsets(std::vector<float>(32, 0.0f))});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(37, 47, 67, 77));
}

TEST(DeformConvTest, OffsetsInterpolateMaskAndBias) {
  // offset channel (tap * 2 + axis): tap (0,0) moves down by 0.5 at output (0,0), tap (0,1)
  // right by 0.25 at (0,1), tap (1,1) left by 1 at (1,1); the mask halves tap (1,0) at (1,0).
  std::vector<float> off(32, 0.0f);
  off[0 * 4 + 0] = 0.5f;
  off[3 * 4 + 1] = 0.25f;
  off[7 * 4 + 3] = -1.0f;
  std::vector<float> mask(16, 1.0f);
  mask[2 * 4 + 2] = 0.5f;
  auto y =
      RunNn("Y = DeformConv (X, W, offset, B, mask)", 22,
            {TensorValue<float>({1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}), W2x2(), Offsets(off),
             TensorValue<float>({1}, {0.5f}), TensorValue<float>({1, 4, 2, 2}, mask)});
  ASSERT_EQ(y.size(), 1u);
  // The values of ONNX's reference implementation.
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{29, 36.5, 48.5, 63.5}));
}

TEST(DeformConvTest, SamplesOutsideTheInputReadZero) {
  // Tap (0,0) at output (0,0) moves to column -0.5: half of X[0,0], half of a zero.
  std::vector<float> off(32, 0.0f);
  off[1 * 4 + 0] = -0.5f;
  auto y = RunNn("Y = DeformConv (X, W, offset)", 19, {X3x3(), W2x2(), Offsets(off)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{36.5, 47, 67, 77}));
  // Far outside the input every corner is a zero.
  off[1 * 4 + 0] = -1e30f;
  auto far = RunNn("Y = DeformConv (X, W, offset)", 19, {X3x3(), W2x2(), Offsets(off)});
  ASSERT_EQ(far.size(), 1u);
  EXPECT_THAT(Elements<float>(far[0]), FloatsNear(std::vector<double>{36, 47, 67, 77}));
}

TEST(DeformConvTest, GroupsAndOffsetGroups) {
  std::vector<float> x(18), off(64);
  for (int i = 0; i < 18; ++i) x[i] = static_cast<float>(i + 1);
  for (int i = 0; i < 64; ++i) off[i] = static_cast<float>((i % 5 - 2) * 0.3);
  auto y = RunNn("Y = DeformConv <group = 2, offset_group = 2> (X, W, offset)", 19,
                 {TensorValue<float>({1, 2, 3, 3}, x),
                  TensorValue<float>({2, 1, 2, 2}, {1, 2, 3, 4, -1, 0.5f, 2, 1}),
                  TensorValue<float>({1, 16, 2, 2}, off)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 2, 2, 2));
  // The values of ONNX's reference implementation.
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{38.56, 28.52, 51.1, 59.66,
                                                                    35.62, 38.99, 33.25, 31.19}));
}

TEST(DeformConvTest, OneSpatialAxisWithStridesPadsAndDilations) {
  // X [1, 1, 5], W [1, 1, 2], dilation 2, pads 1, stride 2: taps at 2p - 1 and 2p + 1.
  auto y = RunNn(
      "Y = DeformConv <dilations = [2], pads = [1, 1], strides = [2]> (X, W, offset)", 22,
      {TensorValue<double>({1, 1, 5}, {1, 2, 3, 4, 5}), TensorValue<double>({1, 1, 2}, {1, 10}),
       TensorValue<double>({1, 2, 3}, {0, 0, 0.5, 0, 0, 0})});
  ASSERT_EQ(y.size(), 1u);
  // p0: 0 + 10 * 2; p1: 2 + 10 * 4; p2: tap 0 at 3.5 (4.5), tap 1 at 5 (outside).
  EXPECT_THAT(Elements<double>(y[0]), ElementsAre(20, 42, 4.5));
}

TEST(DeformConvTest, Bfloat16FromVersion22) {
  std::vector<float> zeros(32, 0.0f);
  auto y = RunNn("Y = DeformConv (X, W, offset)", 22,
                 {BFloat16Value({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                  BFloat16Value({1, 1, 2, 2}, {1, 2, 3, 4}), BFloat16Value({1, 8, 2, 2}, zeros)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(37, 47, 67, 77));
}

TEST(DeformConvTest, BadShapesAndAttributesAreErrors) {
  const std::vector<float> zeros(32, 0.0f);
  // offset with the wrong channel count or spatial size.
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = DeformConv (X, W, offset)", 19,
                  {X3x3(), W2x2(), TensorValue<float>({1, 4, 2, 2}, std::vector<float>(16, 0.0f))}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv (X, W, offset)", 19,
                                {X3x3(), W2x2(), TensorValue<float>({1, 8, 1, 4}, zeros)}),
                    kInvalidArgument);
  // mask with the wrong shape.
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv (X, W, offset, , mask)", 19,
                                {X3x3(), W2x2(), Offsets(zeros), Value(),
                                 TensorValue<float>({1, 8, 2, 2}, zeros)}),
                    kInvalidArgument);
  // bias of the wrong length.
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv (X, W, offset, B)", 19,
                                {X3x3(), W2x2(), Offsets(zeros), TensorValue<float>({2}, {1, 2})}),
                    kInvalidArgument);
  // W's channels disagree with group; offset_group does not divide C.
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv <group = 2> (X, W, offset)", 19,
                                {X3x3(), W2x2(), Offsets(zeros)}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv <offset_group = 2> (X, W, offset)", 19,
                                {X3x3(), W2x2(), Offsets(zeros)}),
                    kInvalidArgument);
  // Attributes: kernel_shape disagreeing with W, auto_pad (not a DeformConv attribute),
  // negative pads, group 0.
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv <kernel_shape = [3, 3]> (X, W, offset)", 19,
                                {X3x3(), W2x2(), Offsets(zeros)}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv <auto_pad = \"SAME_UPPER\"> (X, W, offset)", 19,
                                {X3x3(), W2x2(), Offsets(zeros)}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv <pads = [0, 0, -1, 0]> (X, W, offset)", 19,
                                {X3x3(), W2x2(), Offsets(zeros)}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv <group = 0> (X, W, offset)", 19,
                                {X3x3(), W2x2(), Offsets(zeros)}),
                    kInvalidArgument);
  // X of rank 2; a kernel larger than the input.
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv (X, W, offset)", 19,
                                {TensorValue<float>({1, 1}, {1}), TensorValue<float>({1, 1}, {1}),
                                 TensorValue<float>({1, 1}, {0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = DeformConv (X, W, offset)", 19,
                                {TensorValue<float>({1, 1, 1, 1}, {1}), W2x2(), Offsets(zeros)}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
