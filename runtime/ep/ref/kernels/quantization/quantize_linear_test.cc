// Tests of QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear: rounding half to even,
// saturation, default zero point, per-axis parameters (opset 13) and version rules.
#include "runtime/ep/ref/kernels/quantization/quantize_linear.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(QuantizeLinearTest, PerTensorWithSaturation) {
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 13,
                  {TensorValue<float>({6}, {0, 2, 3, 1000, -254, -1000}),
                   TensorValue<float>({}, {2}), TensorValue<uint8_t>({}, {128})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(128, 129, 130, 255, 1, 0));
}

TEST(QuantizeLinearTest, RoundsHalfToEven) {
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 10,
                  {TensorValue<float>({6}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f}),
                   TensorValue<float>({}, {1}), TensorValue<int8_t>({}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(0, 2, 2, 0, -2, -2));
}

TEST(QuantizeLinearTest, MissingZeroPointMeansUint8Zero) {
  auto y = RunIdx("y = QuantizeLinear(x, s)", 13,
                  {TensorValue<float>({3}, {-5, 10, 600}), TensorValue<float>({}, {2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(0, 5, 255));
}

TEST(QuantizeLinearTest, Int32Input) {
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 13,
                  {TensorValue<int32_t>({3}, {-300, 7, 300}), TensorValue<float>({}, {2}),
                   TensorValue<int8_t>({}, {1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(-128, 5, 127));  // 3.5 rounds to 4
}

TEST(QuantizeLinearTest, PerAxisWithNegativeAxis) {
  // x is [2, 3]; one scale and zero point per column (axis -1).
  auto y = RunIdx("y = QuantizeLinear <axis = -1> (x, s, z)", 13,
                  {TensorValue<float>({2, 3}, {1, 2, 4, -1, -2, -4}),
                   TensorValue<float>({3}, {1, 2, 4}), TensorValue<int8_t>({3}, {0, 10, -10})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(1, 11, -9, -1, 9, -11));
}

TEST(QuantizeLinearTest, PerAxisNeedsOpset13AndMatchingSize) {
  const Value x = TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const Value s = TensorValue<float>({3}, {1, 2, 4});
  const Value z = TensorValue<uint8_t>({3}, {0, 0, 0});
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear(x, s, z)", 10, {x, s, z}), kInvalidArgument);
  // axis 1 (the default) has size 3: fine; axis 0 has size 2: rejected.
  EXPECT_TRUE(RunIdxStatus("y = QuantizeLinear(x, s, z)", 13, {x, s, z}).ok());
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <axis = 0> (x, s, z)", 13, {x, s, z}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = QuantizeLinear(x, s, z)", 13, {x, s, TensorValue<uint8_t>({2}, {0, 0})}),
      kInvalidArgument);
}

TEST(QuantizeLinearTest, EmptyInput) {
  auto y = RunIdx(
      "y = QuantizeLinear(x, s, z)", 13,
      {TensorValue<float>({0, 2}, {}), TensorValue<float>({}, {1}), TensorValue<uint8_t>({}, {3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 2));
}

TEST(DequantizeLinearTest, PerTensor) {
  auto y = RunIdx("y = DequantizeLinear(x, s, z)", 10,
                  {TensorValue<uint8_t>({4}, {0, 3, 128, 255}), TensorValue<float>({}, {2}),
                   TensorValue<uint8_t>({}, {128})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-256, -250, 0, 254));
}

TEST(DequantizeLinearTest, PerAxis) {
  auto y = RunIdx("y = DequantizeLinear <axis = 0> (x, s, z)", 13,
                  {TensorValue<int8_t>({2, 2}, {-128, 0, 10, 127}),
                   TensorValue<float>({2}, {0.5f, 2}), TensorValue<int8_t>({2}, {0, 10})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-64, 0, 0, 234));
}

TEST(DequantizeLinearTest, Int32TakesOnlyAZeroZeroPoint) {
  auto y = RunIdx("y = DequantizeLinear(x, s)", 13,
                  {TensorValue<int32_t>({2}, {-1000000, 3}), TensorValue<float>({}, {0.5f})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-500000, 1.5f));
  EXPECT_ERROR_CODE(RunIdxStatus("y = DequantizeLinear(x, s, z)", 13,
                                 {TensorValue<int32_t>({1}, {1}), TensorValue<float>({}, {1}),
                                  TensorValue<int32_t>({}, {5})}),
                    kInvalidArgument);
}

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
