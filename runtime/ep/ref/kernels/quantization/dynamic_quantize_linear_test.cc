// Tests of DynamicQuantizeLinear: the spec's example, ranges that start at zero, and inputs
// without a range.
#include "runtime/ep/ref/kernels/quantization/dynamic_quantize_linear.h"

#include "runtime/ep/ref/kernels/quantization/quant_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(DynamicQuantizeLinearTest, SpecExample) {
  auto y = RunIdx("y, s, z = DynamicQuantizeLinear(x)", 11,
                  {TensorValue<float>({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f})});
  ASSERT_EQ(y.size(), 3u);
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(153, 255, 0, 26, 221, 179));
  EXPECT_FLOAT_EQ(ValuesOf<float>(y[1])[0], 5.0f / 255.0f);
  EXPECT_THAT(ValuesOf<uint8_t>(y[2]), ElementsAre(153));
  EXPECT_THAT(DimsOf(y[1]), ElementsAre());
}

TEST(DynamicQuantizeLinearTest, AllPositiveRangeStartsAtZero) {
  auto y = RunIdx("y, s, z = DynamicQuantizeLinear(x)", 11,
                  {TensorValue<float>({3}, {1, 2.55f, 0.51f})});
  ASSERT_EQ(y.size(), 3u);
  EXPECT_THAT(ValuesOf<uint8_t>(y[2]), ElementsAre(0));
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(100, 255, 51));
}

TEST(DynamicQuantizeLinearTest, AllZeroAndEmptyInputs) {
  for (const Value& x : {TensorValue<float>({2}, {0, 0}), TensorValue<float>({0}, {})}) {
    auto y = RunIdx("y, s, z = DynamicQuantizeLinear(x)", 11, {x});
    ASSERT_EQ(y.size(), 3u);
    EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ::testing::Each(0));
    EXPECT_THAT(ValuesOf<float>(y[1]), ElementsAre(1.0f));
    EXPECT_THAT(ValuesOf<uint8_t>(y[2]), ElementsAre(0));
  }
}

}  // namespace
}  // namespace onnxgate::ref
