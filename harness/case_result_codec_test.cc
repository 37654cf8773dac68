#include "harness/case_result_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "reports/json_writer.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// A record with every field set, lists of two, and numbers JSON cannot hold.
CaseRecord FullRecord() {
  CaseRecord r;
  r.suite = "onnx-node";
  r.name = "test_conv \"quoted\"";
  r.op_types = {"Conv", "Relu"};
  r.opset_imports = {{"", 17}, {"ai.onnx.ml", 3}};
  r.op_versions = {{"Conv", 11}, {"Relu", 14}};
  r.runtime = "onnxgate@1";
  r.ep = "dnnl";
  r.verdict = Verdict::kXfail;
  r.outcome = Verdict::kFail;
  r.expectation_reason = "known";
  r.message = "output Y differs";
  r.duration_s = 0.125;
  PlacementRecord p;
  p.node = "conv1";
  p.op_type = "Conv";
  p.ep = "dnnl";
  p.declines = {{"opencl", "no device"}, {"test", "why"}};
  p.subgraph = "conv1+relu1";
  r.placements = {p, PlacementRecord{"relu1", "Relu", "ref", {}, ""}};
  r.fallbacks = {{"relu1", "Relu", "ref", false}, {"shape0", "Shape", "ref", true}};
  OutputComparison o;
  o.output_name = "Y";
  o.set_index = 1;
  o.dtype = "float";
  o.expected_shape = {2, 3};
  o.actual_shape = {2, 3};
  o.passed = false;
  o.rtol = 1e-5;
  o.atol = 1e-7;
  o.max_abs_error = std::numeric_limits<double>::infinity();
  o.max_rel_error = std::numeric_limits<double>::quiet_NaN();
  o.mismatch_count = 2;
  o.mismatch_share = 2.0 / 6;
  o.total_elements = 6;
  o.worst_index = 4;
  o.worst_index_nd = {1, 1};
  o.worst_expected = "1.5";
  o.worst_actual = "nan";
  o.min_passing_rtol = -std::numeric_limits<double>::infinity();
  o.min_passing_atol = 0.5;
  o.error = "";
  r.outputs = {o, o};
  r.outputs[1].error = "shape mismatch";
  r.outputs[1].metrics = {{"cosine", 0.9991, 0.999, true, true, 0.0001},
                          {"max_abs", 0.5, 0.1, false, false, -0.4}};
  r.first_divergence = DivergenceRecord{"conv1", "Conv", "c1", 0, 0.25, 0.5, "conv1 differs"};
  r.reproducer = "onnxgate run --case=x";
  r.runtime_log = "W: slow path\nE: load failed\n";
  return r;
}

// The same record as the JSON report writes it (NaN compares unequal, so records are compared
// through their rendering).
std::string Rendered(const CaseRecord& record) {
  RunRecord run;
  run.cases = {record};
  return RenderRunJson(run);
}

TEST(CaseResultCodecTest, ARecordRoundTripsFieldForField) {
  const CaseRecord record = FullRecord();
  StatusOr<CaseResult> decoded = DecodeCaseResult(EncodeCaseResult({OkStatus(), record}));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_TRUE(decoded->status.ok());
  EXPECT_EQ(Rendered(decoded->record), Rendered(record));
  EXPECT_TRUE(std::isnan(decoded->record.outputs[0].max_rel_error));
  ASSERT_EQ(decoded->record.outputs[1].metrics.size(), 2u);
  EXPECT_EQ(decoded->record.outputs[1].metrics[1].metric, "max_abs");
  EXPECT_EQ(decoded->record.outputs[0].max_abs_error, std::numeric_limits<double>::infinity());
  ASSERT_TRUE(decoded->record.first_divergence.has_value());
  EXPECT_EQ(decoded->record.first_divergence->summary, "conv1 differs");
  EXPECT_EQ(decoded->record.placements[0].declines[1].reason, "why");
  EXPECT_EQ(decoded->record.runtime_log, "W: slow path\nE: load failed\n");
  ASSERT_EQ(decoded->record.fallbacks.size(), 2u);
  EXPECT_TRUE(decoded->record.fallbacks[1].shape_only);

  CaseRecord bare;  // no divergence, empty lists
  decoded = DecodeCaseResult(EncodeCaseResult({OkStatus(), bare}));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_FALSE(decoded->record.first_divergence.has_value());
  EXPECT_EQ(Rendered(decoded->record), Rendered(bare));
}

TEST(CaseResultCodecTest, ListsOfElementsAtTheirSmallestRoundTrip) {
  // Every string and list empty: each element is as short as it can be, and the counts in front
  // of them must still be accepted.
  for (int n : {1, 2, 3}) {
    CaseRecord record;
    record.op_types.resize(n);
    for (int i = 0; i < n; ++i) record.opset_imports[std::string(i, 'x')] = i;
    record.placements.resize(n);
    record.placements[0].declines.resize(n);
    record.outputs.resize(n);
    StatusOr<CaseResult> decoded = DecodeCaseResult(EncodeCaseResult({OkStatus(), record}));
    ASSERT_TRUE(decoded.ok()) << n << ": " << decoded.status().ToString();
    EXPECT_EQ(Rendered(decoded->record), Rendered(record)) << n;
  }
}

TEST(CaseResultCodecTest, AnErrorTravelsWithItsCodeByName) {
  const std::string bytes = EncodeCaseResult({Aborted("the adapter died"), CaseRecord()});
  EXPECT_NE(bytes.find("ABORTED"), std::string::npos) << "the code is written by its name";
  StatusOr<CaseResult> decoded = DecodeCaseResult(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->status.code(), StatusCode::kAborted);
  EXPECT_EQ(decoded->status.message(), "the adapter died");
}

TEST(CaseResultCodecTest, InvalidUtf8ComesOutAsTheJsonReportWritesIt) {
  CaseRecord record;
  record.name = std::string("bad\xff\xc3(name");
  record.message = std::string("trunc\xe2\x82");
  record.op_versions = {{std::string("op\xfe"), 1}};
  StatusOr<CaseResult> decoded = DecodeCaseResult(EncodeCaseResult({OkStatus(), record}));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->record.name, "bad\xef\xbf\xbd\xef\xbf\xbd(name");
  EXPECT_EQ(decoded->record.message, "trunc\xef\xbf\xbd");
  EXPECT_EQ(decoded->record.op_versions.count("op\xef\xbf\xbd"), 1u);
  EXPECT_EQ(Rendered(decoded->record), Rendered(record));
}

TEST(CaseResultCodecTest, EveryTruncationIsAnInternalErrorNamingWhere) {
  const std::string bytes = EncodeCaseResult({OkStatus(), FullRecord()});
  for (size_t size = 0; size < bytes.size(); ++size) {
    StatusOr<CaseResult> decoded = DecodeCaseResult(std::string_view(bytes.data(), size));
    ASSERT_FALSE(decoded.ok()) << "truncated to " << size << " bytes";
    EXPECT_EQ(decoded.status().code(), StatusCode::kInternal);
    EXPECT_THAT(decoded.status().message(), HasSubstr("worker result: "));
  }
  StatusOr<CaseResult> longer = DecodeCaseResult(bytes + "x");
  ASSERT_FALSE(longer.ok());
  EXPECT_THAT(longer.status().message(), HasSubstr("1 byte(s) left over"));
}

// The byte offset of the first field after the magic and the status name "OK".
constexpr size_t kRecordStart = 4 + 8 + 2;

TEST(CaseResultCodecTest, HostileFramesAreRefusedBeforeAnythingIsAllocated) {
  const std::string good = EncodeCaseResult({OkStatus(), CaseRecord()});
  auto with_u64_at = [&](size_t offset, uint64_t value) {
    std::string bytes = good;
    for (int i = 0; i < 8; ++i) bytes[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
    return bytes;
  };
  const std::pair<std::string, const char*> bad[] = {
      {"", "not a case result frame"},
      {"OGR2" + good.substr(4), "not a case result frame"},
      {with_u64_at(4, uint64_t{1} << 62), "past the end in \"status\""},
      {with_u64_at(kRecordStart, ~uint64_t{0}), "past the end in \"suite\""},
      // op_types: the third field, after two empty strings.
      {with_u64_at(kRecordStart + 16, uint64_t{1} << 60), "cannot hold in \"op_types\""},
  };
  for (const auto& [bytes, why] : bad) {
    StatusOr<CaseResult> decoded = DecodeCaseResult(bytes);
    ASSERT_FALSE(decoded.ok()) << why;
    EXPECT_EQ(decoded.status().code(), StatusCode::kInternal);
    EXPECT_THAT(decoded.status().message(), HasSubstr(why));
  }
}

TEST(CaseResultCodecTest, UnknownNamesAndBadBooleansAreRefused) {
  std::string unknown_code = EncodeCaseResult({Internal("x"), CaseRecord()});
  const size_t at = unknown_code.find("INTERNAL");
  ASSERT_NE(at, std::string::npos);
  unknown_code.replace(at, 8, "INTERNAX");
  StatusOr<CaseResult> decoded = DecodeCaseResult(unknown_code);
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.status().message(), HasSubstr("unknown status code name"));

  std::string unknown_verdict = EncodeCaseResult({OkStatus(), CaseRecord()});
  const size_t pass = unknown_verdict.find("PASS");
  ASSERT_NE(pass, std::string::npos);
  unknown_verdict.replace(pass, 4, "pass");  // only the exact spelling is a verdict here
  decoded = DecodeCaseResult(unknown_verdict);
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.status().message(), HasSubstr("unknown verdict name in \"verdict\""));

  std::string bad_bool = EncodeCaseResult({OkStatus(), CaseRecord()});
  // The divergence flag is the byte before the reproducer's and the runtime log's lengths.
  bad_bool[bad_bool.size() - 17] = '\2';
  decoded = DecodeCaseResult(bad_bool);
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.status().message(), HasSubstr("neither 0 nor 1"));
}

}  // namespace
}  // namespace onnxgate
