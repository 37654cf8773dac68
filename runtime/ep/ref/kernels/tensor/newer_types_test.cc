// Tests of the opset 19-25 versions of the shape and data-movement ops, which only widened their
// types: FLOAT8 (19), INT4/UINT4 (21), FLOAT4E2M1 (23), FLOAT8E8M0 (24), INT2/UINT2 (25). Packed
// elements share bytes, so what moves them must move elements.
#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Int4(Shape shape, const std::vector<int32_t>& v, DataType t = DataType::kInt4) {
  auto x = Tensor::FromSubByteInts(t, std::move(shape), v);
  EXPECT_TRUE(x.ok()) << x.status().ToString();
  return Value::FromTensor(std::move(x).value());
}

std::vector<int32_t> SubByteInts(const Value& v) {
  std::vector<int32_t> out;
  for (int64_t i = 0; i < v.tensor().NumElements(); ++i) out.push_back(v.tensor().SubByteInt(i));
  return out;
}

std::vector<double> Decoded(const Value& v) {
  std::vector<double> out;
  const Tensor& t = v.tensor();
  for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(t.ElementAsDouble(i));
  return out;
}

Value Float8(Shape shape, const std::vector<float>& v) {
  std::vector<Float8E4M3FN> f;
  for (float x : v) f.push_back(Float8E4M3FN::FromFloat(x));
  return Value::FromTensor(Tensor::FromVector<Float8E4M3FN>(std::move(shape), f));
}

class NewerTypesTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(NewerTypesTest, TransposeMovesPackedAndFloat8Elements) {
  ASSERT_OK_AND_ASSIGN(
      auto i4, RunNode(registry_, "Y = Transpose(X)", 21, {Int4({2, 3}, {1, -2, 3, -4, 5, -8})}));
  EXPECT_THAT(DimsOf(i4[0]), ElementsAre(3, 2));
  EXPECT_THAT(SubByteInts(i4[0]), ElementsAre(1, -4, -2, 5, 3, -8));
  ASSERT_OK_AND_ASSIGN(auto u2, RunNode(registry_, "Y = Transpose <perm = [1, 0]> (X)", 25,
                                        {Int4({3, 2}, {0, 1, 2, 3, 3, 2}, DataType::kUint2)}));
  EXPECT_THAT(SubByteInts(u2[0]), ElementsAre(0, 2, 3, 1, 3, 2));
  ASSERT_OK_AND_ASSIGN(auto f8,
                       RunNode(registry_, "Y = Transpose(X)", 21, {Float8({2, 2}, {1, 2, 3, 4})}));
  EXPECT_THAT(Decoded(f8[0]), ElementsAre(1, 3, 2, 4));
  auto fp4 = Tensor::FromFloat4(
      Shape({1, 3}),
      {Float4E2M1::FromFloat(0.5f), Float4E2M1::FromFloat(-6.0f), Float4E2M1::FromFloat(3.0f)});
  ASSERT_OK_AND_ASSIGN(auto f4,
                       RunNode(registry_, "Y = Transpose(X)", 23, {Value::FromTensor(fp4)}));
  EXPECT_THAT(DimsOf(f4[0]), ElementsAre(3, 1));
  EXPECT_THAT(Decoded(f4[0]), ElementsAre(0.5, -6, 3));
  // The opset-13 version does not take the newer types.
  EXPECT_FALSE(RunNode(registry_, "Y = Transpose(X)", 13, {Int4({2}, {1, 2})}).ok());
}

TEST_F(NewerTypesTest, ShapeOpsKeepPackedStorage) {
  const Value x = Int4({2, 3}, {1, -2, 3, -4, 5, -8});
  ASSERT_OK_AND_ASSIGN(
      auto r, RunNode(registry_, "Y = Reshape(X, S)", 21, {x, TensorValue<int64_t>({2}, {3, -1})}));
  EXPECT_THAT(DimsOf(r[0]), ElementsAre(3, 2));
  EXPECT_THAT(SubByteInts(r[0]), ElementsAre(1, -2, 3, -4, 5, -8));
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, "Y = Flatten <axis = 0> (X)", 25, {x}));
  EXPECT_THAT(DimsOf(f[0]), ElementsAre(1, 6));
  ASSERT_OK_AND_ASSIGN(
      auto u, RunNode(registry_, "Y = Unsqueeze(X, A)", 24, {x, TensorValue<int64_t>({1}, {0})}));
  EXPECT_THAT(DimsOf(u[0]), ElementsAre(1, 2, 3));
  ASSERT_OK_AND_ASSIGN(auto s, RunNode(registry_, "Y = Squeeze(X)", 23, {u[0]}));
  EXPECT_THAT(DimsOf(s[0]), ElementsAre(2, 3));
  ASSERT_OK_AND_ASSIGN(auto id, RunNode(registry_, "Y = Identity(X)", 25, {x}));
  EXPECT_THAT(SubByteInts(id[0]), ElementsAre(1, -2, 3, -4, 5, -8));
  ASSERT_OK_AND_ASSIGN(auto shape, RunNode(registry_, "Y = Shape <start = -1> (X)", 25, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(shape[0]), ElementsAre(3));
  ASSERT_OK_AND_ASSIGN(auto size,
                       RunNode(registry_, "Y = Size(X)", 19, {Float8({5}, {1, 2, 3, 4, 5})}));
  EXPECT_THAT(ValuesOf<int64_t>(size[0]), ElementsAre(5));
  // Reshape still checks the element count.
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Reshape(X, S)", 25, {x, TensorValue<int64_t>({1}, {5})}),
      kInvalidArgument);
}

TEST_F(NewerTypesTest, Float8E8M0FromOpset24Only) {
  const Value e8m0 = Value::FromTensor(Tensor::FromVector<Float8E8M0>(
      Shape({2}), {Float8E8M0::FromFloat(2.0f), Float8E8M0::FromFloat(0.25f)}));
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = Identity(X)", 24, {e8m0}));
  EXPECT_THAT(Decoded(y[0]), ElementsAre(2, 0.25));
  EXPECT_FALSE(RunNode(registry_, "Y = Identity(X)", 23, {e8m0}).ok());
}

}  // namespace
}  // namespace onnxgate::ref
