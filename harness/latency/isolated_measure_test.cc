// The bench worker's result codec: measurements round-trip, every status code crosses by name
// (kAborted stays kAborted), and a malformed result is an error naming the field, never a throw.
#include "harness/latency/isolated_measure.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

BenchMeasurement Sample() {
  BenchMeasurement m;
  m.model = "mlp";
  m.model_path = "/m/mlp.onnx";
  m.model_sha256 = "ab";
  m.ep = "ref";
  m.threads = 2;
  m.load_ms = 1.5;
  m.first_run_ms = 0.5;
  m.iterations_per_repetition = 10;
  m.samples_ms = {1, 2, 3};
  m.real_ms = {1, 2, 3};
  m.cpu_ms = {1, 2, 3};
  m.iterations = {10, 10, 10};
  return m;
}

TEST(IsolatedMeasureCodecTest, MeasurementRoundTrips) {
  auto back = DecodeMeasurementResult(EncodeMeasurementResult(Sample()), "bench");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->model, "mlp");
  EXPECT_EQ(back->threads, 2);
  EXPECT_EQ(back->samples_ms, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(back->iterations, (std::vector<int64_t>{10, 10, 10}));
}

TEST(IsolatedMeasureCodecTest, EveryStatusCodeCrossesByName) {
  for (StatusCode code : {StatusCode::kInvalidArgument, StatusCode::kDataLoss,
                          StatusCode::kNotFound, StatusCode::kUnimplemented,
                          StatusCode::kUnavailable, StatusCode::kInternal, StatusCode::kAborted}) {
    const std::string payload = EncodeMeasurementResult(Status(code, "why"));
    EXPECT_THAT(payload, HasSubstr(StatusCodeName(code)));
    auto back = DecodeMeasurementResult(payload, "bench");
    EXPECT_EQ(back.status().code(), code) << StatusCodeName(code);
    EXPECT_EQ(back.status().message(), "why");
  }
}

TEST(IsolatedMeasureCodecTest, MalformedResultsAreInternalNamingTheField) {
  auto number_code = DecodeMeasurementResult(R"({"error": {"code": 5, "message": "m"}})", "bench");
  EXPECT_EQ(number_code.status().code(), StatusCode::kInternal);
  EXPECT_THAT(number_code.status().message(),
              HasSubstr("bench: the worker's result is unreadable: the worker's result: "
                        "error.code: expected a string, got 5"));
  auto unknown = DecodeMeasurementResult(R"({"error": {"code": "NEW", "message": "m"}})", "b");
  EXPECT_EQ(unknown.status().code(), StatusCode::kInternal);
  auto missing = DecodeMeasurementResult(R"({"model": "x"})", "bench");
  EXPECT_EQ(missing.status().code(), StatusCode::kInternal);
  EXPECT_THAT(missing.status().message(), HasSubstr("model_path: required field is missing"));
  auto deep = DecodeMeasurementResult(std::string(1000, '[') + std::string(1000, ']'), "bench");
  EXPECT_EQ(deep.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace onnxgate
