// Tests of MatMulInteger and QLinearMatMul: zero points per tensor, per row and per column,
// batch broadcasting, mixed signedness, requantization with rounding and saturation.
#include "runtime/ep/ref/kernels/math/quantized_matmul.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(MatMulIntegerTest, SpecExample) {
  auto y = RunIdx("Y = MatMulInteger(A, B, a_zp, b_zp)", 10,
                  {TensorValue<uint8_t>({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}),
                   TensorValue<uint8_t>({3, 2}, {1, 4, 2, 5, 3, 6}), TensorValue<uint8_t>({}, {12}),
                   TensorValue<uint8_t>({}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(4, 2));
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(-38, -83, -44, -98, -50, -113, -56, -128));
}

TEST(MatMulIntegerTest, NoZeroPointsAndMixedSignedness) {
  auto y =
      RunIdx("Y = MatMulInteger(A, B)", 10,
             {TensorValue<int8_t>({1, 2}, {-128, 127}), TensorValue<uint8_t>({2, 1}, {255, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(-128 * 255 + 254));
}

TEST(MatMulIntegerTest, PerRowAndPerColumnZeroPoints) {
  // A [2, 2] with one zero point per row; B [2, 2] with one per column.
  auto y = RunIdx(
      "Y = MatMulInteger(A, B, a_zp, b_zp)", 10,
      {TensorValue<uint8_t>({2, 2}, {1, 1, 5, 5}), TensorValue<uint8_t>({2, 2}, {3, 3, 3, 3}),
       TensorValue<uint8_t>({2}, {1, 3}), TensorValue<uint8_t>({2}, {1, 2})});
  ASSERT_EQ(y.size(), 1u);
  // Row 0 of A - 1 = [0, 0]; row 1 of A - 3 = [2, 2]. Columns of B - zp = 2 and 1.
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(0, 0, 8, 4));
}

TEST(MatMulIntegerTest, BatchedWithBroadcastZeroPoint) {
  // A [2, 1, 2] with zero point [2, 1, 1] (one per batch), B [2, 1] shared by both batches.
  auto y = RunIdx("Y = MatMulInteger(A, B, a_zp)", 10,
                  {TensorValue<int8_t>({2, 1, 2}, {1, 2, 3, 4}),
                   TensorValue<int8_t>({2, 1}, {1, 1}), TensorValue<int8_t>({2, 1, 1}, {0, 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 1, 1));
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(3, 1));
}

TEST(MatMulIntegerTest, RejectsMismatchedZeroPointType) {
  EXPECT_ERROR_CODE(RunIdxStatus("Y = MatMulInteger(A, B, a_zp)", 10,
                                 {TensorValue<uint8_t>({1, 1}, {1}),
                                  TensorValue<uint8_t>({1, 1}, {1}), TensorValue<int8_t>({}, {1})}),
                    kInvalidArgument);
}

TEST(QLinearMatMulTest, SpecExample) {
  auto y =
      RunIdx("y = QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)", 10,
             {TensorValue<uint8_t>({2, 4}, {208, 236, 0, 238, 3, 214, 255, 29}),
              TensorValue<float>({}, {0.0066f}), TensorValue<uint8_t>({}, {113}),
              TensorValue<uint8_t>({4, 3}, {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247}),
              TensorValue<float>({}, {0.00705f}), TensorValue<uint8_t>({}, {114}),
              TensorValue<float>({}, {0.0107f}), TensorValue<uint8_t>({}, {118})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<uint8_t>(y[0]), ElementsAre(168, 115, 255, 1, 66, 151));
}

TEST(QLinearMatMulTest, PerColumnScaleRoundingAndSaturation) {
  auto y =
      RunIdx("y = QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)", 10,
             {TensorValue<int8_t>({1, 2}, {1, 2}), TensorValue<float>({}, {1}),
              TensorValue<int8_t>({}, {0}), TensorValue<int8_t>({2, 3}, {1, 1, 100, 1, 1, 100}),
              TensorValue<float>({3}, {1, 0.5f, 1}), TensorValue<int8_t>({3}, {0, 0, 0}),
              TensorValue<float>({}, {1}), TensorValue<int8_t>({}, {0})});
  ASSERT_EQ(y.size(), 1u);
  // acc = [3, 3, 300]; 3 * 0.5 = 1.5 rounds to 2; 300 saturates.
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(3, 2, 127));
}

TEST(QLinearMatMulTest, RejectsScaleOfWrongLength) {
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)", 10,
                   {TensorValue<int8_t>({1, 2}, {1, 2}), TensorValue<float>({2}, {1, 1}),
                    TensorValue<int8_t>({2}, {0, 0}), TensorValue<int8_t>({2, 1}, {1, 1}),
                    TensorValue<float>({}, {1}), TensorValue<int8_t>({}, {0}),
                    TensorValue<float>({}, {1}), TensorValue<int8_t>({}, {0})}),
      kInvalidArgument);
}

TEST(QLinearMatMulTest, Opset21TakesHalfScales) {
  std::vector<Value> in = {TensorValue<int8_t>({1, 2}, {1, 2}),
                           HalfValue({}, {1}),
                           TensorValue<int8_t>({}, {0}),
                           TensorValue<int8_t>({2, 1}, {3, 4}),
                           HalfValue({}, {1}),
                           TensorValue<int8_t>({}, {0}),
                           HalfValue({}, {2}),
                           TensorValue<int8_t>({}, {0})};
  const char* node = "y = QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)";
  EXPECT_ERROR_CODE(RunIdxStatus(node, 10, in), kInvalidArgument);
  auto y = RunIdx(node, 21, in);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(y[0]), ElementsAre(6));  // 11 / 2 = 5.5 rounds to even
  in[4] = TensorValue<float>({}, {1});
  EXPECT_ERROR_CODE(RunIdxStatus(node, 21, in), kInvalidArgument);  // mixed scale types
}

TEST(QLinearMatMulTest, Opset21TakesFloat8) {
  auto f8 = [](Shape shape, const std::vector<float>& values) {
    std::vector<Float8E4M3FN> v;
    for (float f : values) v.push_back(Float8E4M3FN::FromFloat(f));
    return Value::FromTensor(Tensor::FromVector<Float8E4M3FN>(std::move(shape), v));
  };
  std::vector<Value> in = {f8({1, 2}, {1, 2}),
                           TensorValue<float>({}, {1}),
                           f8({}, {0}),
                           f8({2, 2}, {3, 1, 4, 0.5f}),
                           TensorValue<float>({}, {1}),
                           f8({}, {0}),
                           TensorValue<float>({}, {0.5f}),
                           f8({}, {0})};
  const char* node = "y = QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)";
  auto y = RunIdx(node, 21, in);
  ASSERT_EQ(y.size(), 1u);
  // [1, 2] x [[3, 1], [4, 0.5]] = [11, 2], divided by 0.5: 22 and 4, both exact in E4M3FN.
  std::vector<float> got;
  for (Float8E4M3FN v : ValuesOf<Float8E4M3FN>(y[0])) got.push_back(v.ToFloat());
  EXPECT_THAT(got, ElementsAre(22, 4));
  // Beyond the largest finite value (448) the output saturates.
  in[6] = TensorValue<float>({}, {0.001f});
  auto sat = RunIdx(node, 21, in);
  ASSERT_EQ(sat.size(), 1u);
  EXPECT_EQ(ValuesOf<Float8E4M3FN>(sat[0])[0].ToFloat(), 448);
  // An int8 output from FLOAT8 operands rounds and saturates as usual.
  in[6] = TensorValue<float>({}, {0.5f});
  in[7] = TensorValue<int8_t>({}, {100});
  auto q = RunIdx(node, 21, in);
  ASSERT_EQ(q.size(), 1u);
  EXPECT_THAT(ValuesOf<int8_t>(q[0]), ElementsAre(122, 104));
  EXPECT_FALSE(RunIdxStatus(node, 10, in).ok());
  // The zero point must have its operand's type.
  in[2] = TensorValue<int8_t>({}, {0});
  EXPECT_ERROR_CODE(RunIdxStatus(node, 21, in), kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
