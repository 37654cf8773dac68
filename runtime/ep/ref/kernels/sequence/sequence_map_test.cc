// Tests of SequenceMap: a sequence mapped with a tensor input passed whole, two sequences
// zipped, an empty map taking the declared output type, and sequences of unequal lengths.
#include "runtime/ep/ref/kernels/sequence/sequence_map.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/controlflow/control_flow_test_util.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Values = std::vector<Value>;

int64_t Int(const Value& v) { return v.tensor().data<int64_t>()[0]; }
Tensor I64(int64_t v) { return Tensor::FromVector<int64_t>(Shape{}, {v}); }
Value Seq(std::vector<Tensor> items) {
  return Value::FromSequence(DataType::kInt64, std::move(items));
}

// out0 = in0 + in1 (scalars).
std::shared_ptr<FakeBody> AddBody() {
  return std::make_shared<FakeBody>(2, 1, [](const Values& in, auto&) {
    return StatusOr<Values>(Values{Value::FromTensor(I64(Int(in[0]) + Int(in[1])))});
  });
}

class SequenceMapTest : public ::testing::Test {
 protected:
  StatusOr<Values> Map(std::shared_ptr<FakeBody> body, const Values& inputs) {
    onnx::NodeProto node =
        MakeNode("SequenceMap", inputs.size(), 1, {{"body", {DataType::kInt64}}});
    return RunWithBodies(registry_, node, 17, {{"body", body}}, inputs);
  }
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(SequenceMapTest, TensorInputIsPassedWholeToEveryPosition) {
  auto body = AddBody();
  ASSERT_OK_AND_ASSIGN(Values out,
                       Map(body, {Seq({I64(1), I64(2), I64(3)}), Value::FromTensor(I64(10))}));
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].is_sequence());
  std::vector<int64_t> got;
  for (const Tensor& t : out[0].sequence()) got.push_back(t.data<int64_t>()[0]);
  EXPECT_THAT(got, ElementsAre(11, 12, 13));
  EXPECT_EQ(body->runs(), 3);
}

TEST_F(SequenceMapTest, SequencesAreZipped) {
  ASSERT_OK_AND_ASSIGN(Values out,
                       Map(AddBody(), {Seq({I64(1), I64(2)}), Seq({I64(100), I64(200)})}));
  ASSERT_EQ(out[0].sequence().size(), 2u);
  EXPECT_EQ(out[0].sequence()[1].data<int64_t>()[0], 202);
}

TEST_F(SequenceMapTest, EmptyMapGivesAnEmptySequenceOfTheDeclaredType) {
  auto body = AddBody();
  ASSERT_OK_AND_ASSIGN(Values out, Map(body, {Seq({}), Value::FromTensor(I64(1))}));
  ASSERT_TRUE(out[0].is_sequence());
  EXPECT_TRUE(out[0].sequence().empty());
  EXPECT_EQ(out[0].elem_type(), DataType::kInt64);
  EXPECT_EQ(body->runs(), 0);
}

TEST_F(SequenceMapTest, RejectsSequencesOfUnequalLength) {
  auto out = Map(AddBody(), {Seq({I64(1), I64(2)}), Seq({I64(1)})});
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.status().message(), HasSubstr("is a sequence of 1 tensors"));
}

}  // namespace
}  // namespace onnxgate::ref
