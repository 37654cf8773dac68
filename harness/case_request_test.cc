#include "harness/case_request.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

TEST(CaseRequestTest, RoundTrips) {
  CaseRequest request{"onnx-node", "test_relu \"quoted\"", 1, "CPUExecutionProvider"};
  auto decoded = DecodeCaseRequest(EncodeCaseRequest(request));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->suite, "onnx-node");
  EXPECT_EQ(decoded->case_name, "test_relu \"quoted\"");
  EXPECT_EQ(decoded->runtime, 1u);
  EXPECT_EQ(decoded->ep, "CPUExecutionProvider");
}

TEST(CaseRequestTest, MalformedRequestsSayWhatIsWrong) {
  const std::pair<const char*, const char*> bad[] = {
      {"not json", "not a JSON object"},
      {"[1]", "not a JSON object"},
      {R"({"case": "c", "runtime": 0, "ep": "ref"})", "no \"suite\""},
      {R"({"suite": "s", "case": 3, "runtime": 0, "ep": "ref"})", "\"case\" is not a string"},
      {R"({"suite": "s", "case": "c", "runtime": "0", "ep": "ref"})",
       "\"runtime\" is not an integer"},
      {R"({"suite": "s", "case": "c", "runtime": -1, "ep": "ref"})", "\"runtime\" is negative"},
      {R"({"suite": "s", "case": "c", "runtime": 0.5, "ep": "ref"})",
       "\"runtime\" is not an integer"},
  };
  for (const auto& [text, why] : bad) {
    auto decoded = DecodeCaseRequest(text);
    ASSERT_FALSE(decoded.ok()) << text;
    EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(decoded.status().message(), HasSubstr(why)) << text;
  }
}

}  // namespace
}  // namespace onnxgate
