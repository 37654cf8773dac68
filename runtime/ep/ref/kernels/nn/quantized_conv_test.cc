// Tests of ConvInteger and QLinearConv: zero points (padding contributes nothing once they are
// subtracted), per-channel weight parameters, groups, bias and requantization.
#include "runtime/ep/ref/kernels/nn/quantized_conv.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

std::vector<uint8_t> Iota8(int n, uint8_t start) {
  std::vector<uint8_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<uint8_t>(start + i);
  return v;
}

TEST(ConvIntegerTest, SpecExampleWithoutAndWithPadding) {
  const Value x = TensorValue<uint8_t>({1, 1, 3, 3}, Iota8(9, 2));
  const Value w = TensorValue<uint8_t>({1, 1, 2, 2}, {1, 1, 1, 1});
  const Value xz = TensorValue<uint8_t>({}, {1});
  auto y = RunIdx("y = ConvInteger(x, w, x_zp)", 10, {x, w, xz});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(12, 16, 24, 28));
  auto p = RunIdx("y = ConvInteger <pads = [1, 1, 1, 1]> (x, w, x_zp)", 10, {x, w, xz});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(p[0]),
              ElementsAre(1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9));
}

TEST(ConvIntegerTest, PerChannelWeightZeroPointAndGroups) {
  // Two groups of one channel; filter 0 has zero point 1, filter 1 zero point -1.
  auto y = RunIdx(
      "y = ConvInteger <group = 2> (x, w, x_zp, w_zp)", 10,
      {TensorValue<int8_t>({1, 2, 1, 2}, {1, 2, 3, 4}), TensorValue<int8_t>({2, 1, 1, 1}, {3, 1}),
       TensorValue<int8_t>({}, {0}), TensorValue<int8_t>({2}, {1, -1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(2, 4, 6, 8));
}

TEST(ConvIntegerTest, RejectsPerChannelInputZeroPoint) {
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = ConvInteger(x, w, x_zp)", 10,
                   {TensorValue<uint8_t>({1, 2, 1, 1}, {1, 2}),
                    TensorValue<uint8_t>({1, 2, 1, 1}, {1, 1}), TensorValue<uint8_t>({2}, {0, 0})}),
      kInvalidArgument);
}

TEST(QLinearConvTest, BiasAndPerChannelScale) {
  auto y = RunIdx("y = QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B)", 10,
                  {TensorValue<uint8_t>({1, 1, 2, 2}, {10, 20, 30, 40}),
                   TensorValue<float>({}, {0.5f}), TensorValue<uint8_t>({}, {10}),
                   TensorValue<int8_t>({2, 1, 1, 1}, {1, 2}), TensorValue<float>({2}, {1, 0.25f}),
                   TensorValue<int8_t>({2}, {0, 0}), TensorValue<float>({}, {1}),
                   TensorValue<uint8_t>({}, {5}), TensorValue<int32_t>({2}, {1, -2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 2, 2, 2));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(5, 11, 15, 21, 5, 7, 10, 12));
}

TEST(QLinearConvTest, StridesAndSaturation) {
  auto y = RunIdx(
      "y = QLinearConv <strides = [2]> (x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp)", 10,
      {TensorValue<int8_t>({1, 1, 4}, {100, 100, -100, -100}), TensorValue<float>({}, {1}),
       TensorValue<int8_t>({}, {0}), TensorValue<int8_t>({1, 1, 2}, {1, 1}),
       TensorValue<float>({}, {1}), TensorValue<int8_t>({}, {0}), TensorValue<float>({}, {1}),
       TensorValue<int8_t>({}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(127, -128));
}

}  // namespace
}  // namespace onnxgate::ref
