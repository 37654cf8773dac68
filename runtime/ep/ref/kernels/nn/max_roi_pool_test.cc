// Tests of MaxRoiPool: Caffe's rounding of region corners, and regions outside the map, whose
// bins pool to zero.
#include "runtime/ep/ref/kernels/nn/max_roi_pool.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// X[y][x] = x + 10 y on a 4 x 4 map: each pooled maximum names its cell.
Value Ramp() {
  std::vector<float> v;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) v.push_back(static_cast<float>(x + 10 * y));
  }
  return TensorValue<float>({1, 1, 4, 4}, v);
}

TEST(MaxRoiPoolTest, BinsAndRounding) {
  auto y = RunIdx("y = MaxRoiPool <pooled_shape = [2, 2]> (x, r)", 1,
                  {Ramp(), TensorValue<float>({1, 5}, {0, 0, 0, 3, 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(11, 13, 31, 33));
  // 2.2 * 0.5 and 4.6 * 0.5 round to 1 and 2: the region is rows and columns 1..2.
  auto r = RunIdx("y = MaxRoiPool <pooled_shape = [1, 1], spatial_scale = 0.5> (x, r)", 1,
                  {Ramp(), TensorValue<float>({1, 5}, {0, 2.2f, 2.2f, 4.6f, 4.6f})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(r[0]), ElementsAre(22));
}

TEST(MaxRoiPoolTest, RegionsOutsideTheMapPoolToZero) {
  auto y = RunIdx("y = MaxRoiPool <pooled_shape = [1, 1]> (x, r)", 1,
                  {Ramp(), TensorValue<float>({1, 5}, {0, 10, 10, 12, 12})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(0));
  EXPECT_ERROR_CODE(RunIdxStatus("y = MaxRoiPool <pooled_shape = [1, 1]> (x, r)", 1,
                                 {Ramp(), TensorValue<float>({1, 5}, {1, 0, 0, 1, 1})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
