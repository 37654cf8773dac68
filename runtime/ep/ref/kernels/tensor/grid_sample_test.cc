// Tests of GridSample: bilinear, nearest and bicubic sampling, align_corners, the three padding
// modes at and beyond the border, float16, and rejected shapes.
#include "runtime/ep/ref/kernels/tensor/grid_sample.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value X2() { return TensorValue<float>({1, 1, 2, 2}, {0, 1, 2, 3}); }
Value Grid(std::vector<float> xy) {
  const int64_t n = static_cast<int64_t>(xy.size()) / 2;
  return TensorValue<float>({1, 1, n, 2}, xy);
}

TEST(GridSampleTest, BilinearAlignCorners) {
  auto y = RunIdx("y = GridSample <align_corners = 1> (x, g)", 16,
                  {X2(), Grid({-1, -1, -0.5f, -0.5f, -0.2f, -0.2f, 0, 0, 0.5f, 0.5f, 1, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 1, 6));
  EXPECT_THAT(ValuesOf<float>(y[0]),
              FloatsNear(std::vector<float>{0, 0.75f, 1.2f, 1.5f, 2.25f, 3}));
}

TEST(GridSampleTest, PaddingModesOutsideTheImage) {
  // Without align_corners, -1 is the outer edge of pixel 0: the sample sits half a pixel out.
  const Value g = Grid({-1, -1, 2, 0});
  auto zeros = RunIdx("y = GridSample(x, g)", 16, {X2(), g});
  ASSERT_EQ(zeros.size(), 1u);
  // (-1,-1) -> (-0.5,-0.5): a quarter of pixel 0 and zeros elsewhere. (2, 0) -> x = 2.5, y = 0.5.
  EXPECT_THAT(ValuesOf<float>(zeros[0]), FloatsNear(std::vector<float>{0, 0}));
  auto border = RunIdx("y = GridSample <padding_mode = \"border\"> (x, g)", 16, {X2(), g});
  ASSERT_EQ(border.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(border[0]), FloatsNear(std::vector<float>{0, 2}));
  auto reflect = RunIdx("y = GridSample <padding_mode = \"reflection\"> (x, g)", 16, {X2(), g});
  ASSERT_EQ(reflect.size(), 1u);
  // x = 2.5 reflects about 1.5 to 0.5; y = 0.5: the average of all four pixels.
  EXPECT_THAT(ValuesOf<float>(reflect[0]), FloatsNear(std::vector<float>{0, 1.5f}));
}

TEST(GridSampleTest, ZerosPaddingWeighsInsidePixels) {
  auto y = RunIdx("y = GridSample(x, g)", 16,
                  {TensorValue<float>({1, 1, 2, 2}, {4, 4, 4, 4}), Grid({-1, -1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), FloatsNear(std::vector<float>{1}));  // 4 * 0.25
}

TEST(GridSampleTest, NearestRoundsHalfToEven) {
  // Without align_corners, grid 0 is pixel coordinate 0.5 on a 2-pixel axis: rounds to 0;
  // grid 1 is 1.5, which rounds to 2, outside the image.
  auto y = RunIdx("y = GridSample <mode = \"nearest\"> (x, g)", 16,
                  {X2(), Grid({0, 0, 0.6f, 0.6f, 1, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(0, 3, 0));  // 1.5 rounds to 2: outside
}

TEST(GridSampleTest, BicubicReproducesPixelsAndConstants) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  auto y = RunIdx("y = GridSample <mode = \"bicubic\", align_corners = 1> (x, g)", 16,
                  {TensorValue<float>({1, 1, 4, 4}, v), Grid({-1, -1, 1.0f / 3, -1.0f / 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), FloatsNear(std::vector<float>{0, 6}));
  auto c = RunIdx("y = GridSample <mode = \"bicubic\", padding_mode = \"border\"> (x, g)", 16,
                  {HalfValue({1, 1, 2, 2}, {2, 2, 2, 2}), HalfValue({1, 1, 1, 2}, {0.3f, -0.9f})});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_THAT(HalfValuesOf<Float16>(c[0]), ElementsAre(2));
}

TEST(GridSampleTest, Rejections) {
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GridSample(x, g)", 16, {X2(), TensorValue<float>({1, 1, 1, 3}, {0, 0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GridSample <mode = \"cubic\"> (x, g)", 16, {X2(), Grid({0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GridSample <padding_mode = \"wrap\"> (x, g)", 16, {X2(), Grid({0, 0})}),
      kInvalidArgument);
}

Value Cube() {
  std::vector<float> v(8);
  for (int i = 0; i < 8; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return TensorValue<float>({1, 1, 2, 2, 2}, v);
}
Value Grid3d() {
  return TensorValue<float>({1, 1, 1, 4, 3}, {-1, -1, -1, 0, 0, 0, 0.5f, -0.5f, 0.25f, 1, 1, 1});
}

TEST(GridSampleTest, Opset20SamplesVolumes) {
  // Expected values from the ONNX reference implementation.
  auto linear = RunIdx("y = GridSample <mode = \"linear\", align_corners = 1> (x, g)", 20,
                       {Cube(), Grid3d()});
  ASSERT_EQ(linear.size(), 1u);
  EXPECT_THAT(DimsOf(linear[0]), ElementsAre(1, 1, 1, 1, 4));
  EXPECT_THAT(ValuesOf<float>(linear[0]), FloatsNear(std::vector<float>{0, 3.5f, 3.75f, 7}));
  auto zeros = RunIdx("y = GridSample(x, g)", 20, {Cube(), Grid3d()});
  ASSERT_EQ(zeros.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(zeros[0]), FloatsNear(std::vector<float>{0, 3.5f, 4, 0.875f}));
  auto nearest = RunIdx("y = GridSample <mode = \"nearest\", align_corners = 1> (x, g)", 20,
                        {Cube(), Grid3d()});
  ASSERT_EQ(nearest.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(nearest[0]), ElementsAre(0, 0, 5, 7));
  auto cubic =
      RunIdx("y = GridSample <mode = \"cubic\", align_corners = 1> (x, g)", 22, {Cube(), Grid3d()});
  ASSERT_EQ(cubic.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(cubic[0]),
              FloatsNear(std::vector<float>{0, 5.860962f, 5.781254f, 7}));
}

TEST(GridSampleTest, Opset20SamplesLines) {
  auto y = RunIdx("y = GridSample <align_corners = 1> (x, g)", 20,
                  {TensorValue<float>({1, 1, 3}, {1, 2, 4}),
                   TensorValue<float>({1, 4, 1}, {-1, -0.5f, 0.2f, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), FloatsNear(std::vector<float>{1, 1.5f, 2.4f, 4}));
}

TEST(GridSampleTest, NearestCopiesAnyTypeAndLinearRoundsIntegers) {
  auto s = RunIdx("y = GridSample <mode = \"nearest\"> (x, g)", 20,
                  {TensorValue<std::string>({1, 1, 2, 2}, {"a", "b", "c", "d"}),
                   Grid({-0.5f, -0.5f, 0.5f, 0.5f, 3, 3})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("a", "d", ""));  // zeros padding: ""
  auto i = RunIdx(
      "y = GridSample <align_corners = 1> (x, g)", 22,
      {TensorValue<int32_t>({1, 1, 2, 2}, {0, 1, 2, 3}), BFloat16Value({1, 1, 1, 2}, {0, 0})});
  ASSERT_EQ(i.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(i[0]), ElementsAre(2));  // 1.5 rounds half to even
  auto b =
      RunIdx("y = GridSample(x, g)", 22,
             {BFloat16Value({1, 1, 2, 2}, {4, 4, 4, 4}), BFloat16Value({1, 1, 1, 2}, {-1, -1})});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(b[0]), ElementsAre(1));
}

TEST(GridSampleTest, VersionRulesAndRejections) {
  // Opset 20 renames bilinear and bicubic; opset 16 takes only 4-D inputs.
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GridSample <mode = \"bilinear\"> (x, g)", 20, {X2(), Grid({0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GridSample <mode = \"linear\"> (x, g)", 16, {X2(), Grid({0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = GridSample(x, g)", 16, {Cube(), Grid3d()}), kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = GridSample(x, g)", 20, {Cube(), TensorValue<float>({1, 1, 1, 2}, {0, 0})}),
      kInvalidArgument);  // grid rank differs from X's
  EXPECT_ERROR_CODE(RunIdxStatus("y = GridSample(x, g)", 20,
                                 {Cube(), TensorValue<float>({1, 1, 1, 1, 2}, {0, 0})}),
                    kInvalidArgument);  // two coordinates for three spatial axes
  EXPECT_ERROR_CODE(RunIdxStatus("y = GridSample(x, g)", 20,
                                 {TensorValue<std::string>({1, 1, 1, 1}, {"a"}), Grid({0, 0})}),
                    kInvalidArgument);  // linear needs numbers
  EXPECT_ERROR_CODE(RunIdxStatus("y = GridSample(x, g)", 20,
                                 {TensorValue<float>({1, 1, 0, 2}, {}), Grid({0, 0})}),
                    kInvalidArgument);  // nothing to sample
}

}  // namespace
}  // namespace onnxgate::ref
