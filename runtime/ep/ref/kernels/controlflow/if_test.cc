// Tests of If: branch choice, the outer scope reaching the branch, condition checks, and which
// value kinds each version lets a branch return.
#include "runtime/ep/ref/kernels/controlflow/if.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/controlflow/control_flow_test_util.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A branch returning `value` once for each of `num_outputs` outputs.
std::shared_ptr<FakeBody> Returning(Value value, size_t num_outputs = 1) {
  return std::make_shared<FakeBody>(0, num_outputs, [value, num_outputs](auto&, auto&) {
    return StatusOr<std::vector<Value>>(std::vector<Value>(num_outputs, value));
  });
}

class IfTest : public ::testing::Test {
 protected:
  StatusOr<std::vector<Value>> RunIf(int opset, Value cond, std::shared_ptr<FakeBody> then_b,
                                     std::shared_ptr<FakeBody> else_b, size_t num_outputs = 1,
                                     const Scope* scope = nullptr) {
    onnx::NodeProto node =
        MakeNode("If", 1, num_outputs, {{"then_branch", {}}, {"else_branch", {}}});
    return RunWithBodies(registry_, node, opset, {{"then_branch", then_b}, {"else_branch", else_b}},
                         {cond}, scope);
  }

  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  std::shared_ptr<FakeBody> one_ = Returning(TensorValue<float>({1}, {1}));
  std::shared_ptr<FakeBody> two_ = Returning(TensorValue<float>({1}, {2}));
};

TEST_F(IfTest, RunsOnlyTheChosenBranch) {
  ASSERT_OK_AND_ASSIGN(auto yes, RunIf(13, TensorValue<bool>({}, {true}), one_, two_));
  EXPECT_THAT(ValuesOf<float>(yes[0]), ElementsAre(1));
  ASSERT_OK_AND_ASSIGN(auto no, RunIf(13, TensorValue<bool>({1}, {false}), one_, two_));
  EXPECT_THAT(ValuesOf<float>(no[0]), ElementsAre(2));
  EXPECT_EQ(one_->runs(), 1);
  EXPECT_EQ(two_->runs(), 1);
}

TEST_F(IfTest, BranchesSeeTheOuterScope) {
  MapScope scope;
  scope.values["a"] = TensorValue<int64_t>({}, {42});
  auto reads_a = std::make_shared<FakeBody>(
      0, 1, [](auto&, const Scope& outer) -> StatusOr<std::vector<Value>> {
        const Value* a = outer.Lookup("a");
        if (a == nullptr) return NotFound("a");
        return std::vector<Value>{*a};
      });
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunIf(11, TensorValue<bool>({}, {true}), reads_a, two_, 1, &scope));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(42));
}

TEST_F(IfTest, ConditionMustBeOneBool) {
  EXPECT_ERROR_CODE(RunIf(13, TensorValue<bool>({2}, {true, false}), one_, two_), kInvalidArgument);
  EXPECT_ERROR_CODE(RunIf(13, TensorValue<bool>({0}, {}), one_, two_), kInvalidArgument);
}

TEST_F(IfTest, BranchOutputCountMustMatchTheNode) {
  auto status =
      RunIf(13, TensorValue<bool>({}, {true}), Returning(TensorValue<float>({1}, {1}), 2), two_);
  EXPECT_ERROR_CODE(status, kInvalidArgument);
  EXPECT_THAT(status.status().message(), HasSubstr("'then_branch' has 2 outputs"));
}

TEST_F(IfTest, BranchErrorsNameTheBranch) {
  auto failing = std::make_shared<FakeBody>(0, 1, [](auto&, auto&) -> StatusOr<std::vector<Value>> {
    return InvalidArgument("bad value");
  });
  auto status = RunIf(13, TensorValue<bool>({}, {false}), one_, failing);
  EXPECT_ERROR_CODE(status, kInvalidArgument);
  EXPECT_THAT(status.status().message(), HasSubstr("else_branch: bad value"));
}

TEST_F(IfTest, SequencesFrom13AndOptionalsFrom16) {
  const Value seq = Value::FromSequence(DataType::kFloat, {});
  EXPECT_ERROR_CODE(RunIf(11, TensorValue<bool>({}, {true}), Returning(seq), two_),
                    kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunIf(13, TensorValue<bool>({}, {true}), Returning(seq), two_));
  EXPECT_TRUE(out[0].is_sequence());
  const Value none = Value::OptionalNone(Value::Kind::kTensor, DataType::kFloat);
  EXPECT_ERROR_CODE(RunIf(13, TensorValue<bool>({}, {true}), Returning(none), two_),
                    kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto opt, RunIf(16, TensorValue<bool>({}, {true}), Returning(none), two_));
  EXPECT_TRUE(opt[0].is_optional());
}

TEST_F(IfTest, BranchesReturnTheNewerTypesFromOpset19) {
  auto packed = Tensor::FromSubByteInts(DataType::kUint2, Shape({3}), {3, 0, 2});
  ASSERT_TRUE(packed.ok());
  ASSERT_OK_AND_ASSIGN(auto out, RunIf(25, TensorValue<bool>({}, {false}), one_,
                                       Returning(Value::FromTensor(*packed))));
  EXPECT_EQ(out[0].tensor().dtype(), DataType::kUint2);
  EXPECT_EQ(out[0].tensor().SubByteInt(0), 3);
  const Value f8 = Value::FromTensor(
      Tensor::FromVector<Float8E4M3FNUZ>(Shape({1}), {Float8E4M3FNUZ::FromFloat(0.5f)}));
  ASSERT_OK_AND_ASSIGN(auto f, RunIf(19, TensorValue<bool>({}, {true}), Returning(f8), two_));
  EXPECT_EQ(f[0].tensor().ElementAsDouble(0), 0.5);
}

}  // namespace
}  // namespace onnxgate::ref
