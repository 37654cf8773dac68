// Tests of BitwiseAnd, BitwiseOr, BitwiseXor and BitwiseNot: values on signed and unsigned
// integers, broadcasting, and the errors for other types and shapes.
#include "runtime/ep/ref/kernels/logical/bitwise.h"

#include <cstdint>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class BitwiseTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(BitwiseTest, BinaryOpsBroadcastOnTwosComplementBits) {
  std::vector<Value> in = {TensorValue<int8_t>({2, 2}, {-1, 5, -128, 12}),
                           TensorValue<int8_t>({2}, {3, 6})};
  ASSERT_OK_AND_ASSIGN(auto a, RunNode(registry_, "C = BitwiseAnd(A, B)", 18, in));
  EXPECT_THAT(DimsOf(a[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<int8_t>(a[0]), ElementsAre(3, 4, 0, 4));
  ASSERT_OK_AND_ASSIGN(auto o, RunNode(registry_, "C = BitwiseOr(A, B)", 18, in));
  EXPECT_THAT(ValuesOf<int8_t>(o[0]), ElementsAre(-1, 7, -125, 14));
  ASSERT_OK_AND_ASSIGN(auto x, RunNode(registry_, "C = BitwiseXor(A, B)", 18, in));
  EXPECT_THAT(ValuesOf<int8_t>(x[0]), ElementsAre(-4, 3, -125, 10));
  ASSERT_OK_AND_ASSIGN(auto u, RunNode(registry_, "C = BitwiseAnd(A, B)", 18,
                                       {TensorValue<uint64_t>({2}, {UINT64_MAX, 0xF0}),
                                        TensorValue<uint64_t>({}, {0x3C})}));
  EXPECT_THAT(ValuesOf<uint64_t>(u[0]), ElementsAre(0x3Cu, 0x30u));
}

TEST_F(BitwiseTest, NotFlipsEveryBit) {
  ASSERT_OK_AND_ASSIGN(auto u, RunNode(registry_, "Y = BitwiseNot(X)", 18,
                                       {TensorValue<uint8_t>({3}, {0, 255, 0x0F})}));
  EXPECT_THAT(ValuesOf<uint8_t>(u[0]), ElementsAre(255, 0, 0xF0));
  ASSERT_OK_AND_ASSIGN(
      auto s, RunNode(registry_, "Y = BitwiseNot(X)", 18, {TensorValue<int32_t>({3}, {0, -1, 5})}));
  EXPECT_THAT(ValuesOf<int32_t>(s[0]), ElementsAre(-1, 0, -6));
}

TEST_F(BitwiseTest, OtherTypesAndShapesAreErrors) {
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = BitwiseNot(X)", 18, {TensorValue<float>({1}, {1})}),
                    kUnimplemented);
  std::vector<Value> mismatched = {TensorValue<int32_t>({2}, {1, 2}),
                                   TensorValue<int32_t>({3}, {1, 2, 3})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = BitwiseOr(A, B)", 18, mismatched), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "C = BitwiseXor(A, B)", 17,
                            {TensorValue<int32_t>({1}, {1}), TensorValue<int32_t>({1}, {1})}),
                    kUnimplemented);
  Tensor a = Tensor::FromVector<int32_t>({1}, {1});
  Tensor b = Tensor::FromVector<int64_t>({1}, {1});
  EXPECT_ERROR_CODE(Bitwise(BitwiseOp::kAnd, a, b), kInvalidArgument);
  EXPECT_ERROR_CODE(BitwiseNot(Tensor::FromVector<double>({1}, {1})), kUnimplemented);
}

}  // namespace
}  // namespace onnxgate::ref
