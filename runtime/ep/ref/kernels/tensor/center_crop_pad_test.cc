// Tests of CenterCropPad: cropping and padding with odd differences, the axes attribute,
// non-numeric types and rejected shapes and axes.
#include "runtime/ep/ref/kernels/tensor/center_crop_pad.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Input() { return TensorValue<float>({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); }

TEST(CenterCropPadTest, CropsAndPadsCentred) {
  // Rows 3 -> 2 keep rows 0 and 1 (the odd pixel comes off the end); columns 4 -> 5 add one
  // zero column on the right.
  auto y = RunIdx("y = CenterCropPad(x, s)", 18, {Input(), TensorValue<int64_t>({2}, {2, 5})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 5));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, 2, 3, 4, 0, 5, 6, 7, 8, 0));
  auto pad = RunIdx("y = CenterCropPad <axes = [1]> (x, s)", 18,
                    {Input(), TensorValue<int32_t>({1}, {7})});
  ASSERT_EQ(pad.size(), 1u);
  EXPECT_THAT(DimsOf(pad[0]), ElementsAre(3, 7));
  const std::vector<float> p = ValuesOf<float>(pad[0]);
  EXPECT_THAT(std::vector<float>(p.begin(), p.begin() + 7), ElementsAre(0, 1, 2, 3, 4, 0, 0));
}

TEST(CenterCropPadTest, NegativeAxesAndStrings) {
  auto crop = RunIdx("y = CenterCropPad <axes = [-1]> (x, s)", 18,
                     {Input(), TensorValue<int64_t>({1}, {2})});
  ASSERT_EQ(crop.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(crop[0]), ElementsAre(2, 3, 6, 7, 10, 11));
  auto s = RunIdx("y = CenterCropPad(x, s)", 18,
                  {TensorValue<std::string>({2}, {"a", "b"}), TensorValue<int64_t>({1}, {4})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("", "a", "b", ""));
}

TEST(CenterCropPadTest, Rejections) {
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = CenterCropPad(x, s)", 18, {Input(), TensorValue<int64_t>({1}, {2})}),
      kInvalidArgument);  // one size for two axes
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = CenterCropPad(x, s)", 18, {Input(), TensorValue<int64_t>({2}, {2, -1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = CenterCropPad <axes = [0, -2]> (x, s)", 18,
                                 {Input(), TensorValue<int64_t>({2}, {2, 2})}),
                    kInvalidArgument);  // one axis twice
  EXPECT_ERROR_CODE(RunIdxStatus("y = CenterCropPad <axes = [2]> (x, s)", 18,
                                 {Input(), TensorValue<int64_t>({1}, {2})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
