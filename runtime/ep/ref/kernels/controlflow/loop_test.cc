// Tests of Loop: the four trip-count/condition forms, loop-carried values, stacked scan
// outputs (also after zero iterations), the value kinds each version carries, and errors.
#include "runtime/ep/ref/kernels/controlflow/loop.h"

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
Value I64(int64_t v) { return TensorValue<int64_t>({}, {v}); }
Value Bool(bool v) { return TensorValue<bool>({}, {v}); }

// Body with one loop-carried int64 `sum` and one scan output: sum += i; scan = [i, 10 * i].
// Its condition output is `i < stop_after`.
std::shared_ptr<FakeBody> SumBody(int64_t stop_after) {
  return std::make_shared<FakeBody>(3, 3, [stop_after](const Values& in, auto&) {
    const int64_t i = Int(in[0]);
    return StatusOr<Values>(
        Values{Bool(i < stop_after), I64(Int(in[2]) + i), TensorValue<int64_t>({2}, {i, 10 * i})});
  });
}

class LoopTest : public ::testing::Test {
 protected:
  // Loop(M, cond, sum) with SumBody; `scan_decl` declares the body's scan output.
  StatusOr<Values> RunSum(int opset, Value m, Value cond, std::shared_ptr<FakeBody> body,
                          GraphOutputDecl scan_decl = {DataType::kInt64, {2}, true}) {
    std::vector<size_t> omitted;
    if (m.kind() == Value::Kind::kNone) omitted.push_back(0);
    if (cond.kind() == Value::Kind::kNone) omitted.push_back(1);
    onnx::NodeProto node = MakeNode(
        "Loop", 3, 2, {{"body", {{DataType::kBool}, {DataType::kInt64}, scan_decl}}}, omitted);
    return RunWithBodies(registry_, node, opset, {{"body", body}}, {m, cond, I64(100)});
  }

  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(LoopTest, ForLoopIgnoresTheBodyCondition) {
  auto body = SumBody(0);  // says stop at once, which a pure for loop ignores
  ASSERT_OK_AND_ASSIGN(auto out, RunSum(11, I64(3), Value(), body));
  EXPECT_EQ(body->runs(), 3);
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(103));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(3, 2));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(0, 0, 1, 10, 2, 20));
}

TEST_F(LoopTest, WhileLoopStopsWhenTheBodySaysSo) {
  auto body = SumBody(2);  // iterations 0, 1, 2; the third returns false
  ASSERT_OK_AND_ASSIGN(auto out, RunSum(13, Value(), Bool(true), body));
  EXPECT_EQ(body->runs(), 3);
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(103));
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(3, 2));
}

TEST_F(LoopTest, TripCountAndConditionTogether) {
  auto body = SumBody(100);
  ASSERT_OK_AND_ASSIGN(auto out, RunSum(16, I64(2), Bool(true), body));
  EXPECT_EQ(body->runs(), 2);
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(101));
  auto early = SumBody(0);
  ASSERT_OK_AND_ASSIGN(auto stopped, RunSum(16, I64(5), Bool(true), early));
  EXPECT_EQ(early->runs(), 1);
}

TEST_F(LoopTest, BodySeesIterationNumberAndCondition) {
  std::vector<int64_t> seen_i;
  std::vector<bool> seen_cond;
  auto body = std::make_shared<FakeBody>(3, 3, [&](const Values& in, auto&) {
    seen_i.push_back(Int(in[0]));
    seen_cond.push_back(in[1].tensor().data<bool>()[0]);
    return StatusOr<Values>(Values{Bool(true), in[2], TensorValue<int64_t>({2}, {0, 0})});
  });
  ASSERT_OK_AND_ASSIGN(auto out, RunSum(13, I64(3), Value(), body));
  EXPECT_THAT(seen_i, ElementsAre(0, 1, 2));
  // Without a cond input the body is told true.
  EXPECT_THAT(seen_cond, ElementsAre(true, true, true));
}

TEST_F(LoopTest, ZeroIterationsGiveInitialValuesAndEmptyScanOutputs) {
  ASSERT_OK_AND_ASSIGN(auto zero_trips, RunSum(13, I64(0), Value(), SumBody(9)));
  EXPECT_THAT(ValuesOf<int64_t>(zero_trips[0]), ElementsAre(100));
  EXPECT_THAT(DimsOf(zero_trips[1]), ElementsAre(0, 2));
  EXPECT_EQ(zero_trips[1].elem_type(), DataType::kInt64);
  ASSERT_OK_AND_ASSIGN(auto false_cond, RunSum(13, I64(5), Bool(false), SumBody(9)));
  EXPECT_THAT(DimsOf(false_cond[1]), ElementsAre(0, 2));
  ASSERT_OK_AND_ASSIGN(auto negative, RunSum(13, I64(-4), Value(), SumBody(9)));
  EXPECT_THAT(ValuesOf<int64_t>(negative[0]), ElementsAre(100));
}

TEST_F(LoopTest, ZeroIterationsWithPartlyKnownShapes) {
  ASSERT_OK_AND_ASSIGN(auto unknown_dim,
                       RunSum(13, I64(0), Value(), SumBody(9), {DataType::kInt64, {-1, 3}, true}));
  EXPECT_THAT(DimsOf(unknown_dim[1]), ElementsAre(0, 0, 3));
  ASSERT_OK_AND_ASSIGN(auto unknown_rank,
                       RunSum(13, I64(0), Value(), SumBody(9), {DataType::kInt64, {}, false}));
  EXPECT_THAT(DimsOf(unknown_rank[1]), ElementsAre(0));
  EXPECT_ERROR_CODE(RunSum(13, I64(0), Value(), SumBody(9), {DataType::kUndefined, {}, false}),
                    kInvalidArgument);
}

TEST_F(LoopTest, ScanOutputsMustKeepTheirShape) {
  auto body = std::make_shared<FakeBody>(3, 3, [](const Values& in, auto&) {
    const int64_t i = Int(in[0]);
    return StatusOr<Values>(
        Values{Bool(true), in[2], TensorValue<int64_t>({i + 1}, std::vector<int64_t>(i + 1, 0))});
  });
  EXPECT_ERROR_CODE(RunSum(13, I64(2), Value(), body), kInvalidArgument);
}

TEST_F(LoopTest, CarriedShapesMayChange) {
  // From Loop-11 a loop-carried value may grow: here it gains one element per iteration.
  auto body = std::make_shared<FakeBody>(3, 2, [](const Values& in, auto&) {
    const Tensor& t = in[2].tensor();
    std::vector<int64_t> v(t.data<int64_t>(), t.data<int64_t>() + t.NumElements());
    v.push_back(Int(in[0]));
    return StatusOr<Values>(
        Values{Bool(true), TensorValue<int64_t>({static_cast<int64_t>(v.size())}, v)});
  });
  onnx::NodeProto node = MakeNode("Loop", 3, 1, {{"body", {}}}, {1});
  ASSERT_OK_AND_ASSIGN(auto out, RunWithBodies(registry_, node, 11, {{"body", body}},
                                               {I64(3), Value(), TensorValue<int64_t>({0}, {})}));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(0, 1, 2));
}

TEST_F(LoopTest, SequencesFrom13AndOptionalsFrom16) {
  auto pass = std::make_shared<FakeBody>(3, 2, [](const Values& in, auto&) {
    return StatusOr<Values>(Values{Bool(true), in[2]});
  });
  onnx::NodeProto node = MakeNode("Loop", 3, 1, {{"body", {}}}, {1});
  const Value seq = Value::FromSequence(DataType::kFloat, {});
  EXPECT_ERROR_CODE(RunWithBodies(registry_, node, 11, {{"body", pass}}, {I64(1), Value(), seq}),
                    kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(
      auto out, RunWithBodies(registry_, node, 13, {{"body", pass}}, {I64(1), Value(), seq}));
  EXPECT_TRUE(out[0].is_sequence());
  const Value none = Value::OptionalNone(Value::Kind::kSequence, DataType::kFloat);
  EXPECT_ERROR_CODE(RunWithBodies(registry_, node, 13, {{"body", pass}}, {I64(1), Value(), none}),
                    kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(
      auto opt, RunWithBodies(registry_, node, 16, {{"body", pass}}, {I64(1), Value(), none}));
  EXPECT_TRUE(opt[0].is_optional());
}

TEST_F(LoopTest, BodyReadsTheOuterScope) {
  MapScope scope;
  scope.values["step"] = I64(5);
  auto body = std::make_shared<FakeBody>(
      3, 2, [](const Values& in, const Scope& outer) -> StatusOr<Values> {
        const Value* step = outer.Lookup("step");
        if (step == nullptr) return NotFound("step");
        return Values{Bool(true), I64(Int(in[2]) + Int(*step))};
      });
  onnx::NodeProto node = MakeNode("Loop", 3, 1, {{"body", {}}}, {1});
  ASSERT_OK_AND_ASSIGN(auto out, RunWithBodies(registry_, node, 13, {{"body", body}},
                                               {I64(2), Value(), I64(0)}, &scope));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(10));
}

TEST_F(LoopTest, ErrorsNameTheIteration) {
  auto body = std::make_shared<FakeBody>(3, 2, [](const Values& in, auto&) -> StatusOr<Values> {
    if (Int(in[0]) == 1) return InvalidArgument("broken");
    return Values{Bool(true), in[2]};
  });
  onnx::NodeProto node = MakeNode("Loop", 3, 1, {{"body", {}}}, {1});
  auto status = RunWithBodies(registry_, node, 13, {{"body", body}}, {I64(3), Value(), I64(0)});
  EXPECT_ERROR_CODE(status, kInvalidArgument);
  EXPECT_THAT(status.status().message(), HasSubstr("iteration 1: broken"));
}

TEST_F(LoopTest, TripCountAndConditionMustBeScalarsOfTheirType) {
  EXPECT_ERROR_CODE(RunSum(13, TensorValue<int64_t>({2}, {1, 2}), Value(), SumBody(9)),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunSum(13, Value(), TensorValue<bool>({2}, {true, true}), SumBody(9)),
                    kInvalidArgument);
}

TEST_F(LoopTest, BodyInputCountIsChecked) {
  auto body = std::make_shared<FakeBody>(2, 2, [](const Values& in, auto&) {
    return StatusOr<Values>(Values{Bool(true), in[1]});
  });
  onnx::NodeProto node = MakeNode("Loop", 3, 1, {{"body", {}}}, {1});
  auto status = RunWithBodies(registry_, node, 13, {{"body", body}}, {I64(1), Value(), I64(0)});
  EXPECT_ERROR_CODE(status, kInvalidArgument);
  EXPECT_THAT(status.status().message(), HasSubstr("'body' has 2 inputs"));
}

TEST_F(LoopTest, PackedScanOutputsFromOpset21) {
  // One loop-carried INT4 value passed through; the scan output is INT4 [i, -i].
  auto body = std::make_shared<FakeBody>(3, 3, [](const Values& in, auto&) -> StatusOr<Values> {
    const int32_t i = static_cast<int32_t>(Int(in[0]));
    ONNXGATE_ASSIGN_OR_RETURN(Tensor scan,
                              Tensor::FromSubByteInts(DataType::kInt4, Shape({2}), {i, -i}));
    return Values{Bool(true), in[2], Value::FromTensor(std::move(scan))};
  });
  auto carried = Tensor::FromSubByteInts(DataType::kInt4, Shape({1}), {-7});
  ASSERT_TRUE(carried.ok());
  onnx::NodeProto node = MakeNode(
      "Loop", 3, 2,
      {{"body", {{DataType::kBool}, {DataType::kInt4}, {DataType::kInt4, {2}, true}}}}, {1});
  ASSERT_OK_AND_ASSIGN(auto out, RunWithBodies(registry_, node, 21, {{"body", body}},
                                               {I64(3), Value(), Value::FromTensor(*carried)}));
  EXPECT_EQ(out[0].tensor().SubByteInt(0), -7);
  const Tensor& scans = out[1].tensor();
  EXPECT_THAT(scans.shape().dims(), ElementsAre(3, 2));
  std::vector<int32_t> got;
  for (int64_t k = 0; k < scans.NumElements(); ++k) got.push_back(scans.SubByteInt(k));
  EXPECT_THAT(got, ElementsAre(0, 0, 1, -1, 2, -2));
  // Loop-16 does not take INT4.
  EXPECT_FALSE(RunWithBodies(registry_, node, 16, {{"body", body}},
                             {I64(3), Value(), Value::FromTensor(*carried)})
                   .ok());
}

}  // namespace
}  // namespace onnxgate::ref
