// Tests of the JSON report: round trip through the reader and the reader's errors.
#include "reports/json_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "reports/report_test_util.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

class JsonWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("json_writer_test_" + std::to_string(::getpid()));
    path_ = (dir_ / "run.json").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(JsonWriterTest, RoundTripKeepsEveryField) {
  RunRecord run = SampleRun();
  run.cases[9].fallbacks = {{"relu0", "Relu", "ref", false}, {"shape0", "Shape", "ref", true}};
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  // Rendering what was read gives the same document, so no field is lost on the way.
  EXPECT_EQ(RenderRunJson(*read), RenderRunJson(run));

  EXPECT_EQ(read->schema_version, 1);
  EXPECT_EQ(read->start_time, run.start_time);
  EXPECT_EQ(read->end_time, run.end_time);
  EXPECT_EQ(read->command_line, run.command_line);
  EXPECT_EQ(read->selection.shard_count, 4);
  EXPECT_EQ(read->totals, CountVerdicts(run.cases));
  ASSERT_EQ(read->cases.size(), run.cases.size());
  const CaseRecord& fail = read->cases[1];
  EXPECT_EQ(fail.name, "test_conv_with_strides");
  EXPECT_EQ(fail.verdict, Verdict::kFail);
  EXPECT_EQ(fail.op_versions.at("Conv"), 11);
  ASSERT_EQ(fail.outputs.size(), 3u);
  EXPECT_EQ(fail.outputs[0].worst_index_nd, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(fail.outputs[0].worst_actual, "2.5");
  EXPECT_DOUBLE_EQ(fail.outputs[0].mismatch_share, 2.0 / 6.0);
  EXPECT_TRUE(std::isinf(fail.outputs[2].max_abs_error));
  EXPECT_TRUE(std::isinf(fail.outputs[2].min_passing_rtol));
  EXPECT_EQ(read->cases[4].outcome, Verdict::kFail);  // the XFAIL's raw outcome
  EXPECT_EQ(read->cases[9].opset_imports.at("com.microsoft"), 1);
  ASSERT_EQ(read->cases[9].placements.size(), 3u);
  ASSERT_EQ(read->cases[9].placements[2].declines.size(), 1u);
  EXPECT_EQ(read->cases[9].placements[2].declines[0].ep, "dnnl");
  ASSERT_EQ(read->cases[9].fallbacks.size(), 2u);
  EXPECT_TRUE(read->cases[9].fallbacks[1].shape_only);
  EXPECT_EQ(read->cases[9].fallbacks[0].op_type, "Relu");
  ASSERT_EQ(read->latency.size(), 4u);
  EXPECT_EQ(read->latency[0].verdict, LatencyVerdict::kRegression);
  ASSERT_TRUE(read->latency[0].p_value.has_value());
  EXPECT_DOUBLE_EQ(*read->latency[0].p_value, 0.0001);
  EXPECT_FALSE(read->latency[3].baseline_median_ms.has_value());

  ASSERT_EQ(read->matrix.size(), run.matrix.size());
  const MatrixCell& conv = read->matrix[2];
  EXPECT_EQ(conv.op, "Conv");
  EXPECT_EQ(conv.since_version, 11);
  EXPECT_EQ(conv.ep, "dnnl");
  EXPECT_EQ(conv.counts[Verdict::kFail], 1);
  EXPECT_EQ(conv.counts.total(), 1);
  EXPECT_EQ(conv.failing_cases, (std::vector<std::string>{"test_conv_with_strides"}));
  for (size_t i = 0; i < run.matrix.size(); ++i) {
    EXPECT_EQ(read->matrix[i].counts, run.matrix[i].counts) << i;
  }
  ASSERT_EQ(read->coverage.size(), 7u);
  EXPECT_EQ(read->coverage[1].op, "Add");
  EXPECT_EQ(read->coverage[1].covered_versions, (std::vector<int64_t>{13, 14}));
  EXPECT_EQ(read->coverage[1].uncovered_versions, (std::vector<int64_t>{1, 6, 7}));
  EXPECT_TRUE(read->coverage[0].covered_versions.empty());
}

TEST_F(JsonWriterTest, ARuntimeLogIsWrittenOnlyWhenThereIsOne) {
  RunRecord run = SampleRun();
  run.cases[1].runtime_log = "E: onnxruntime: load failed\n";
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->cases[1].runtime_log, "E: onnxruntime: load failed\n");
  EXPECT_EQ(read->cases[0].runtime_log, "");
  const nlohmann::json doc = nlohmann::json::parse(RenderRunJson(run));
  EXPECT_EQ(doc["cases"][1]["runtime_log"], "E: onnxruntime: load failed\n");
  EXPECT_FALSE(doc["cases"][0].contains("runtime_log"));
}

TEST_F(JsonWriterTest, RoundTripKeepsAFirstDivergence) {
  RunRecord run = SampleRun();
  run.cases[1].first_divergence =
      DivergenceRecord{"conv_1", "Conv", "c1", 2, 0.25, 0.5, "max abs 0.25, max rel 0.5"};
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(RenderRunJson(*read), RenderRunJson(run));
  ASSERT_TRUE(read->cases[1].first_divergence.has_value());
  EXPECT_EQ(read->cases[1].first_divergence->node, "conv_1");
  EXPECT_EQ(read->cases[1].first_divergence->set_index, 2);
  EXPECT_DOUBLE_EQ(read->cases[1].first_divergence->max_rel_error, 0.5);
  EXPECT_FALSE(read->cases[0].first_divergence.has_value());
}

TEST_F(JsonWriterTest, RoundTripKeepsTheRuntimesOfASideBySideRun) {
  const RunRecord run = SideBySideRun();
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(RenderRunJson(*read), RenderRunJson(run));
  ASSERT_EQ(read->runtimes.size(), 2u);
  EXPECT_EQ(read->runtimes[1].label, "onnxruntime");
  EXPECT_EQ(read->runtimes[1].version, "1.31.1");
  EXPECT_EQ(read->runtimes[1].spec, "ort");
  EXPECT_EQ(read->cases[3].runtime, "onnxruntime");
  EXPECT_EQ(TargetName(read->cases[3]), "onnxruntime/CPUExecutionProvider");
  EXPECT_EQ(TargetName(read->matrix[0]), "onnxgate/ref");
  // A run of one runtime writes no per-record runtime.
  EXPECT_THAT(RenderRunJson(SampleRun()), Not(HasSubstr("\"runtimes\"")));
}

TEST_F(JsonWriterTest, RoundTripKeepsWhatABenchAgainstMeasuredBeside) {
  RunRecord run = SampleRun();
  run.latency[0].runtime = "onnxgate";
  run.latency[0].against = "onnxruntime/CPUExecutionProvider";
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->latency[0].against, "onnxruntime/CPUExecutionProvider");
  EXPECT_EQ(read->latency[1].against, "");
  EXPECT_THAT(RenderRunJson(SampleRun()), Not(HasSubstr("\"against\"")));
}

TEST_F(JsonWriterTest, AnUnreliableVerdictIsFlaggedWithItsReason) {
  RunRecord run = SampleRun();
  run.latency[1].noise = "cv 30.0% now and 2.0% in the baseline against a threshold of 10.0%";
  const nlohmann::json j = nlohmann::json::parse(RenderRunJson(run));
  EXPECT_EQ(j["latency"][1]["unreliable"], true);
  EXPECT_EQ(j["latency"][1]["noise"], run.latency[1].noise);
  EXPECT_FALSE(j["latency"][0].contains("unreliable"));
  EXPECT_FALSE(j["latency"][0].contains("noise"));
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->latency[1].noise, run.latency[1].noise);
  EXPECT_EQ(read->latency[0].noise, "");
}

TEST_F(JsonWriterTest, RoundTripKeepsShapesFallbackAndErrors) {
  RunRecord run = SampleRun();
  run.latency[0].shapes = "batch=4,seq=128";
  run.latency[0].fallback = "3 of 41 nodes on ref (Gather x2, Shape x1; 3 shape-only)";
  run.latency[1].verdict = LatencyVerdict::kError;
  run.latency[1].message = "m.onnx: not a valid ONNX model";
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->latency[0].shapes, "batch=4,seq=128");
  EXPECT_EQ(read->latency[0].fallback, run.latency[0].fallback);
  EXPECT_EQ(read->latency[1].verdict, LatencyVerdict::kError);
  EXPECT_EQ(read->latency[1].shapes, "");
  EXPECT_THAT(RenderRunJson(SampleRun()), Not(HasSubstr("\"shapes\"")));
}

TEST_F(JsonWriterTest, RoundTripKeepsTheRunStatusAndTheCasesNotRun) {
  const RunRecord run = InterruptedRun();
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(RenderRunJson(*read), RenderRunJson(run));
  EXPECT_EQ(read->status, RunStatus::kInterrupted);
  EXPECT_EQ(read->status_message, run.status_message);
  ASSERT_EQ(read->not_run.size(), 2u);
  EXPECT_EQ(read->not_run[0].name, "test_relu<&\"'>");
  EXPECT_EQ(read->not_run[1].op_types, (std::vector<std::string>{"Conv", "Relu"}));
  EXPECT_EQ(read->not_run[1].ep, "dnnl");
  EXPECT_EQ(read->not_run[1].reason, "not run: the run was interrupted by SIGTERM");
  EXPECT_EQ(read->not_run[1].reproducer, run.not_run[1].reproducer);
  EXPECT_EQ(read->cases.size(), run.cases.size()) << "not-run cases are not judged cases";

  nlohmann::json j = nlohmann::json::parse(RenderRunJson(run));
  EXPECT_EQ(j["status"], "interrupted");
  EXPECT_EQ(j["not_run"][1], nlohmann::json::parse(R"({"suite": "models", "case": "mobilenet",
      "op_types": ["Conv", "Relu"], "ep": "dnnl",
      "reason": "not run: the run was interrupted by SIGTERM",
      "reproducer": "onnxgate run --suite models --filter mobilenet --ep dnnl"})"));
  nlohmann::json complete = nlohmann::json::parse(RenderRunJson(SampleRun()));
  EXPECT_EQ(complete["status"], "completed");
  EXPECT_EQ(complete["status_message"], "");
  EXPECT_EQ(complete["not_run"], nlohmann::json::array());
}

TEST_F(JsonWriterTest, DocumentHasTheSchemaHeaderAndNoInvalidUtf8) {
  const std::string text = RenderRunJson(SampleRun());
  nlohmann::json j = nlohmann::json::parse(text);  // throws (fails the test) if not JSON
  EXPECT_EQ(j["schema"], "onnxgate-run");
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["start_time"], "2024-05-01T10:20:30.123Z");
  EXPECT_EQ(j["totals"]["FAIL"], 1);
  EXPECT_EQ(j["totals"]["PASS"], 2);
  EXPECT_EQ(j["cases"][1]["outputs"][2]["max_abs_error"], "inf");
  EXPECT_FALSE(j["cases"][0]["outputs"].is_null());
  // Matrix cells hold only the verdicts that occur.
  EXPECT_EQ(j["matrix"][2], nlohmann::json::parse(R"({"op": "Conv", "since_version": 11,
      "ep": "dnnl", "counts": {"FAIL": 1}, "failing_cases": ["test_conv_with_strides"]})"));
  EXPECT_EQ(j["coverage"][6], nlohmann::json::parse(R"({"op": "ai.onnx.ml.LabelEncoder",
      "covered_versions": [], "uncovered_versions": [1, 2]})"));
  // The crash message's bytes \xff\xfe became U+FFFD; its control characters are escaped.
  const std::string message = j["cases"][2]["message"];
  EXPECT_THAT(message, HasSubstr("bad \xEF\xBF\xBD\xEF\xBF\xBD utf8"));
  EXPECT_THAT(message, HasSubstr("\x1b[31m"));
  EXPECT_THAT(text, HasSubstr("\\u001b[31m"));
}

TEST_F(JsonWriterTest, MinimalDocumentReadsWithDefaults) {
  StatusOr<RunRecord> run = ParseRunJson(R"({
    "schema": "onnxgate-run", "schema_version": 1, "future_field": {"x": 1},
    "cases": [{"suite": "s", "case": "c", "ep": "ref", "verdict": "XFAIL", "new_key": true}]
  })",
                                         "minimal.json");
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->cases.size(), 1u);
  EXPECT_EQ(run->cases[0].verdict, Verdict::kXfail);
  EXPECT_EQ(run->cases[0].outcome, Verdict::kXfail);
  EXPECT_EQ(run->totals[Verdict::kXfail], 1);
  EXPECT_EQ(run->selection.shard_count, 1);
  EXPECT_TRUE(run->matrix.empty());  // reports from before the matrix still read
  EXPECT_TRUE(run->coverage.empty());
  // Reports from before the run status were written by runs that completed.
  EXPECT_EQ(run->status, RunStatus::kCompleted);
  EXPECT_TRUE(run->not_run.empty());
}

struct BadCase {
  StatusCode code;
  const char* needle;
};

TEST_F(JsonWriterTest, ErrorsNameTheSourceAndTheField) {
  const std::string head = R"("schema": "onnxgate-run", "schema_version": 1)";
  const std::string good_case = R"({"suite": "s", "case": "c", "ep": "ref", "verdict": "PASS"})";
  const std::vector<std::pair<std::string, BadCase>> cases = {
      {"{\"schema\": ", {StatusCode::kDataLoss, "not valid JSON"}},
      {"[1, 2]", {StatusCode::kInvalidArgument, "shard3.json: expected an object, got an array"}},
      {R"({"schema": "other", "schema_version": 1, "cases": []})",
       {StatusCode::kInvalidArgument, "schema: expected \"onnxgate-run\", got \"other\""}},
      {R"({"schema": "onnxgate-run", "schema_version": 2, "cases": []})",
       {StatusCode::kUnimplemented, "schema_version: this reader knows versions 1..1, got 2"}},
      {R"({"schema": "onnxgate-run", "schema_version": "1", "cases": []})",
       {StatusCode::kInvalidArgument, "schema_version: expected an integer, got \"1\""}},
      {"{" + head + "}", {StatusCode::kInvalidArgument, "cases: required field is missing"}},
      {"{" + head + R"(, "cases": [)" + good_case +
           R"(, {"suite": "s", "case": "c", "ep": "ref"}]})",
       {StatusCode::kInvalidArgument, "cases[1].verdict: required field is missing"}},
      {"{" + head + R"(, "cases": [{"suite": "s", "case": "c", "ep": "ref", "verdict": "GOOD"}]})",
       {StatusCode::kInvalidArgument, "cases[0].verdict: unknown verdict \"GOOD\""}},
      {"{" + head + R"(, "cases": [{"suite": "s", "case": "c", "ep": "ref", "verdict": "FAIL",
         "outputs": [{"name": "y", "passed": false, "max_abs_error": "big"}]}]})",
       {StatusCode::kInvalidArgument,
        "cases[0].outputs[0].max_abs_error: expected a number, \"inf\", \"-inf\" or \"nan\", "
        "got \"big\""}},
      {"{" + head + R"(, "cases": [{"suite": "s", "case": "c", "ep": "ref", "verdict": "FAIL",
         "opset_imports": {"": 13.5}}]})",
       {StatusCode::kInvalidArgument,
        "cases[0].opset_imports[\"\"]: expected an integer, got 13.5"}},
      {"{" + head + R"(, "cases": [{"suite": "s", "case": "c", "ep": "ref", "verdict": "PASS",
         "placements": [{"node": "n", "ep": "ref", "declines": [{"reason": "x"}]}]}]})",
       {StatusCode::kInvalidArgument,
        "cases[0].placements[0].declines[0].ep: required field is missing"}},
      {"{" + head + R"(, "cases": [], "latency": [{"model": "m", "ep": "ref", "median_ms": 1,
         "verdict": "worse"}]})",
       {StatusCode::kInvalidArgument, "latency[0].verdict: unknown latency verdict \"worse\""}},
      {"{" + head + R"(, "start_time": "yesterday", "cases": []})",
       {StatusCode::kInvalidArgument, "start_time: bad UTC time \"yesterday\""}},
      {"{" + head + R"(, "host": {"logical_cores": 99999999999999999999}, "cases": []})",
       {StatusCode::kInvalidArgument, "host.logical_cores: expected an integer, got 1e+20"}},
      {"{" + head + R"(, "cases": [], "matrix": [{"op": "Conv", "ep": "ref"}]})",
       {StatusCode::kInvalidArgument, "matrix[0].since_version: required field is missing"}},
      {"{" + head + R"(, "cases": [], "matrix": [{"op": "Conv", "since_version": 1,
         "ep": "ref", "counts": {"FAIL": -1}}]})",
       {StatusCode::kInvalidArgument, "matrix[0].counts.FAIL: expected a count >= 0, got -1"}},
      {"{" + head + R"(, "cases": [], "matrix": [{"op": "Conv", "since_version": 1,
         "ep": "ref", "failing_cases": [3]}]})",
       {StatusCode::kInvalidArgument, "matrix[0].failing_cases[0]: expected a string, got 3"}},
      {"{" + head + R"(, "cases": [], "coverage": [{"op": "Abs", "covered_versions": [1, "6"]}]})",
       {StatusCode::kInvalidArgument,
        "coverage[0].covered_versions[1]: expected an integer, got \"6\""}},
      {"{" + head + R"(, "cases": [], "coverage": {"op": "Abs"}})",
       {StatusCode::kInvalidArgument, "coverage: expected an array, got an object"}},
      {"{" + head + R"(, "cases": [], "status": "stopped"})",
       {StatusCode::kInvalidArgument,
        "status: unknown run status \"stopped\", expected one of completed, interrupted"}},
      {"{" + head + R"(, "cases": [], "status": "interrupted", "not_run": [{"suite": "s",
         "ep": "ref"}]})",
       {StatusCode::kInvalidArgument, "not_run[0].case: required field is missing"}},
      {"{" + head + R"(, "cases": [], "not_run": [{"suite": "s", "case": "c", "ep": "ref"}]})",
       {StatusCode::kInvalidArgument, "not_run: a completed run lists 1 case(s) that did not run"}},
      {"{" + head + R"(, "cases": [)" + good_case + R"(], "totals": {"PASS": 2}})",
       {StatusCode::kDataLoss, "totals.PASS is 2 but the cases hold 1 with that verdict"}},
  };
  for (const auto& [text, expected] : cases) {
    StatusOr<RunRecord> run = ParseRunJson(text, "shard3.json");
    ASSERT_FALSE(run.ok()) << text;
    EXPECT_EQ(run.status().code(), expected.code) << run.status().ToString();
    EXPECT_THAT(run.status().message(), HasSubstr("reading run report shard3.json: "));
    EXPECT_THAT(run.status().message(), HasSubstr(expected.needle)) << text;
  }
}

TEST_F(JsonWriterTest, MissingFileNamesThePath) {
  StatusOr<RunRecord> run = ReadRunJson((dir_ / "absent.json").string());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(run.status().message(), HasSubstr("absent.json"));
}

TEST_F(JsonWriterTest, RoundTripKeepsTheGate) {
  const RunRecord run = FailedGateRun();
  ASSERT_TRUE(WriteRunJson(run, path_).ok());
  StatusOr<RunRecord> read = ReadRunJson(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(RenderRunJson(*read), RenderRunJson(run));
  ASSERT_TRUE(read->gate.has_value());
  EXPECT_FALSE(read->gate->passed);
  EXPECT_TRUE(read->gate->strict);
  EXPECT_EQ(read->gate->unexpected, run.gate->unexpected);
  EXPECT_GT(read->gate->unexpected.total(), 0);
  ASSERT_EQ(read->gate->expectations.size(), 2u);
  EXPECT_EQ(read->gate->expectations[0].file, "conformance/expectations/ref.json");
  EXPECT_TRUE(read->gate->expectations[0].found);
  EXPECT_EQ(read->gate->expectations[0].entries, 3);
  EXPECT_FALSE(read->gate->expectations[1].found);
  EXPECT_EQ(read->gate->expectations[1].file, "conformance/expectations/dnnl.json");

  // A missing file is written as "file": null with the path looked for beside it.
  const auto j = nlohmann::json::parse(RenderRunJson(run));
  EXPECT_TRUE(j["gate"]["expectations"][1]["file"].is_null());
  EXPECT_EQ(j["gate"]["expectations"][1]["found"], false);
  EXPECT_EQ(j["gate"]["expectations"][1]["looked_for"], "conformance/expectations/dnnl.json");
  EXPECT_EQ(j["gate"]["unexpected"]["total"], run.gate->unexpected.total());
  // A plain run has no gate object.
  EXPECT_FALSE(nlohmann::json::parse(RenderRunJson(SampleRun())).contains("gate"));
}

TEST_F(JsonWriterTest, RoundTripKeepsTheGateAgainstARelease) {
  RunRecord run = FailedGateRun();
  run.gate->against_report = "release.json";
  run.gate->worse_than_release = 2;
  run.gate->better_than_release = 1;
  run.gate->margin_grew_since_release = 3;
  const auto j = nlohmann::json::parse(RenderRunJson(run));
  EXPECT_EQ(
      j["gate"]["against_report"],
      nlohmann::json({{"file", "release.json"}, {"worse", 2}, {"better", 1}, {"margin_grew", 3}}));
  StatusOr<RunRecord> read = ParseRunJson(j.dump(), "r.json");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->gate->margin_grew_since_release, 3);
  EXPECT_EQ(RenderRunJson(*read), RenderRunJson(run));
}

TEST_F(JsonWriterTest, BadGateObjectsNameTheField) {
  auto j = nlohmann::json::parse(RenderRunJson(FailedGateRun()));
  j["gate"]["passed"] = "yes";
  auto read = ParseRunJson(j.dump(), "r.json");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.status().message(), HasSubstr("gate.passed"));
  j = nlohmann::json::parse(RenderRunJson(FailedGateRun()));
  j["gate"]["unexpected"]["failures"] = -1;
  read = ParseRunJson(j.dump(), "r.json");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.status().message(), HasSubstr("gate.unexpected.failures"));
  j = nlohmann::json::parse(RenderRunJson(FailedGateRun()));
  j["gate"]["expectations"][0]["file"] = nullptr;
  j["gate"]["expectations"][0]["found"] = true;
  read = ParseRunJson(j.dump(), "r.json");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.status().message(), HasSubstr("file"));
}

}  // namespace
}  // namespace onnxgate
