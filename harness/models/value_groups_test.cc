// The way a model step's result comes back from its worker: values of every kind unchanged, the
// step's error with its code, and garbled or truncated bytes refused without over-reading.
#include "harness/models/value_groups.h"

#include <gtest/gtest.h>

#include "harness/compare.h"

namespace onnxgate {
namespace {

bool Same(const Value& a, const Value& b) { return CompareValues(a, b, Tolerance{0, 0}).passed; }

ValueGroups SampleGroups() {
  Value floats = Value::FromTensor(Tensor::FromVector<float>(Shape({2, 2}), {1, -2, 3.5f, 0}));
  Tensor counts = Tensor::FromVector<int64_t>(Shape({3}), {7, 8, 9});
  Value ints = Value::FromTensor(counts);
  Value sequence = Value::FromSequence(DataType::kInt64, {counts, counts});
  Value none = Value::OptionalNone(Value::Kind::kTensor, DataType::kFloat);
  return {{{"x", floats}, {"n", ints}}, {}, {{"s", sequence}, {"o", none}}};
}

TEST(ValueGroupsTest, EveryGroupAndValueComesBackUnchanged) {
  const ValueGroups groups = SampleGroups();
  auto back = DecodeValueGroups(EncodeValueGroups(groups), "test");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->size(), 3u);
  ASSERT_EQ((*back)[0].size(), 2u);
  EXPECT_TRUE((*back)[1].empty());
  ASSERT_EQ((*back)[2].size(), 2u);
  EXPECT_EQ((*back)[0][1].name, "n");
  EXPECT_TRUE(Same((*back)[0][0].value, groups[0][0].value));
  EXPECT_TRUE(Same((*back)[0][1].value, groups[0][1].value));
  EXPECT_TRUE((*back)[2][0].value.is_sequence());
  EXPECT_TRUE(Same((*back)[2][0].value, groups[2][0].value));
  EXPECT_TRUE((*back)[2][1].value.is_optional());
  EXPECT_FALSE((*back)[2][1].value.has_value());
}

TEST(ValueGroupsTest, EveryTruncationIsDataLossNotACrash) {
  const std::string bytes = EncodeValueGroups(SampleGroups());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto back = DecodeValueGroups(bytes.substr(0, n), "worker");
    ASSERT_FALSE(back.ok()) << n;
    EXPECT_EQ(back.status().code(), StatusCode::kDataLoss) << n;
  }
  auto longer = DecodeValueGroups(bytes + "x", "worker");
  ASSERT_FALSE(longer.ok());
  EXPECT_NE(longer.status().message().find("1 bytes left over"), std::string::npos);
}

TEST(ValueGroupsTest, AHugeCountIsRefusedBeforeAnythingIsReserved) {
  std::string bytes = EncodeValueGroups({});
  bytes.replace(4, 8, std::string(8, '\xff'));
  auto back = DecodeValueGroups(bytes, "worker");
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("worker: the worker's result is garbled"),
            std::string::npos)
      << back.status().message();
}

TEST(ValueGroupsTest, AStepsErrorComesBackWithItsCode) {
  auto ok = DecodeStepResult(EncodeStepResult(std::string("text")), "step");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, "text");
  auto error = DecodeStepResult(EncodeStepResult(InvalidArgument("m.onnx: no input 'x'")), "step");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(error.status().message(), "m.onnx: no input 'x'");
  auto garbled = DecodeStepResult("OGS1", "step");
  ASSERT_FALSE(garbled.ok());
  EXPECT_EQ(garbled.status().code(), StatusCode::kDataLoss);
}

// The code crosses the worker's pipe by name: every code, kAborted too, comes back as it went,
// and a name this side does not know is a garbled result.
TEST(ValueGroupsTest, EveryStatusCodeCrossesByName) {
  for (StatusCode code : {StatusCode::kInvalidArgument, StatusCode::kDataLoss,
                          StatusCode::kNotFound, StatusCode::kUnimplemented,
                          StatusCode::kUnavailable, StatusCode::kInternal, StatusCode::kAborted}) {
    const std::string bytes = EncodeStepResult(Status(code, "why"));
    EXPECT_NE(bytes.find(StatusCodeName(code)), std::string::npos) << StatusCodeName(code);
    auto back = DecodeStepResult(bytes, "step");
    EXPECT_EQ(back.status().code(), code) << StatusCodeName(code);
    EXPECT_EQ(back.status().message(), "why");
  }
  std::string bytes = EncodeStepResult(NotFound("why"));
  bytes.replace(bytes.find("NOT_FOUND"), 9, "NOT_FOUNX");
  auto unknown = DecodeStepResult(bytes, "step");
  EXPECT_EQ(unknown.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(unknown.status().message().find("status code 'NOT_FOUNX'"), std::string::npos)
      << unknown.status().message();
}

}  // namespace
}  // namespace onnxgate
