// Tests of MatMul: 2-D products, 1-D promotion rules, batch broadcasting, integer types,
// float16, zero-size operands and accuracy on long reductions.
#include "runtime/ep/ref/kernels/math/matmul.h"

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(MatMulTest, TwoByThreeTimesThreeByTwo) {
  auto y = RunNn("Y = MatMul(A, B)", 13,
                 {TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6}),
                  TensorValue<float>({3, 2}, {7, 8, 9, 10, 11, 12})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(58, 64, 139, 154));
}

TEST(MatMulTest, VectorTimesVectorIsAScalar) {
  auto y = RunNn("Y = MatMul(A, B)", 13,
                 {TensorValue<double>({3}, {1, 2, 3}), TensorValue<double>({3}, {4, 5, 6})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_TRUE(Dims(y[0]).empty());
  EXPECT_THAT(Elements<double>(y[0]), ElementsAre(32));
}

TEST(MatMulTest, VectorOperandsDropTheirPromotedDim) {
  auto row =
      RunNn("Y = MatMul(A, B)", 13,
            {TensorValue<float>({2}, {1, 2}), TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(row.size(), 1u);
  EXPECT_THAT(Dims(row[0]), ElementsAre(3));
  EXPECT_THAT(Elements<float>(row[0]), ElementsAre(9, 12, 15));

  auto col = RunNn("Y = MatMul(A, B)", 13,
                   {TensorValue<float>({2, 2, 3}, {1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0}),
                    TensorValue<float>({3}, {1, 1, 1})});
  ASSERT_EQ(col.size(), 1u);
  EXPECT_THAT(Dims(col[0]), ElementsAre(2, 2));
  EXPECT_THAT(Elements<float>(col[0]), ElementsAre(6, 15, 1, 1));
}

TEST(MatMulTest, BatchDimsBroadcast) {
  // A [2,1,2,2] against B [3,2,2]: output [2,3,2,2]; B's batches are scaled identities.
  std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> b = {1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0, 3};
  auto y = RunNn("Y = MatMul(A, B)", 13,
                 {TensorValue<float>({2, 1, 2, 2}, a), TensorValue<float>({3, 2, 2}, b)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(2, 3, 2, 2));
  std::vector<float> expected;
  for (int i = 0; i < 2; ++i) {
    for (int s = 1; s <= 3; ++s) {
      for (int e = 0; e < 4; ++e) expected.push_back(a[i * 4 + e] * s);
    }
  }
  EXPECT_EQ(Elements<float>(y[0]), expected);
}

TEST(MatMulTest, IncompatibleBatchDimsAreAnError) {
  Status st = RunNnStatus(
      "Y = MatMul(A, B)", 13,
      {TensorValue<float>({2, 1, 1}, {1, 2}), TensorValue<float>({3, 1, 1}, {1, 2, 3})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
}

TEST(MatMulTest, InnerDimMismatchIsAnError) {
  Status st = RunNnStatus(
      "Y = MatMul(A, B)", 13,
      {TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6}), TensorValue<float>({2}, {1, 2})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_THAT(st.message(), ::testing::HasSubstr("inner dims"));
}

TEST(MatMulTest, Int32WrapsAround) {
  auto y =
      RunNn("Y = MatMul(A, B)", 13,
            {TensorValue<int32_t>({1, 2}, {INT32_MAX, 1}), TensorValue<int32_t>({2, 1}, {1, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<int32_t>(y[0]), ElementsAre(INT32_MIN));
}

TEST(MatMulTest, Int64AndUint64) {
  auto y = RunNn("Y = MatMul(A, B)", 13,
                 {TensorValue<int64_t>({2, 2}, {-1, 2, 3, -4}), TensorValue<int64_t>({2}, {5, 6})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<int64_t>(y[0]), ElementsAre(7, -9));
  auto u = RunNn("Y = MatMul(A, B)", 13,
                 {TensorValue<uint64_t>({1, 1}, {3}), TensorValue<uint64_t>({1, 1}, {5})});
  ASSERT_EQ(u.size(), 1u);
  EXPECT_THAT(Elements<uint64_t>(u[0]), ElementsAre(15u));
}

TEST(MatMulTest, IntegersAreNotServedBeforeOpset9) {
  Status st = RunNnStatus("Y = MatMul(A, B)", 8,
                          {TensorValue<int32_t>({1, 1}, {1}), TensorValue<int32_t>({1, 1}, {1})});
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented) << st.ToString();
}

TEST(MatMulTest, Float16GoesThroughWiderArithmetic) {
  auto h = [](float f) { return Float16::FromFloat(f); };
  auto y = RunNn("Y = MatMul(A, B)", 13,
                 {TensorValue<Float16>({1, 2}, {h(0.5f), h(2.0f)}),
                  TensorValue<Float16>({2, 1}, {h(3.0f), h(0.25f)})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].tensor().dtype(), DataType::kFloat16);
  EXPECT_EQ(y[0].tensor().data<Float16>()[0].ToFloat(), 2.0f);
}

TEST(MatMulTest, ZeroSizedOperands) {
  auto empty_rows =
      RunNn("Y = MatMul(A, B)", 13,
            {TensorValue<float>({0, 3}, {}), TensorValue<float>({3, 2}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(empty_rows.size(), 1u);
  EXPECT_THAT(Dims(empty_rows[0]), ElementsAre(0, 2));
  auto empty_inner = RunNn("Y = MatMul(A, B)", 13,
                           {TensorValue<float>({2, 0}, {}), TensorValue<float>({0, 3}, {})});
  ASSERT_EQ(empty_inner.size(), 1u);
  EXPECT_THAT(Dims(empty_inner[0]), ElementsAre(2, 3));
  EXPECT_THAT(Elements<float>(empty_inner[0]), ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST(MatMulTest, LongReductionsAccumulateInDouble) {
  // 2^20 products of 0.1f: float accumulation drifts by far more than one rounding.
  const int64_t k = int64_t{1} << 20;
  auto y = RunNn("Y = MatMul(A, B)", 13,
                 {TensorValue<float>({1, k}, std::vector<float>(k, 0.1f)),
                  TensorValue<float>({k, 1}, std::vector<float>(k, 1.0f))});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(Elements<float>(y[0])[0], static_cast<float>(k * static_cast<double>(0.1f)));
}

}  // namespace
}  // namespace onnxgate::ref
