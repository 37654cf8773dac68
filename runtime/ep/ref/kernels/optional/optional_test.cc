// Tests of Optional, OptionalHasElement and OptionalGetElement: empty optionals from the type
// attribute, wrapping tensors and sequences, and plain values accepted where loops pass them.
#include "runtime/ep/ref/kernels/optional/optional.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/controlflow/control_flow_test_util.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// An Optional node with a `type` attribute (which the ONNX text syntax cannot write): of
// sequences when `sequence`, else of tensors, of `elem_type`; with input x unless `no_input`.
onnx::NodeProto TypedOptional(DataType elem_type, bool sequence, bool no_input) {
  onnx::NodeProto node = MakeNode("Optional", no_input ? 0 : 1, 1, {});
  onnx::AttributeProto* a = node.add_attribute();
  a->set_name("type");
  a->set_type(onnx::AttributeProto::TYPE_PROTO);
  onnx::TypeProto* tensor =
      sequence ? a->mutable_tp()->mutable_sequence_type()->mutable_elem_type() : a->mutable_tp();
  tensor->mutable_tensor_type()->set_elem_type(static_cast<int32_t>(elem_type));
  return node;
}

class OptionalTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value x_ = TensorValue<float>({2}, {1, 2});
};

TEST_F(OptionalTest, WrapsATensorAndGetsItBack) {
  ASSERT_OK_AND_ASSIGN(auto opt, RunNode(registry_, "o = Optional (x)", 15, {x_}));
  ASSERT_TRUE(opt[0].is_optional());
  EXPECT_TRUE(opt[0].has_value());
  EXPECT_EQ(opt[0].optional_inner_kind(), Value::Kind::kTensor);
  ASSERT_OK_AND_ASSIGN(auto has, RunNode(registry_, "b = OptionalHasElement (o)", 15, {opt[0]}));
  EXPECT_THAT(ValuesOf<bool>(has[0]), ElementsAre(true));
  EXPECT_TRUE(DimsOf(has[0]).empty());
  ASSERT_OK_AND_ASSIGN(auto got, RunNode(registry_, "y = OptionalGetElement (o)", 15, {opt[0]}));
  EXPECT_THAT(ValuesOf<float>(got[0]), ElementsAre(1, 2));
}

TEST_F(OptionalTest, EmptyOptionalOfASequenceTypeFromTheAttribute) {
  ASSERT_OK_AND_ASSIGN(
      auto opt, RunWithBodies(registry_, TypedOptional(DataType::kInt32, true, true), 15, {}, {}));
  ASSERT_TRUE(opt[0].is_optional());
  EXPECT_FALSE(opt[0].has_value());
  EXPECT_EQ(opt[0].optional_inner_kind(), Value::Kind::kSequence);
  EXPECT_EQ(opt[0].elem_type(), DataType::kInt32);
  ASSERT_OK_AND_ASSIGN(auto has, RunNode(registry_, "b = OptionalHasElement (o)", 15, {opt[0]}));
  EXPECT_THAT(ValuesOf<bool>(has[0]), ElementsAre(false));
  auto got = RunNode(registry_, "y = OptionalGetElement (o)", 15, {opt[0]});
  EXPECT_ERROR_CODE(got, kInvalidArgument);
}

TEST_F(OptionalTest, OptionalWithoutInputOrTypeIsRejected) {
  EXPECT_ERROR_CODE(RunNode(registry_, "o = Optional ()", 15, {}), kInvalidArgument);
}

TEST_F(OptionalTest, TypeAttributeMustMatchTheInput) {
  EXPECT_ERROR_CODE(
      RunWithBodies(registry_, TypedOptional(DataType::kInt64, false, false), 15, {}, {x_}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunWithBodies(registry_, TypedOptional(DataType::kFloat, true, false), 15, {}, {x_}),
      kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(
      auto ok,
      RunWithBodies(registry_, TypedOptional(DataType::kFloat, false, false), 15, {}, {x_}));
  EXPECT_TRUE(ok[0].has_value());
}

TEST_F(OptionalTest, WrapsASequence) {
  const Value seq = Value::FromSequence(DataType::kFloat, {x_.tensor()});
  ASSERT_OK_AND_ASSIGN(auto opt, RunNode(registry_, "o = Optional (s)", 15, {seq}));
  EXPECT_EQ(opt[0].optional_inner_kind(), Value::Kind::kSequence);
  ASSERT_OK_AND_ASSIGN(auto got, RunNode(registry_, "y = OptionalGetElement (o)", 15, {opt[0]}));
  ASSERT_TRUE(got[0].is_sequence());
  EXPECT_EQ(got[0].sequence().size(), 1u);
}

TEST_F(OptionalTest, PlainValuesCountAsPresentAndPassThrough) {
  const Value seq = Value::FromSequence(DataType::kFloat, {});
  ASSERT_OK_AND_ASSIGN(auto has, RunNode(registry_, "b = OptionalHasElement (s)", 15, {seq}));
  EXPECT_THAT(ValuesOf<bool>(has[0]), ElementsAre(true));
  ASSERT_OK_AND_ASSIGN(auto got, RunNode(registry_, "y = OptionalGetElement (x)", 15, {x_}));
  EXPECT_THAT(ValuesOf<float>(got[0]), ElementsAre(1, 2));
}

TEST_F(OptionalTest, Opset28TakesTheNewerElementTypes) {
  auto x = Tensor::FromSubByteInts(DataType::kInt4, Shape({3}), {1, -2, 3});
  ASSERT_TRUE(x.ok());
  const Value v = Value::FromTensor(*x);
  EXPECT_FALSE(RunNode(registry_, "o = Optional (x)", 15, {v}).ok());
  ASSERT_OK_AND_ASSIGN(auto opt, RunNode(registry_, "o = Optional (x)", 28, {v}));
  ASSERT_TRUE(opt[0].is_optional());
  ASSERT_OK_AND_ASSIGN(auto has, RunNode(registry_, "b = OptionalHasElement (o)", 28, {opt[0]}));
  EXPECT_THAT(ValuesOf<bool>(has[0]), ElementsAre(true));
  ASSERT_OK_AND_ASSIGN(auto got, RunNode(registry_, "y = OptionalGetElement (o)", 28, {opt[0]}));
  EXPECT_EQ(got[0].tensor().SubByteInt(1), -2);
  // From 18 a plain tensor is a present value.
  ASSERT_OK_AND_ASSIGN(auto plain, RunNode(registry_, "b = OptionalHasElement (o)", 18, {x_}));
  EXPECT_THAT(ValuesOf<bool>(plain[0]), ElementsAre(true));
  ASSERT_OK_AND_ASSIGN(auto same, RunNode(registry_, "y = OptionalGetElement (o)", 18, {x_}));
  EXPECT_THAT(ValuesOf<float>(same[0]), ElementsAre(1, 2));
}

}  // namespace
}  // namespace onnxgate::ref
