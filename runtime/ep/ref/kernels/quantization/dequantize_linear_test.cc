// Tests of DequantizeLinear: per-tensor, per-axis (opset 13) and blocked (opset 21) parameters,
// the 16-bit, int32, float8, 4-bit, 2-bit and float4 inputs, the output type ('output_dtype',
// opset 23) and float8e8m0 scales (opset 24), and the rejected inputs.
#include "runtime/ep/ref/kernels/quantization/dequantize_linear.h"

#include "runtime/ep/ref/kernels/quantization/quant_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

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

TEST(DequantizeLinearTest, SixteenBitInputs) {
  auto y = RunIdx("y = DequantizeLinear(x, s, z)", 21,
                  {TensorValue<int16_t>({3}, {-32768, 0, 32767}), TensorValue<float>({}, {0.5f}),
                   TensorValue<int16_t>({}, {-1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-16383.5f, 0.5f, 16384));
  y = RunIdx("y = DequantizeLinear(x, s, z)", 21,
             {TensorValue<uint16_t>({2}, {0, 65535}), TensorValue<float>({}, {1}),
              TensorValue<uint16_t>({}, {32767})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-32767, 32768));
}

TEST(DequantizeLinearTest, Int4PerAxisAndTwoBitInputs) {
  auto y =
      RunIdx("y = DequantizeLinear <axis = 0> (x, s, z)", 21,
             {SubByteValue(DataType::kInt4, {2, 2}, {-8, 7, -1, 3}),
              TensorValue<float>({2}, {2, 0.5f}), SubByteValue(DataType::kInt4, {2}, {1, -1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-18, 12, 0, 2));
  y = RunIdx("y = DequantizeLinear(x, s, z)", 25,
             {SubByteValue(DataType::kUint2, {4}, {0, 1, 2, 3}), TensorValue<float>({}, {1.5f}),
              SubByteValue(DataType::kUint2, {}, {1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-1.5f, 0, 1.5f, 3));
  y = RunIdx("y = DequantizeLinear(x, s, z)", 25,
             {SubByteValue(DataType::kInt2, {4}, {-2, -1, 0, 1}), TensorValue<float>({}, {2}),
              SubByteValue(DataType::kInt2, {1}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(-4, -2, 0, 2));
}

TEST(DequantizeLinearTest, FloatInputsAndHalfOutput) {
  auto y = RunIdx("y = DequantizeLinear(x, s)", 19,
                  {Float8Value<Float8E4M3FN>({3}, {0.5f, -2, 448}), HalfValue({}, {2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<Float16>(y[0]), ElementsAre(1, -4, 896));
  y = RunIdx("y = DequantizeLinear(x, s, z)", 23,
             {Float4Value({3}, {0.5f, -6, 3}), TensorValue<float>({}, {2}), Float4Value({1}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, -12, 6));
}

TEST(DequantizeLinearTest, Blocked) {
  auto y =
      RunIdx("y = DequantizeLinear <axis = 1, block_size = 2> (x, s, z)", 21,
             {TensorValue<int8_t>({2, 3}, {1, 2, 3, 4, 5, 6}),
              TensorValue<float>({2, 2}, {1, 2, 3, 4}), TensorValue<int8_t>({2, 2}, {0, 1, 2, 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, 2, 4, 6, 9, 12));
  // block_size 1 would need three blocks, 3 one block.
  for (const char* bad : {"y = DequantizeLinear <axis = 1, block_size = 1> (x, s)",
                          "y = DequantizeLinear <axis = 1, block_size = 3> (x, s)",
                          "y = DequantizeLinear <axis = 0, block_size = 2> (x, s)"}) {
    EXPECT_ERROR_CODE(RunIdxStatus(bad, 21,
                                   {TensorValue<int8_t>({2, 3}, {1, 2, 3, 4, 5, 6}),
                                    TensorValue<float>({2, 2}, {1, 2, 3, 4})}),
                      kInvalidArgument);
  }
}

TEST(DequantizeLinearTest, OutputDtypeAndE8M0Scales) {
  const Value x = TensorValue<int8_t>({2}, {3, -2});
  auto y = RunIdx("y = DequantizeLinear <output_dtype = 16> (x, s)", 23,
                  {x, TensorValue<float>({}, {0.5f})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(1.5f, -1));
  // Bits 126 of float8e8m0 are 0.5; such a scale cannot be the output type.
  const Value e8m0 = TensorValue<Float8E8M0>({}, {Float8E8M0{126}});
  y = RunIdx("y = DequantizeLinear <output_dtype = 1> (x, s)", 24, {x, e8m0});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1.5f, -1));
  EXPECT_ERROR_CODE(RunIdxStatus("y = DequantizeLinear(x, s)", 24, {x, e8m0}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = DequantizeLinear <output_dtype = 3> (x, s)", 24,
                                 {x, TensorValue<float>({}, {1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = DequantizeLinear <output_dtype = 1> (x, s)", 21,
                                 {x, TensorValue<float>({}, {1})}),
                    kInvalidArgument);
}

TEST(DequantizeLinearTest, ZeroPointTypeAndShapeMustMatch) {
  const Value x = TensorValue<int8_t>({2}, {3, -2});
  const Value s = TensorValue<float>({}, {1});
  EXPECT_FALSE(
      RunIdxStatus("y = DequantizeLinear(x, s, z)", 21, {x, s, TensorValue<uint8_t>({}, {0})})
          .ok());
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = DequantizeLinear(x, s, z)", 21, {x, s, TensorValue<int8_t>({2}, {0, 0})}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
