// Tests of Gemm: transposes, alpha and beta, unidirectional broadcast of C (Gemm-1/6 only with
// the broadcast attribute), C optional from Gemm-11, integer and float16 types.
#include "runtime/ep/ref/kernels/math/gemm.h"

#include <cmath>

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// A [2,3], B [3,2]: A x B = [[58, 64], [139, 154]].
Value A() { return TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6}); }
Value B() { return TensorValue<float>({3, 2}, {7, 8, 9, 10, 11, 12}); }

TEST(GemmTest, AlphaBetaAndMatrixC) {
  auto y = RunNn("Y = Gemm <alpha = 2.0, beta = 0.5> (A, B, C)", 13,
                 {A(), B(), TensorValue<float>({2, 2}, {2, 4, 6, 8})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(117, 130, 281, 312));
}

TEST(GemmTest, TransposedOperands) {
  // A^T given as [3,2] and B^T as [2,3] give the same product.
  auto y = RunNn("Y = Gemm <transA = 1, transB = 1> (A, B, C)", 13,
                 {TensorValue<float>({3, 2}, {1, 4, 2, 5, 3, 6}),
                  TensorValue<float>({2, 3}, {7, 9, 11, 8, 10, 12}), TensorValue<float>({}, {0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(58, 64, 139, 154));
}

TEST(GemmTest, CBroadcastsUnidirectionally) {
  auto row = RunNn("Y = Gemm(A, B, C)", 13, {A(), B(), TensorValue<float>({2}, {1, 2})});
  ASSERT_EQ(row.size(), 1u);
  EXPECT_THAT(Elements<float>(row[0]), ElementsAre(59, 66, 140, 156));
  auto col = RunNn("Y = Gemm(A, B, C)", 13, {A(), B(), TensorValue<float>({2, 1}, {1, 2})});
  ASSERT_EQ(col.size(), 1u);
  EXPECT_THAT(Elements<float>(col[0]), ElementsAre(59, 65, 141, 156));
  auto scalar = RunNn("Y = Gemm(A, B, C)", 13, {A(), B(), TensorValue<float>({1}, {10})});
  ASSERT_EQ(scalar.size(), 1u);
  EXPECT_THAT(Elements<float>(scalar[0]), ElementsAre(68, 74, 149, 164));
}

TEST(GemmTest, CThatDoesNotBroadcastIsAnError) {
  Status st = RunNnStatus("Y = Gemm(A, B, C)", 13, {A(), B(), TensorValue<float>({3}, {1, 2, 3})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  st =
      RunNnStatus("Y = Gemm(A, B, C)", 13, {A(), B(), TensorValue<float>({2, 2, 1}, {1, 2, 3, 4})});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
}

TEST(GemmTest, COptionalFromGemm11) {
  auto y = RunNn("Y = Gemm(A, B)", 11, {A(), B()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(58, 64, 139, 154));
  Status st = RunNnStatus("Y = Gemm(A, B)", 9, {A(), B()});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
}

TEST(GemmTest, BetaZeroIgnoresC) {
  const float nan = std::nanf("");
  auto y = RunNn("Y = Gemm <beta = 0.0> (A, B, C)", 13,
                 {A(), B(), TensorValue<float>({2, 2}, {nan, nan, nan, nan})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(58, 64, 139, 154));
}

TEST(GemmTest, InnerDimMismatchIsAnError) {
  Status st = RunNnStatus("Y = Gemm <transA = 1> (A, B)", 13, {A(), B()});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
}

TEST(GemmTest, Integers) {
  auto y = RunNn("Y = Gemm(A, B, C)", 13,
                 {TensorValue<int32_t>({1, 2}, {3, -4}), TensorValue<int32_t>({2, 1}, {5, 6}),
                  TensorValue<int32_t>({1}, {100})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<int32_t>(y[0]), ElementsAre(91));
  auto scaled = RunNn("Y = Gemm <alpha = 0.5> (A, B)", 13,
                      {TensorValue<int64_t>({1, 1}, {7}), TensorValue<int64_t>({1, 1}, {1})});
  ASSERT_EQ(scaled.size(), 1u);
  EXPECT_THAT(Elements<int64_t>(scaled[0]), ElementsAre(3));  // 3.5 truncated toward zero
}

TEST(GemmTest, IntegersAreNotServedBeforeGemm9) {
  Status st = RunNnStatus("Y = Gemm(A, B, C)", 8,
                          {TensorValue<int32_t>({1, 1}, {1}), TensorValue<int32_t>({1, 1}, {1}),
                           TensorValue<int32_t>({1}, {1})});
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented) << st.ToString();
}

TEST(GemmTest, BFloat16FromGemm13) {
  auto b = [](float f) { return BFloat16::FromFloat(f); };
  auto y = RunNn(
      "Y = Gemm(A, B)", 13,
      {TensorValue<BFloat16>({1, 2}, {b(1), b(2)}), TensorValue<BFloat16>({2, 1}, {b(3), b(4)})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].tensor().data<BFloat16>()[0].ToFloat(), 11.0f);
  Status st =
      RunNnStatus("Y = Gemm(A, B)", 11,
                  {TensorValue<BFloat16>({1, 1}, {b(1)}), TensorValue<BFloat16>({1, 1}, {b(1)})});
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented) << st.ToString();
}

TEST(GemmTest, LegacyVersionsBroadcastOnlyWithTheAttribute) {
  Value row = TensorValue<float>({2}, {1, 2});
  for (int opset : {1, 6}) {
    Status st = RunNnStatus("Y = Gemm(A, B, C)", opset, {A(), B(), row});
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
    auto y = RunNn("Y = Gemm <broadcast = 1> (A, B, C)", opset, {A(), B(), row});
    ASSERT_EQ(y.size(), 1u);
    EXPECT_THAT(Elements<float>(y[0]), ElementsAre(59, 66, 140, 156));
    auto full = RunNn("Y = Gemm <beta = 0.0> (A, B, C)", opset,
                      {A(), B(), TensorValue<float>({2, 2}, {1, 1, 1, 1})});
    ASSERT_EQ(full.size(), 1u);
    EXPECT_THAT(Elements<float>(full[0]), ElementsAre(58, 64, 139, 154));
  }
}

}  // namespace
}  // namespace onnxgate::ref
