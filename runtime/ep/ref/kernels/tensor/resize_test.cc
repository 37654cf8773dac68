// Tests of Resize and Upsample: the spec's examples for the modes and coordinate
// transformations, nearest modes, tf_crop_and_resize extrapolation, integer and string data,
// and the rules on scales and sizes per version.
#include "runtime/ep/ref/kernels/tensor/resize.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

Value Scales(std::vector<float> s) {
  const int64_t n = static_cast<int64_t>(s.size());
  return TensorValue<float>({n}, s);
}
Value Sizes(std::vector<int64_t> s) {
  const int64_t n = static_cast<int64_t>(s.size());
  return TensorValue<int64_t>({n}, s);
}
Value Square2() { return TensorValue<float>({1, 1, 2, 2}, {1, 2, 3, 4}); }
Value Square4() {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i + 1);
  return TensorValue<float>({1, 1, 4, 4}, v);
}

TEST(UpsampleTest, NearestWithAttributeAndInputScales) {
  const std::vector<float> expected = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2,
                                       3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
  auto y7 = RunIdx("y = Upsample <scales = [1.0, 1.0, 2.0, 3.0]> (x)", 7, {Square2()});
  ASSERT_EQ(y7.size(), 1u);
  EXPECT_THAT(DimsOf(y7[0]), ElementsAre(1, 1, 4, 6));
  EXPECT_THAT(ValuesOf<float>(y7[0]), ElementsAreArray(expected));
  auto y9 = RunIdx("y = Upsample(x, s)", 9, {Square2(), Scales({1, 1, 2, 3})});
  ASSERT_EQ(y9.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y9[0]), ElementsAreArray(expected));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Upsample(x, s)", 9, {Square2(), Scales({1, 1, 0.5f, 1})}),
                    kInvalidArgument);
}

TEST(ResizeTest, Opset10NearestAndLinear) {
  auto down = RunIdx(
      "y = Resize <mode = \"nearest\"> (x, s)", 10,
      {TensorValue<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), Scales({1, 1, 0.6f, 0.6f})});
  ASSERT_EQ(down.size(), 1u);
  EXPECT_THAT(DimsOf(down[0]), ElementsAre(1, 1, 1, 2));
  EXPECT_THAT(ValuesOf<float>(down[0]), ElementsAre(1, 3));
  auto up = RunIdx("y = Resize <mode = \"linear\"> (x, s)", 10, {Square2(), Scales({1, 1, 2, 2})});
  ASSERT_EQ(up.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(up[0]),
              ElementsAre(1, 1.5f, 2, 2, 2, 2.5f, 3, 3, 3, 3.5f, 4, 4, 3, 3.5f, 4, 4));
}

TEST(ResizeTest, LinearHalfPixelAndAlignCorners) {
  auto y = RunIdx("y = Resize <mode = \"linear\"> (x, roi, s)", 13,
                  {Square2(), Value(), Scales({1, 1, 2, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]),
              FloatsNear(std::vector<float>{1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f, 2.5f,
                                            2.75f, 3.25f, 3.5f, 3, 3.25f, 3.75f, 4}));
  // Scales give a fractional resized length (4 * 0.6 = 2.4) that align_corners divides by.
  auto a = RunIdx(
      "y = Resize <mode = \"linear\", coordinate_transformation_mode = \"align_corners\"> (x, roi, "
      "s)",
      11,
      {TensorValue<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), TensorValue<float>({0}, {}),
       Scales({1, 1, 0.6f, 0.6f})});
  ASSERT_EQ(a.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(a[0]), FloatsNear(std::vector<float>{1, 3.142857f}));
}

TEST(ResizeTest, CubicHalfPixel) {
  auto y = RunIdx("y = Resize <mode = \"cubic\"> (x, roi, s)", 13,
                  {Square4(), Value(), Scales({1, 1, 2, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 8, 8));
  const std::vector<float> v = ValuesOf<float>(y[0]);
  EXPECT_THAT(std::vector<float>(v.begin(), v.begin() + 8),
              FloatsNear(std::vector<float>{0.47265625f, 0.76953125f, 1.24609375f, 1.875f, 2.28125f,
                                            2.91015625f, 3.38671875f, 3.68359375f}));
}

TEST(ResizeTest, NearestModesWithSizes) {
  const Value x = TensorValue<int32_t>({4}, {10, 20, 30, 40});
  const char* base =
      "y = Resize <coordinate_transformation_mode = \"asymmetric\", nearest_mode = \"%s\"> "
      "(x, roi, s, sz)";
  auto run = [&](const char* mode) {
    char node[256];
    std::snprintf(node, sizeof(node), base, mode);
    auto y = RunIdx(node, 13, {x, Value(), Value(), Sizes({8})});
    return y.empty() ? std::vector<int32_t>{} : ValuesOf<int32_t>(y[0]);
  };
  EXPECT_THAT(run("round_prefer_floor"), ElementsAre(10, 10, 20, 20, 30, 30, 40, 40));
  EXPECT_THAT(run("round_prefer_ceil"), ElementsAre(10, 20, 20, 30, 30, 40, 40, 40));
  EXPECT_THAT(run("floor"), ElementsAre(10, 10, 20, 20, 30, 30, 40, 40));
  EXPECT_THAT(run("ceil"), ElementsAre(10, 20, 20, 30, 30, 40, 40, 40));
}

TEST(ResizeTest, TfCropAndResizeExtrapolates) {
  auto y = RunIdx(
      "y = Resize <mode = \"linear\", coordinate_transformation_mode = \"tf_crop_and_resize\", "
      "extrapolation_value = 10.0> (x, roi, s, sz)",
      13,
      {Square4(), TensorValue<float>({8}, {0, 0, 0.4f, 0.6f, 1, 1, 1.2f, 1.7f}), Value(),
       Sizes({1, 1, 3, 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]),
              FloatsNear(std::vector<float>{7.6f, 10, 10, 12.4f, 10, 10, 10, 10, 10}));
  EXPECT_ERROR_CODE(
      RunIdxStatus(
          "y = Resize <coordinate_transformation_mode = \"tf_crop_and_resize\"> (x, roi, s, sz)",
          13, {Square4(), Value(), Value(), Sizes({1, 1, 3, 3})}),
      kInvalidArgument);
}

TEST(ResizeTest, IntegersRoundAndStringsTakeNearest) {
  auto u = RunIdx("y = Resize <mode = \"linear\"> (x, roi, s, sz)", 13,
                  {TensorValue<uint8_t>({2}, {0, 255}), Value(), Value(), Sizes({4})});
  ASSERT_EQ(u.size(), 1u);
  EXPECT_THAT(ValuesOf<uint8_t>(u[0]), ElementsAre(0, 64, 191, 255));
  auto s = RunIdx("y = Resize(x, roi, s)", 13,
                  {TensorValue<std::string>({2}, {"a", "b"}), Value(), Scales({2})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("a", "a", "b", "b"));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Resize <mode = \"linear\"> (x, roi, s)", 13,
                                 {TensorValue<std::string>({2}, {"a", "b"}), Value(), Scales({2})}),
                    kInvalidArgument);
}

TEST(ResizeTest, ScalesAndSizesRules) {
  EXPECT_ERROR_CODE(RunIdxStatus("y = Resize(x, roi, s, sz)", 13,
                                 {Square2(), Value(), Scales({1, 1, 2, 2}), Sizes({1, 1, 4, 4})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Resize(x, roi, s, sz)", 13, {Square2(), Value(), Value(), Value()}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = Resize(x, roi, s)", 13, {Square2(), Value(), Scales({2, 2})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Resize(x, roi, s)", 13, {Square2(), Value(), Scales({1, 1, 0, 1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Resize <mode = \"cubic\"> (x, s)", 10, {Square2(), Scales({1, 1, 2, 2})}),
      kInvalidArgument);
  // tf_half_pixel_for_nn exists in Resize-11 only.
  const char* nn =
      "y = Resize <coordinate_transformation_mode = \"tf_half_pixel_for_nn\"> (x, roi, s)";
  EXPECT_TRUE(
      RunIdxStatus(nn, 11, {Square2(), TensorValue<float>({0}, {}), Scales({1, 1, 2, 2})}).ok());
  EXPECT_ERROR_CODE(RunIdxStatus(nn, 13, {Square2(), Value(), Scales({1, 1, 2, 2})}),
                    kInvalidArgument);
  // Sizes of 0 give an empty output; an empty input cannot grow.
  auto e =
      RunIdx("y = Resize(x, roi, s, sz)", 13, {Square2(), Value(), Value(), Sizes({1, 1, 0, 3})});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_THAT(DimsOf(e[0]), ElementsAre(1, 1, 0, 3));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Resize(x, roi, s, sz)", 13,
                                 {TensorValue<float>({0}, {}), Value(), Value(), Sizes({2})}),
                    kInvalidArgument);
}

TEST(ResizeTest, Opset18AntialiasStretchesTheFilterWhenDownsampling) {
  // Expected values from the ONNX reference implementation.
  auto linear = RunIdx("y = Resize <mode = \"linear\", antialias = 1> (x, roi, s)", 18,
                       {Square4(), Value(), Scales({1, 1, 0.6f, 0.6f})});
  ASSERT_EQ(linear.size(), 1u);
  EXPECT_THAT(DimsOf(linear[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(ValuesOf<float>(linear[0]),
              FloatsNear(std::vector<float>{2.875f, 4.5f, 9.375f, 11.0f}));
  auto cubic = RunIdx("y = Resize <mode = \"cubic\", antialias = 1> (x, roi, s)", 18,
                      {Square4(), Value(), Scales({1, 1, 0.5f, 0.5f})});
  ASSERT_EQ(cubic.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(cubic[0]),
              FloatsNear(std::vector<float>{3.4511719f, 5.470703f, 11.529297f, 13.548828f}));
  // Upsampling is unaffected by the filter.
  auto up = RunIdx("y = Resize <mode = \"linear\", antialias = 1> (x, roi, s)", 18,
                   {Square2(), Value(), Scales({1, 1, 1, 2})});
  auto plain = RunIdx("y = Resize <mode = \"linear\"> (x, roi, s)", 18,
                      {Square2(), Value(), Scales({1, 1, 1, 2})});
  ASSERT_EQ(up.size(), 1u);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(up[0]), FloatsNear(ValuesOf<float>(plain[0])));
}

TEST(ResizeTest, Opset18AxesSelectWhatScalesSizesAndRoiDescribe) {
  auto nearest = RunIdx("y = Resize <axes = [3, 2]> (x, roi, s, z)", 18,
                        {Square4(), Value(), Value(), Sizes({2, 3})});
  ASSERT_EQ(nearest.size(), 1u);
  EXPECT_THAT(DimsOf(nearest[0]), ElementsAre(1, 1, 3, 2));
  EXPECT_THAT(ValuesOf<float>(nearest[0]), ElementsAre(1, 3, 5, 7, 13, 15));
  auto crop = RunIdx(
      "y = Resize <mode = \"linear\", coordinate_transformation_mode = \"tf_crop_and_resize\", "
      "axes = [-1]> (x, roi, s, z)",
      18, {Square4(), TensorValue<float>({2}, {0.25f, 0.75f}), Value(), Sizes({3})});
  ASSERT_EQ(crop.size(), 1u);
  EXPECT_THAT(DimsOf(crop[0]), ElementsAre(1, 1, 4, 3));
  EXPECT_THAT(ValuesOf<float>(crop[0]),
              FloatsNear(std::vector<float>{1.75f, 2.5f, 3.25f, 5.75f, 6.5f, 7.25f, 9.75f, 10.5f,
                                            11.25f, 13.75f, 14.5f, 15.25f}));
}

TEST(ResizeTest, Opset18KeepAspectRatioPolicies) {
  auto smaller = RunIdx("y = Resize <keep_aspect_ratio_policy = \"not_larger\"> (x, roi, s, z)", 18,
                        {Square4(), Value(), Value(), Sizes({1, 1, 3, 2})});
  ASSERT_EQ(smaller.size(), 1u);
  EXPECT_THAT(DimsOf(smaller[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(ValuesOf<float>(smaller[0]), ElementsAre(1, 3, 9, 11));
  auto larger = RunIdx(
      "y = Resize <keep_aspect_ratio_policy = \"not_smaller\", axes = [2, 3]> (x, roi, s, z)", 18,
      {Square4(), Value(), Value(), Sizes({3, 5})});
  ASSERT_EQ(larger.size(), 1u);
  EXPECT_THAT(DimsOf(larger[0]), ElementsAre(1, 1, 5, 5));
  EXPECT_THAT(ValuesOf<float>(larger[0]), ElementsAre(1, 2, 2, 3, 4, 5, 6, 6, 7, 8, 5, 6, 6, 7, 8,
                                                      9, 10, 10, 11, 12, 13, 14, 14, 15, 16));
}

TEST(ResizeTest, Opset19HalfPixelSymmetric) {
  auto y = RunIdx(
      "y = Resize <mode = \"linear\", coordinate_transformation_mode = "
      "\"half_pixel_symmetric\"> (x, roi, s)",
      19, {Square2(), Value(), Scales({1, 1, 1, 2.3f})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 2, 4));
  EXPECT_THAT(ValuesOf<float>(y[0]), FloatsNear(std::vector<float>{1, 1.2826087f, 1.7173913f, 2, 3,
                                                                   3.2826087f, 3.7173913f, 4}));
}

TEST(ResizeTest, Opset18And19AttributeRules) {
  const Value s = Scales({1, 1, 2, 2});
  const char* scales_node = "y = Resize <%s> (x, roi, s)";
  auto status = [&](const char* attributes, int opset, const Value& scales) {
    char node[256];
    std::snprintf(node, sizeof(node), scales_node, attributes);
    return RunIdxStatus(node, opset, {Square2(), Value(), scales});
  };
  EXPECT_ERROR_CODE(status("antialias = 1", 13, s), kInvalidArgument);  // exists from 18
  EXPECT_ERROR_CODE(status("antialias = 2", 18, s), kInvalidArgument);
  EXPECT_ERROR_CODE(status("axes = [2, -2]", 18, Scales({2, 2})),
                    kInvalidArgument);  // -2 and 2 name one axis
  EXPECT_ERROR_CODE(status("axes = [4]", 18, Scales({2})), kInvalidArgument);
  EXPECT_ERROR_CODE(status("axes = [2, 3]", 18, s), kInvalidArgument);  // 4 scales, 2 axes
  EXPECT_ERROR_CODE(status("keep_aspect_ratio_policy = \"fit\"", 18, s), kInvalidArgument);
  EXPECT_ERROR_CODE(status("coordinate_transformation_mode = \"half_pixel_symmetric\"", 18, s),
                    kInvalidArgument);  // exists from Resize-19
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Resize <coordinate_transformation_mode = \"tf_crop_and_resize\", "
                   "axes = [3]> (x, roi, s, z)",
                   18, {Square2(), TensorValue<float>({4}, {0, 0, 1, 1}), Value(), Sizes({3})}),
      kInvalidArgument);  // roi holds two values per listed axis
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Resize <keep_aspect_ratio_policy = \"not_larger\"> (x, roi, s, z)", 18,
                   {TensorValue<float>({1, 0}, {}), Value(), Value(), Sizes({2, 2})}),
      kInvalidArgument);  // an empty axis has no aspect ratio
}

}  // namespace
}  // namespace onnxgate::ref
