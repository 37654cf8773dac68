// Tests of Identity for tensors, sequences (opset 14) and optionals (opset 16).
#include "runtime/ep/ref/kernels/tensor/identity.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class IdentityTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(IdentityTest, Tensor) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Identity(X)", 1, {TensorValue<bool>({2}, {true, false})}));
  EXPECT_THAT(ValuesOf<bool>(out[0]), ElementsAre(true, false));
}

TEST_F(IdentityTest, SequencesFromOpset14) {
  Value seq = Value::FromSequence(DataType::kFloat, {Tensor::FromVector<float>({1}, {1}),
                                                     Tensor::FromVector<float>({2}, {2, 3})});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Identity(X)", 13, {seq}), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Identity(X)", 14, {seq}));
  ASSERT_TRUE(out[0].is_sequence());
  ASSERT_EQ(out[0].sequence().size(), 2u);
  EXPECT_EQ(out[0].sequence()[1].data<float>()[1], 3);
}

TEST_F(IdentityTest, OptionalsFromOpset16) {
  Value none = Value::OptionalNone(Value::Kind::kTensor, DataType::kInt64);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Identity(X)", 15, {none}), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Identity(X)", 16, {none}));
  ASSERT_TRUE(out[0].is_optional());
  EXPECT_FALSE(out[0].has_value());
  Value some = Value::OptionalOf(TensorValue<int64_t>({}, {9}));
  ASSERT_OK_AND_ASSIGN(auto got, RunNode(registry_, "Y = Identity(X)", 16, {some}));
  ASSERT_TRUE(got[0].has_value());
  EXPECT_EQ(got[0].optional_value().tensor().data<int64_t>()[0], 9);
}

}  // namespace
}  // namespace onnxgate::ref
