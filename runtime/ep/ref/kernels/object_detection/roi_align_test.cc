// Tests of RoiAlign: sampling on a linear ramp (where bilinear sampling is exact), both
// coordinate modes and their version defaults, max mode and adaptive sampling.
#include "runtime/ep/ref/kernels/object_detection/roi_align.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// X[y][x] = x + 10 y on a 4 x 4 map: bilinear samples of it are exact.
Value Ramp() {
  std::vector<float> v;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) v.push_back(static_cast<float>(x + 10 * y));
  }
  return TensorValue<float>({1, 1, 4, 4}, v);
}
Value Roi(std::vector<float> r) { return TensorValue<float>({1, 4}, r); }
Value Batch0() { return TensorValue<int64_t>({1}, {0}); }

TEST(RoiAlignTest, CoordinateModesAndVersionDefaults) {
  // output_half_pixel (RoiAlign-10's only mode): samples at 0.5 and 1.5 on both axes.
  auto v10 = RunIdx("y = RoiAlign <sampling_ratio = 2> (x, r, b)", 10,
                    {Ramp(), Roi({0, 0, 2, 2}), Batch0()});
  ASSERT_EQ(v10.size(), 1u);
  EXPECT_THAT(DimsOf(v10[0]), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(ValuesOf<float>(v10[0]), FloatsNear(std::vector<float>{11}));
  // half_pixel (RoiAlign-16's default) shifts the region by -0.5: samples at 0 and 1.
  auto v16 = RunIdx("y = RoiAlign <sampling_ratio = 2> (x, r, b)", 16,
                    {Ramp(), Roi({0, 0, 2, 2}), Batch0()});
  ASSERT_EQ(v16.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(v16[0]), FloatsNear(std::vector<float>{5.5f}));
  auto legacy = RunIdx(
      "y = RoiAlign <sampling_ratio = 2, coordinate_transformation_mode = \"output_half_pixel\"> "
      "(x, r, b)",
      16, {Ramp(), Roi({0, 0, 2, 2}), Batch0()});
  ASSERT_EQ(legacy.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(legacy[0]), FloatsNear(std::vector<float>{11}));
}

TEST(RoiAlignTest, BinsSpatialScaleAndAdaptiveSampling) {
  // Region [0, 4) at spatial_scale 0.5 of an 8 x 8 image; 2 x 2 bins of 1 pixel, one sample
  // each (adaptive: ceil(2 / 2) = 1) at the bin centres 0.5 and 1.5.
  auto y =
      RunIdx("y = RoiAlign <output_height = 2, output_width = 2, spatial_scale = 0.5> (x, r, b)",
             10, {Ramp(), Roi({0, 0, 4, 4}), Batch0()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), FloatsNear(std::vector<float>{5.5f, 6.5f, 15.5f, 16.5f}));
}

TEST(RoiAlignTest, MaxModeTakesTheLargestWeightedCorner) {
  auto y = RunIdx("y = RoiAlign <mode = \"max\", sampling_ratio = 2> (x, r, b)", 10,
                  {Ramp(), Roi({0, 0, 2, 2}), Batch0()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), FloatsNear(std::vector<float>{5.5f}));
}

TEST(RoiAlignTest, Rejections) {
  EXPECT_ERROR_CODE(RunIdxStatus("y = RoiAlign(x, r, b)", 16,
                                 {Ramp(), Roi({0, 0, 2, 2}), TensorValue<int64_t>({1}, {1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = RoiAlign(x, r, b)", 16,
                                 {Ramp(), TensorValue<float>({1, 3}, {0, 0, 2}), Batch0()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = RoiAlign <coordinate_transformation_mode = \"half_pixel\"> (x, r, b)", 10,
                   {Ramp(), Roi({0, 0, 2, 2}), Batch0()}),
      kInvalidArgument);
}

TEST(RoiAlignTest, Opset22TakesBFloat16) {
  std::vector<float> v;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) v.push_back(static_cast<float>(x + 10 * y));
  }
  auto y = RunIdx("y = RoiAlign <sampling_ratio = 2> (x, r, b)", 22,
                  {BFloat16Value({1, 1, 4, 4}, v), BFloat16Value({1, 4}, {0, 0, 2, 2}), Batch0()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(5.5f));
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = RoiAlign <sampling_ratio = 2> (x, r, b)", 22,
                   {BFloat16Value({1, 1, 4, 4}, v), BFloat16Value({1, 4}, {0, 0, 2, 2}),
                    TensorValue<int64_t>({1}, {1})}),
      kInvalidArgument);  // batch index 1 of a batch of 1
}

}  // namespace
}  // namespace onnxgate::ref
