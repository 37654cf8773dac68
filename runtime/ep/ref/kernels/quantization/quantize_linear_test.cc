// Tests of QuantizeLinear: rounding half to even, saturation, default zero point, per-axis
// (opset 13) and blocked (opset 21) parameters, the float8 (with 'saturate'), 16-bit, 4-bit,
// 2-bit and float4 outputs, 'output_dtype', 'precision', and the version rules.
#include "runtime/ep/ref/kernels/quantization/quantize_linear.h"

#include "runtime/ep/ref/kernels/quantization/quant_test_helpers.h"

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
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <axis = 2> (x, s, z)", 21, {x, s, z}),
                    kInvalidArgument);
}

TEST(QuantizeLinearTest, EmptyInput) {
  auto y = RunIdx(
      "y = QuantizeLinear(x, s, z)", 13,
      {TensorValue<float>({0, 2}, {}), TensorValue<float>({}, {1}), TensorValue<uint8_t>({}, {3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 2));
}

TEST(QuantizeLinearTest, Float8SaturatesUnlessAskedNotTo) {
  const Value x = TensorValue<float>({7}, {0, 0.5f, -1, 448, 10000, -10000, 3.3f});
  const Value s = TensorValue<float>({}, {2});
  const Value z = Float8Value<Float8E4M3FN>({1}, {0});
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 19, {x, s, z});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Float8BitsOf<Float8E4M3FN>(y[0]), ElementsAre(0, 40, 176, 118, 126, 254, 61));
  y = RunIdx("y = QuantizeLinear <saturate = 0> (x, s, z)", 19, {x, s, z});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Float8BitsOf<Float8E4M3FN>(y[0]), ElementsAre(0, 40, 176, 118, 127, 255, 61));
  y = RunIdx("y = QuantizeLinear <saturate = 0> (x, s, z)", 21,
             {x, s, Float8Value<Float8E5M2>({1}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Float8BitsOf<Float8E5M2>(y[0]), ElementsAre(0, 52, 184, 91, 109, 237, 63));
}

TEST(QuantizeLinearTest, SixteenBitOutputs) {
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 21,
                  {TensorValue<float>({4}, {-70000, -1.5f, 2.5f, 70000}),
                   TensorValue<float>({}, {1}), TensorValue<int16_t>({}, {10})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int16_t>(y[0]), ElementsAre(-32768, 8, 12, 32767));
  y = RunIdx("y = QuantizeLinear(x, s, z)", 21,
             {TensorValue<float>({3}, {-1, 3, 70000}), TensorValue<float>({}, {1}),
              TensorValue<uint16_t>({}, {1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<uint16_t>(y[0]), ElementsAre(0, 4, 65535));
}

TEST(QuantizeLinearTest, Int4PerAxisAndUint4) {
  auto y =
      RunIdx("y = QuantizeLinear <axis = 0> (x, s, z)", 21,
             {TensorValue<float>({2, 3}, {-20, -1.5f, 3, 1.5f, -2, 0.25f}),
              TensorValue<float>({2}, {1, 0.5f}), SubByteValue(DataType::kInt4, {2}, {0, -2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].tensor().dtype(), DataType::kInt4);
  EXPECT_THAT(DecodedOf(y[0]), ElementsAre(-8, -2, 3, 1, -6, -2));
  y = RunIdx("y = QuantizeLinear(x, s, z)", 21,
             {TensorValue<float>({5}, {-1, 0, 7, 15.5f, 30}), TensorValue<float>({}, {1}),
              SubByteValue(DataType::kUint4, {}, {1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DecodedOf(y[0]), ElementsAre(0, 1, 8, 15, 15));
}

TEST(QuantizeLinearTest, TwoBitOutputs) {
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 25,
                  {TensorValue<float>({6}, {-3, -1, 0, 0.5f, 1, 5}), TensorValue<float>({}, {1}),
                   SubByteValue(DataType::kInt2, {}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DecodedOf(y[0]), ElementsAre(-2, -1, 0, 0, 1, 1));
  y = RunIdx("y = QuantizeLinear(x, s, z)", 25,
             {TensorValue<float>({5}, {-1, 0, 1.5f, 2.5f, 9}), TensorValue<float>({}, {1}),
              SubByteValue(DataType::kUint2, {}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DecodedOf(y[0]), ElementsAre(0, 0, 2, 2, 3));
}

TEST(QuantizeLinearTest, Float4AddsTheZeroPointAndSaturates) {
  const Value x = TensorValue<float>({5}, {0, 1.1f, -2.6f, 7, 100});
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 23,
                  {x, TensorValue<float>({}, {1}), Float4Value({1}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DecodedOf(y[0]), ElementsAre(0, 1, -3, 6, 6));
  y = RunIdx("y = QuantizeLinear(x, s, z)", 23,
             {x, TensorValue<float>({}, {1}), Float4Value({1}, {1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DecodedOf(y[0]), ElementsAre(1, 2, -1.5, 6, 6));
}

TEST(QuantizeLinearTest, BlockedAlongTheLastAxisWithARemainderBlock) {
  // x [2, 5], blocks of 2 along axis 1: scales [2, 3], the last block holds one element.
  auto y = RunIdx("y = QuantizeLinear <axis = 1, block_size = 2, output_dtype = 3> (x, s)", 21,
                  {TensorValue<float>({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}),
                   TensorValue<float>({2, 3}, {1, 2, 4, 0.5f, 1, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(0, 1, 1, 2, 1, 10, 12, 7, 8, 4));
}

TEST(QuantizeLinearTest, BlockedAlongTheFirstAxis) {
  auto y = RunIdx(
      "y = QuantizeLinear <axis = 0, block_size = 2> (x, s, z)", 21,
      {TensorValue<float>({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
       TensorValue<float>({2, 2}, {1, 2, 0.5f, 1}), TensorValue<uint8_t>({2, 2}, {0, 1, 2, 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(1, 2, 3, 3, 12, 9, 16, 11));
}

TEST(QuantizeLinearTest, BlockSizesAndShapesAreChecked) {
  const Value x = TensorValue<float>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  const char* blocked = "y = QuantizeLinear <axis = 1, block_size = 2> (x, s)";
  EXPECT_TRUE(RunIdxStatus(blocked, 21, {x, TensorValue<float>({2, 2}, {1, 1, 1, 1})}).ok());
  // Three blocks where block_size 2 makes two; another dim differing; wrong rank.
  EXPECT_ERROR_CODE(RunIdxStatus(blocked, 21, {x, TensorValue<float>({2, 3}, {1, 1, 1, 1, 1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus(blocked, 21, {x, TensorValue<float>({1, 2}, {1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus(blocked, 21, {x, TensorValue<float>({2}, {1, 1})}),
                    kInvalidArgument);
  // A zero point of another shape than the scale.
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <axis = 1, block_size = 2> (x, s, z)", 21,
                                 {x, TensorValue<float>({2, 2}, {1, 1, 1, 1}),
                                  TensorValue<uint8_t>({2, 1}, {0, 0})}),
                    kInvalidArgument);
  // A 2-D scale needs block_size; block_size must not be negative and exists from opset 21.
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <axis = 1> (x, s)", 21,
                                 {x, TensorValue<float>({2, 2}, {1, 1, 1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <block_size = -1> (x, s)", 21,
                                 {x, TensorValue<float>({}, {1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <block_size = 2> (x, s)", 19,
                                 {x, TensorValue<float>({}, {1})}),
                    kInvalidArgument);
}

TEST(QuantizeLinearTest, OutputDtype) {
  const Value x = TensorValue<float>({3}, {-1, 2.5f, 100000});
  const Value s = TensorValue<float>({}, {1});
  auto y = RunIdx("y = QuantizeLinear <output_dtype = 5> (x, s)", 21, {x, s});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int16_t>(y[0]), ElementsAre(-1, 2, 32767));
  // It must agree with the zero point's type, name a quantized type of the version, and exists
  // from opset 21.
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <output_dtype = 2> (x, s, z)", 21,
                                 {x, s, TensorValue<int8_t>({}, {0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <output_dtype = 26> (x, s)", 23, {x, s}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <output_dtype = 1> (x, s)", 25, {x, s}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <output_dtype = 3> (x, s)", 19, {x, s}),
                    kInvalidArgument);
  y = RunIdx("y = QuantizeLinear <output_dtype = 26> (x, s)", 25, {x, s});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DecodedOf(y[0]), ElementsAre(-1, 1, 1));
}

TEST(QuantizeLinearTest, PrecisionOfTheDivision) {
  // 2.5 + 2^-10 rounds up in float32 but is a tie at float16, which rounds to 2.5 and then to 2.
  const Value x = TensorValue<float>({1}, {2.5009765625f});
  const Value s = TensorValue<float>({}, {1});
  const Value z = TensorValue<int8_t>({}, {0});
  auto y = RunIdx("y = QuantizeLinear(x, s, z)", 23, {x, s, z});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(3));
  y = RunIdx("y = QuantizeLinear <precision = 10> (x, s, z)", 23, {x, s, z});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(2));
  // A float16 scale sets the precision when the attribute is absent.
  y = RunIdx("y = QuantizeLinear(x, s, z)", 23, {x, HalfValue({}, {1}), z});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(2));
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <precision = 6> (x, s, z)", 23, {x, s, z}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <precision = 1> (x, s, z)", 21, {x, s, z}),
                    kInvalidArgument);
}

TEST(QuantizeLinearTest, HalfInputsAndPowerOfTwoScales) {
  auto y =
      RunIdx("y = QuantizeLinear(x, s, z)", 19,
             {HalfValue({3}, {1, 2, -3.5f}), HalfValue({}, {0.5f}), TensorValue<int8_t>({}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(2, 4, -7));
  // A float8e8m0 scale (opset 24): bits 128 is 2.
  y = RunIdx("y = QuantizeLinear(x, s, z)", 24,
             {TensorValue<float>({2}, {8, 3}), TensorValue<Float8E8M0>({}, {Float8E8M0{128}}),
              TensorValue<int8_t>({}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(4, 2));
  // Before opset 23, x and the scale share one type.
  EXPECT_FALSE(
      RunIdxStatus("y = QuantizeLinear(x, s, z)", 21,
                   {HalfValue({1}, {1}), TensorValue<float>({}, {1}), TensorValue<int8_t>({}, {0})})
          .ok());
}

TEST(QuantizeLinearTest, AttributesOfLaterVersionsAreRejected) {
  const Value x = TensorValue<float>({1}, {1});
  const Value s = TensorValue<float>({}, {1});
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <saturate = 0> (x, s)", 13, {x, s}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = QuantizeLinear <axis = 0> (x, s)", 10, {x, s}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
