// Tests of Scan: input and output axes and directions (Scan-9+), negative axes from 11, zero
// steps, and Scan-8's batches with sequence_lens, reverse inputs and zero padding.
#include "runtime/ep/ref/kernels/controlflow/scan.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/controlflow/control_flow_test_util.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using Values = std::vector<Value>;

void AddInt(onnx::NodeProto* node, const std::string& name, int64_t v) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void AddInts(onnx::NodeProto* node, const std::string& name, const std::vector<int64_t>& v) {
  onnx::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

std::vector<float> Floats(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.NumElements());
}

// Running sum: state' = state + x; scan output = state'. Works for any equal shapes.
std::shared_ptr<FakeBody> CumSum() {
  return std::make_shared<FakeBody>(2, 2, [](const Values& in, auto&) -> StatusOr<Values> {
    const Tensor& s = in[0].tensor();
    const Tensor& x = in[1].tensor();
    if (s.shape() != x.shape())
      return InvalidArgument("state " + s.shape().ToString() + " vs slice " + x.shape().ToString());
    std::vector<float> v = Floats(s);
    for (size_t i = 0; i < v.size(); ++i) v[i] += x.data<float>()[i];
    Value out = TensorValue<float>(s.shape(), v);
    return Values{out, out};
  });
}

class ScanTest : public ::testing::Test {
 protected:
  // Scan(state, x) with CumSum and the given int-list attributes.
  StatusOr<Values> RunCumSum(int opset, Value state, Value x,
                             const std::map<std::string, std::vector<int64_t>>& lists = {},
                             GraphOutputDecl scan_decl = {DataType::kFloat, {2}, true}) {
    onnx::NodeProto node = MakeNode("Scan", 2, 2, {{"body", {{DataType::kFloat}, scan_decl}}});
    AddInt(&node, "num_scan_inputs", 1);
    for (const auto& [name, v] : lists) AddInts(&node, name, v);
    return RunWithBodies(registry_, node, opset, {{"body", CumSum()}}, {state, x});
  }

  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value zeros2_ = TensorValue<float>({2}, {0, 0});
  Value x32_ = TensorValue<float>({3, 2}, {1, 2, 3, 4, 5, 6});
};

TEST_F(ScanTest, ForwardScanOverAxis0) {
  ASSERT_OK_AND_ASSIGN(auto out, RunCumSum(9, zeros2_, x32_));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(9, 12));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(3, 2));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(1, 2, 4, 6, 9, 12));
}

TEST_F(ScanTest, ReverseInputDirection) {
  ASSERT_OK_AND_ASSIGN(auto out, RunCumSum(11, zeros2_, x32_, {{"scan_input_directions", {1}}}));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(5, 6, 8, 10, 9, 12));
}

TEST_F(ScanTest, ReverseOutputDirectionPrepends) {
  ASSERT_OK_AND_ASSIGN(auto out, RunCumSum(16, zeros2_, x32_, {{"scan_output_directions", {1}}}));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(9, 12, 4, 6, 1, 2));
}

TEST_F(ScanTest, InputAndOutputAxes) {
  // Scanning [2,3] along axis 1 gives slices of [2]; stacking them along output axis 1 gives [2,3].
  const Value x = TensorValue<float>({2, 3}, {1, 3, 5, 2, 4, 6});
  ASSERT_OK_AND_ASSIGN(
      auto out, RunCumSum(9, zeros2_, x, {{"scan_input_axes", {1}}, {"scan_output_axes", {1}}}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(9, 12));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(1, 4, 9, 2, 6, 12));
}

TEST_F(ScanTest, NegativeAxesFromScan11) {
  const Value x = TensorValue<float>({2, 3}, {1, 3, 5, 2, 4, 6});
  const std::map<std::string, std::vector<int64_t>> axes = {{"scan_input_axes", {-1}},
                                                            {"scan_output_axes", {-1}}};
  EXPECT_ERROR_CODE(RunCumSum(9, zeros2_, x, axes), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunCumSum(11, zeros2_, x, axes));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(1, 4, 9, 2, 6, 12));
}

TEST_F(ScanTest, ZeroStepsKeepTheStateAndGiveAnEmptyOutput) {
  ASSERT_OK_AND_ASSIGN(auto out, RunCumSum(11, zeros2_, TensorValue<float>({0, 2}, {}),
                                           {{"scan_output_axes", {1}}}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(0, 0));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(2, 0));
}

TEST_F(ScanTest, AttributeListsMustMatchTheCounts) {
  EXPECT_ERROR_CODE(RunCumSum(11, zeros2_, x32_, {{"scan_input_axes", {0, 0}}}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunCumSum(11, zeros2_, x32_, {{"scan_input_directions", {2}}}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunCumSum(11, zeros2_, x32_, {{"scan_output_axes", {2}}}), kInvalidArgument);
}

TEST_F(ScanTest, ScanInputsMustHaveTheSameLength) {
  auto body = std::make_shared<FakeBody>(
      2, 1, [](const Values& in, auto&) { return StatusOr<Values>(Values{in[0]}); });
  onnx::NodeProto node = MakeNode("Scan", 2, 1, {{"body", {}}});
  AddInt(&node, "num_scan_inputs", 2);
  auto status = RunWithBodies(registry_, node, 11, {{"body", body}},
                              {x32_, TensorValue<float>({2, 2}, {0, 0, 0, 0})});
  EXPECT_ERROR_CODE(status, kInvalidArgument);
  EXPECT_THAT(status.status().message(), HasSubstr("has 2 steps"));
}

class Scan8Test : public ScanTest {
 protected:
  // Scan-8(sequence_lens, state[batch,2], x[batch,seq,2]) with CumSum.
  StatusOr<Values> RunBatched(Value lens, Value state, Value x,
                              std::vector<int64_t> directions = {}) {
    onnx::NodeProto node = MakeNode(
        "Scan", 3, 2, {{"body", {{DataType::kFloat}, {DataType::kFloat, {2}, true}}}},
        lens.kind() == Value::Kind::kNone ? std::vector<size_t>{0} : std::vector<size_t>{});
    AddInt(&node, "num_scan_inputs", 1);
    if (!directions.empty()) AddInts(&node, "directions", directions);
    return RunWithBodies(registry_, node, 8, {{"body", CumSum()}}, {lens, state, x});
  }
  Value state_ = TensorValue<float>({2, 2}, {0, 0, 100, 100});
  // batch 0: steps (1,2) (3,4) (5,6); batch 1: steps (10,20) (30,40) (50,60)
  Value x_ = TensorValue<float>({2, 3, 2}, {1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60});
};

TEST_F(Scan8Test, EachBatchEntryScansIndependently) {
  ASSERT_OK_AND_ASSIGN(auto out, RunBatched(Value(), state_, x_));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(9, 12, 190, 220));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(2, 3, 2));
  EXPECT_THAT(ValuesOf<float>(out[1]),
              ElementsAre(1, 2, 4, 6, 9, 12, 110, 120, 140, 160, 190, 220));
}

TEST_F(Scan8Test, SequenceLensStopEarlyAndPadWithZeros) {
  ASSERT_OK_AND_ASSIGN(auto out, RunBatched(TensorValue<int64_t>({2}, {3, 1}), state_, x_));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(9, 12, 110, 120));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(1, 2, 4, 6, 9, 12, 110, 120, 0, 0, 0, 0));
}

TEST_F(Scan8Test, ReverseStartsAtTheLastValidStep) {
  ASSERT_OK_AND_ASSIGN(auto out, RunBatched(TensorValue<int64_t>({2}, {3, 2}), state_, x_, {1}));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(5, 6, 8, 10, 9, 12, 130, 140, 140, 160, 0, 0));
}

TEST_F(Scan8Test, SequenceLensAreChecked) {
  EXPECT_ERROR_CODE(RunBatched(TensorValue<int64_t>({2}, {4, 1}), state_, x_), kInvalidArgument);
  EXPECT_ERROR_CODE(RunBatched(TensorValue<int64_t>({1}, {1}), state_, x_), kInvalidArgument);
  EXPECT_ERROR_CODE(RunBatched(Value(), TensorValue<float>({3, 2}, {0, 0, 0, 0, 0, 0}), x_),
                    kInvalidArgument);
}

TEST_F(Scan8Test, AllLengthsZeroTakesTheStepShapeFromTheBody) {
  ASSERT_OK_AND_ASSIGN(auto out, RunBatched(TensorValue<int64_t>({2}, {0, 0}), state_, x_));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(0, 0, 100, 100));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(2, 3, 2));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
}

TEST_F(ScanTest, Float8ScanInputsAndOutputsFromOpset19) {
  // The body passes each slice through as its scan output and keeps the state.
  auto body = std::make_shared<FakeBody>(2, 2, [](const Values& in, auto&) {
    return StatusOr<Values>(Values{in[0], in[1]});
  });
  std::vector<Float8E5M2> x;
  for (float f : {1.0f, 2.0f, 3.0f, 4.0f, 6.0f, 8.0f}) x.push_back(Float8E5M2::FromFloat(f));
  const Value xs = Value::FromTensor(Tensor::FromVector<Float8E5M2>(Shape({3, 2}), x));
  onnx::NodeProto node =
      MakeNode("Scan", 2, 2, {{"body", {{DataType::kFloat}, {DataType::kFloat8E5M2, {2}, true}}}});
  AddInt(&node, "num_scan_inputs", 1);
  AddInts(&node, "scan_input_directions", {1});
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunWithBodies(registry_, node, 19, {{"body", body}}, {zeros2_, xs}));
  const Tensor& y = out[1].tensor();
  ASSERT_EQ(y.dtype(), DataType::kFloat8E5M2);
  EXPECT_THAT(y.shape().dims(), ElementsAre(3, 2));
  std::vector<double> got;
  for (int64_t k = 0; k < y.NumElements(); ++k) got.push_back(y.ElementAsDouble(k));
  EXPECT_THAT(got, ElementsAre(6, 8, 3, 4, 1, 2));
}

}  // namespace
}  // namespace onnxgate::ref
