// Tests of the JUnit writer; the output is checked with xmllint, the way CI parsers see it.
#include "reports/junit_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "reports/report_test_util.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class JunitWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (RunCommand("command -v xmllint").exit_code != 0) GTEST_SKIP() << "xmllint not installed";
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("junit_writer_test_" + std::to_string(::getpid()));
    path_ = (dir_ / "nested" / "junit.xml").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The string value of an XPath expression over the written file.
  std::string XPath(const std::string& expression) {
    CommandResult r = RunCommand("xmllint --xpath '" + expression + "' '" + path_ + "'");
    EXPECT_EQ(r.exit_code, 0) << expression << ": " << r.output;
    // xmllint ends what it prints with one newline of its own.
    if (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
    return r.output;
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(JunitWriterTest, WritesWellFormedXmlEvenFromHostileMessages) {
  const RunRecord run = SampleRun();
  ASSERT_TRUE(WriteJunitXml(run, path_).ok());
  CommandResult lint = RunCommand("xmllint --noout '" + path_ + "'");
  EXPECT_EQ(lint.exit_code, 0) << lint.output;
  EXPECT_EQ(lint.output, "");

  StatusOr<std::string> xml = ReadFile(path_);
  ASSERT_TRUE(xml.ok());
  EXPECT_THAT(*xml, Not(HasSubstr("\x1b")));
  EXPECT_THAT(*xml, Not(HasSubstr("\x01")));
  EXPECT_THAT(*xml, Not(HasSubstr("\xff")));
  EXPECT_THAT(*xml, HasSubstr("bad \xEF\xBF\xBD\xEF\xBF\xBD utf8"));
  EXPECT_THAT(*xml, HasSubstr("caf\xC3\xA9"));
  EXPECT_THAT(*xml, HasSubstr("&lt;&amp;&quot;'&gt;"));
  // The sanitized message survives parsing.
  EXPECT_EQ(XPath("string(//testcase[@name=\"test_gather_negative[dnnl]\"]/error/@message)"),
            "CRASH: worker died: SIGSEGV [31mred[0m bad \xEF\xBF\xBD\xEF\xBF\xBD utf8 "
            "<&\"'> caf\xC3\xA9 \xEF\xBF\xBD\xEF\xBF\xBD end");
}

TEST_F(JunitWriterTest, CountsPerSuiteAndOverall) {
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_).ok());
  EXPECT_EQ(XPath("count(/testsuites/testsuite)"), "3");
  EXPECT_EQ(XPath("string(/testsuites/testsuite[1]/@name)"), "onnx-node");
  // onnx-node: 9 cases; FAIL -> failure; CRASH, TIMEOUT, UNRESOLVED, XPASS -> error;
  // UNSUPPORTED, XFAIL, SKIP -> skipped.
  const std::string node = "/testsuites/testsuite[@name=\"onnx-node\"]";
  EXPECT_EQ(XPath("string(" + node + "/@tests)"), "9");
  EXPECT_EQ(XPath("string(" + node + "/@failures)"), "1");
  EXPECT_EQ(XPath("string(" + node + "/@errors)"), "4");
  EXPECT_EQ(XPath("string(" + node + "/@skipped)"), "3");
  EXPECT_EQ(XPath("string(" + node + "/@time)"), "2.250");
  EXPECT_EQ(XPath("string(" + node + "/@timestamp)"), "2024-05-01T10:20:30");
  EXPECT_EQ(XPath("count(" + node + "/testcase/failure)"), "1");
  EXPECT_EQ(XPath("count(" + node + "/testcase/error)"), "4");
  EXPECT_EQ(XPath("count(" + node + "/testcase/skipped)"), "3");
  // Latency: one regression failure, one no-baseline skip.
  EXPECT_EQ(XPath("string(/testsuites/testsuite[@name=\"latency\"]/@tests)"), "4");
  EXPECT_EQ(XPath("string(/testsuites/testsuite[@name=\"latency\"]/@failures)"), "1");
  EXPECT_EQ(XPath("string(/testsuites/testsuite[@name=\"latency\"]/@skipped)"), "1");
  EXPECT_EQ(XPath("string(/testsuites/@tests)"), "14");
  EXPECT_EQ(XPath("string(/testsuites/@failures)"), "2");
  EXPECT_EQ(XPath("string(/testsuites/@errors)"), "4");
  EXPECT_EQ(XPath("count(/testsuites/@skipped)"), "0") << "the strict schema has none here";
  EXPECT_EQ(XPath("string(/testsuites/@time)"), "12.500");
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_, JunitSchema::kExtended).ok());
  EXPECT_EQ(XPath("string(/testsuites/@skipped)"), "4");
  EXPECT_EQ(XPath("string(/testsuites/@timestamp)"), "2024-05-01T10:20:30");
}

// An interrupted run: every suite says so, and the cases that did not run are errors of type
// NOT_RUN, so the counts fail like the run's exit code does.
TEST_F(JunitWriterTest, SideBySideRunHasASuitePerRuntime) {
  ASSERT_TRUE(WriteJunitXml(SideBySideRun(), path_).ok());
  EXPECT_EQ(XPath("count(/testsuites/testsuite)"), "5");  // 2 suites x 2 runtimes, latency
  const std::string ort = "/testsuites/testsuite[@name=\"onnx-node on onnxruntime\"]";
  EXPECT_EQ(XPath("string(" + ort + "/@tests)"), "2");
  EXPECT_EQ(XPath("string(" + ort + "/@failures)"), "0");
  EXPECT_EQ(XPath("string(" + ort + "/properties/property[@name=\"runtime\"]/@value)"),
            "onnxruntime");
  const std::string builtin = "/testsuites/testsuite[@name=\"onnx-node on onnxgate\"]";
  EXPECT_EQ(XPath("string(" + builtin + "/@failures)"), "1");
  EXPECT_EQ(XPath("string(" + builtin + "/testcase[2]/@name)"), "test_conv[onnxgate/ref]");
}

TEST_F(JunitWriterTest, InterruptedRunListsTheCasesNotRunAsErrors) {
  ASSERT_TRUE(WriteJunitXml(InterruptedRun(), path_).ok());
  CommandResult lint = RunCommand("xmllint --noout '" + path_ + "'");
  EXPECT_EQ(lint.exit_code, 0) << lint.output;
  const std::string node = "/testsuites/testsuite[@name=\"onnx-node\"]";
  EXPECT_EQ(XPath("string(" + node + "/@tests)"), "10");
  EXPECT_EQ(XPath("string(" + node + "/@errors)"), "5");
  EXPECT_EQ(XPath("string(/testsuites/@tests)"), "16");
  EXPECT_EQ(XPath("string(/testsuites/@errors)"), "6");
  EXPECT_EQ(XPath("count(//testcase/error[@type=\"NOT_RUN\"])"), "2");
  EXPECT_EQ(XPath("string(" + node + "/testcase[error/@type=\"NOT_RUN\"]/@name)"),
            "test_relu<&\"'>[ref]");
  EXPECT_EQ(XPath("string(//testcase[@name=\"mobilenet[dnnl]\"]/error/@message)"),
            "not run: the run was interrupted by SIGTERM");
  EXPECT_THAT(XPath("string(//testcase[@name=\"mobilenet[dnnl]\"]/error)"),
              HasSubstr("reproduce: onnxgate run --suite models --filter mobilenet --ep dnnl"));
  EXPECT_EQ(XPath("count(/testsuites/testsuite/properties/property[@name=\"run_status\" and "
                  "@value=\"interrupted\"])"),
            "2")
      << "each suite of cases (the latency suite comes from a bench, which has its own status)";
  EXPECT_THAT(XPath("string(" + node + "/system-err)"),
              HasSubstr("interrupted by SIGTERM: 10 of 12 selected case(s) x EP finished"));
}

TEST_F(JunitWriterTest, FailureCarriesComparisonSummaryAndReproducer) {
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_, JunitSchema::kExtended).ok());
  const std::string tc = "//testcase[@name=\"test_conv_with_strides[dnnl]\"]";
  EXPECT_EQ(XPath("string(" + tc + "/@classname)"), "onnx-node.Conv");
  EXPECT_EQ(XPath("string(" + tc + "/failure/@type)"), "FAIL");
  EXPECT_EQ(XPath("string(" + tc + "/failure/@message)"),
            "FAIL: output y differs: output \"y\" set 0 float[2,3]: max abs err 0.5, max rel err "
            "0.25, mismatches 2/6 (33.3%), worst at 4 [1,1]: expected 2, got 2.5; would pass with "
            "rtol >= 0.25 or atol >= 0.5 (used rtol 0.001, atol 1e-07)");
  const std::string body = XPath("string(" + tc + "/failure)");
  EXPECT_THAT(body, HasSubstr("max abs err 0.5, max rel err 0.25, mismatches 2/6 (33.3%)"));
  EXPECT_THAT(body, HasSubstr("worst at 4 [1,1]: expected 2, got 2.5"));
  EXPECT_THAT(body, HasSubstr("would pass with rtol >= 0.25 or atol >= 0.5"));
  EXPECT_THAT(body, HasSubstr("output \"w\""));
  EXPECT_THAT(body, HasSubstr("max abs err inf"));
  EXPECT_THAT(body, Not(HasSubstr("output \"z\"")));  // it passed
  EXPECT_THAT(body, HasSubstr("reproduce: onnxgate run --suite onnx-node --case "
                              "test_conv_with_strides --ep dnnl"));
  EXPECT_EQ(XPath("string(" + tc + "/properties/property[@name=\"op\"]/@value)"), "Conv");
  EXPECT_EQ(XPath("string(" + tc + "/properties/property[@name=\"opset\"]/@value)"), "13");
  EXPECT_EQ(XPath("string(" + tc + "/properties/property[@name=\"ep\"]/@value)"), "dnnl");
  EXPECT_EQ(XPath("string(" + tc + "/properties/property[@name=\"placement\"]/@value)"), "dnnl:1");
  EXPECT_EQ(XPath("string(" + tc + "/properties/property[@name=\"verdict\"]/@value)"), "FAIL");
  EXPECT_EQ(XPath("string(" + tc + "/properties/property[@name=\"op_versions\"]/@value)"),
            "Conv:11");
}

TEST_F(JunitWriterTest, AnUnexpectedUnsupportedIsAFailure) {
  // Without an expectation predicting it, UNSUPPORTED fails the gate, so JUnit must count it as
  // a failure: the test tab agrees with the exit code.
  RunRecord run = SampleRun();
  for (CaseRecord& c : run.cases) {
    if (c.name == "test_loop11") c.expectation_reason.clear();
  }
  ASSERT_TRUE(WriteJunitXml(run, path_).ok());
  const std::string tc = "//testcase[@name=\"test_loop11[dnnl]\"]";
  EXPECT_EQ(XPath("string(" + tc + "/failure/@type)"), "UNSUPPORTED");
  EXPECT_EQ(XPath("string(" + tc + "/failure/@message)"), "UNSUPPORTED: no kernel for Loop(11)");
  EXPECT_EQ(XPath("count(" + tc + "/skipped)"), "0");
  const std::string node = "/testsuites/testsuite[@name=\"onnx-node\"]";
  EXPECT_EQ(XPath("string(" + node + "/@failures)"), "2");
  EXPECT_EQ(XPath("string(" + node + "/@skipped)"), "2");
  EXPECT_EQ(XPath("string(/testsuites/@failures)"), "3");
}

TEST_F(JunitWriterTest, SkippedCarriesTheReasonAndModelsGetTheirOwnClass) {
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_, JunitSchema::kExtended).ok());
  EXPECT_EQ(XPath("string(//testcase[@name=\"test_loop11[dnnl]\"]/skipped/@message)"),
            "UNSUPPORTED: dnnl has no control flow");
  EXPECT_EQ(XPath("string(//testcase[@name=\"test_softmax_large[dnnl]\"]/skipped/@message)"),
            "XFAIL: known drift in exp, issue 12");
  EXPECT_EQ(XPath("string(//testcase[@name=\"test_softmax_large[dnnl]\"]/properties/"
                  "property[@name=\"outcome\"]/@value)"),
            "FAIL");
  EXPECT_EQ(XPath("string(//testcase[@name=\"test_erf[dnnl]\"]/error/@message)"),
            "XPASS: passed although expected to fail (erf approximation too coarse)");
  EXPECT_EQ(XPath("count(//testcase[@name=\"test_relu[ref]\"]/*[not(self::properties)])"), "0");

  const std::string model = "//testcase[@name=\"mlp_b8[dnnl]\"]";
  EXPECT_EQ(XPath("string(" + model + "/@classname)"), "models.mlp_b8")
      << "a model of several ops is grouped under its own name";
  EXPECT_EQ(XPath("string(" + model + "/properties/property[@name=\"placement\"]/@value)"),
            "dnnl:2,ref:1");
  EXPECT_EQ(XPath("string(" + model + "/properties/property[@name=\"opset\"]/@value)"),
            "17,com.microsoft:1");
  EXPECT_EQ(XPath("string(" + model + "/system-out)"),
            "node relu0 (Relu) ran on ref; dnnl declined: no kernel for Relu(14) with type "
            "double\n");
}

// The strict dialect must validate against the project's statement of the strict schema, and
// the schema must be a real check: the extended dialect, with its testcase properties, fails it.
class JunitStrictSchemaTest : public JunitWriterTest {
 protected:
  CommandResult Validate() {
    return RunCommand("xmllint --noout --schema '" ONNXGATE_SOURCE_DIR
                      "/reports/junit-strict.xsd' '" +
                      path_ + "' 2>&1");
  }
};

TEST_F(JunitStrictSchemaTest, EveryRunValidatesInTheStrictDialect) {
  RunRecord unsupported = SampleRun();
  for (CaseRecord& c : unsupported.cases) c.expectation_reason.clear();
  for (const RunRecord& run : {SampleRun(), InterruptedRun(), unsupported, RunRecord()}) {
    ASSERT_TRUE(WriteJunitXml(run, path_, JunitSchema::kStrict).ok());
    CommandResult r = Validate();
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("validates"));
  }
}

TEST_F(JunitStrictSchemaTest, ARuntimeLogIsTheSystemErrOfItsCase) {
  RunRecord run = SampleRun();
  run.cases[1].runtime_log = "E: <load> failed & \x01gone";
  for (JunitSchema schema : {JunitSchema::kStrict, JunitSchema::kExtended}) {
    ASSERT_TRUE(WriteJunitXml(run, path_, schema).ok());
    EXPECT_EQ(XPath("string(//testcase[@name=\"test_conv_with_strides[dnnl]\"]/system-err)"),
              "E: <load> failed & gone");
    EXPECT_EQ(XPath("count(//system-err)"), "1");
  }
  ASSERT_TRUE(WriteJunitXml(run, path_, JunitSchema::kStrict).ok());
  CommandResult r = Validate();
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_F(JunitStrictSchemaTest, TheExtendedDialectFailsTheStrictSchema) {
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_, JunitSchema::kExtended).ok());
  CommandResult r = Validate();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.output, HasSubstr("properties"));
  EXPECT_THAT(r.output, HasSubstr("fails to validate"));
}

TEST_F(JunitStrictSchemaTest, CasePropertiesLeadTheSystemOut) {
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_).ok());
  EXPECT_EQ(XPath("count(//testcase/properties)"), "0");
  const std::string model = "//testcase[@name=\"mlp_b8[dnnl]\"]";
  EXPECT_EQ(XPath("string(" + model + "/system-out)"),
            "op: MatMul,Add,Relu\nopset: 17,com.microsoft:1\nop_versions: "
            "Add:14,MatMul:13,Relu:14\nep: dnnl\n"
            "placement: dnnl:2,ref:1\nverdict: PASS\n"
            "node relu0 (Relu) ran on ref; dnnl declined: no kernel for Relu(14) with type "
            "double\n");
  EXPECT_THAT(XPath("string(//testcase[@name=\"test_conv_with_strides[dnnl]\"]/system-out)"),
              HasSubstr("op_versions: Conv:11\n"));
  EXPECT_THAT(XPath("string(//testcase[@name=\"resnet_small[dnnl,4t]\"]/system-out)"),
              HasSubstr("baseline_median_ms: 10.1\n"));
}

TEST(JunitSchemaNameTest, RoundTripsAndRefusesUnknownNames) {
  for (JunitSchema s : {JunitSchema::kStrict, JunitSchema::kExtended}) {
    StatusOr<JunitSchema> back = JunitSchemaFromName(JunitSchemaName(s));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, s);
  }
  StatusOr<JunitSchema> bad = JunitSchemaFromName("loose");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("unknown JUnit schema 'loose'"));
}

TEST_F(JunitWriterTest, LatencySuiteFailsOnRegression) {
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_).ok());
  const std::string tc = "//testsuite[@name=\"latency\"]/testcase[@name=\"resnet_small[dnnl,4t]\"]";
  EXPECT_EQ(XPath("string(" + tc + "/@classname)"), "latency.resnet_small");
  EXPECT_EQ(XPath("string(" + tc + "/failure/@type)"), "regression");
  EXPECT_THAT(XPath("string(" + tc + "/failure/@message)"),
              HasSubstr("regression: median 12.3 ms vs baseline 10.1 ms (+21.8%"));
  EXPECT_EQ(XPath("count(//testcase[@name=\"mlp[dnnl,4t]\"]/failure)"), "0");
  EXPECT_THAT(XPath("string(//testcase[@name=\"mobilenet[dnnl,4t]\"]/system-out)"),
              HasSubstr("inconclusive"));
  EXPECT_THAT(XPath("string(//testcase[@name=\"encoder[ref,1t]\"]/skipped/@message)"),
              HasSubstr("no baseline"));
}

// A configuration never measured says so where CI pages show a skipped case.
TEST_F(JunitWriterTest, ANewConfigurationSaysSoInItsSkippedMessage) {
  RunRecord run = SampleRun();
  run.latency[3].message = "new configuration: the baseline b.json has no entry for encoder";
  ASSERT_TRUE(WriteJunitXml(run, path_).ok());
  EXPECT_EQ(XPath("string(//testcase[@name=\"encoder[ref,1t]\"]/skipped/@message)"),
            "no baseline: median 5.5 ms (no baseline); new configuration: the baseline b.json has "
            "no entry for encoder");
}

TEST_F(JunitWriterTest, AnUnreliableVerdictIsAPropertyAndSaidInTheOutput) {
  RunRecord run = SampleRun();
  const std::string noise = "cv 30.0% now and 2.0% in the baseline against a threshold of 10.0%";
  run.latency[0].noise = noise;  // the regression
  run.latency[1].noise = noise;  // unchanged
  const std::string regression = "//testcase[@name=\"resnet_small[dnnl,4t]\"]";
  const std::string unchanged = "//testcase[@name=\"mlp[dnnl,4t]\"]";
  // The strict schema has no properties in a test case: they lead its output.
  ASSERT_TRUE(WriteJunitXml(run, path_).ok());
  EXPECT_EQ(RunCommand("xmllint --noout '" + path_ + "'").exit_code, 0);
  EXPECT_THAT(XPath("string(" + regression + "/failure)"), HasSubstr("unreliable: " + noise));
  EXPECT_THAT(XPath("string(" + unchanged + "/system-out)"), HasSubstr("unreliable: " + noise));
  EXPECT_THAT(XPath("string(//testcase[@name=\"mobilenet[dnnl,4t]\"]/system-out)"),
              Not(HasSubstr("unreliable")));

  ASSERT_TRUE(WriteJunitXml(run, path_, JunitSchema::kExtended).ok());
  for (const std::string& tc : {regression, unchanged}) {
    EXPECT_EQ(XPath("string(" + tc + "//property[@name=\"unreliable\"]/@value)"), noise) << tc;
  }
  EXPECT_EQ(
      XPath("count(//testcase[@name=\"mobilenet[dnnl,4t]\"]//property[@name=\"unreliable\"])"),
      "0");
}

TEST_F(JunitWriterTest, LatencyShapesNameTheCaseAndAnUnmeasuredModelIsAnError) {
  RunRecord run = SampleRun();
  run.latency[0].shapes = "batch=4";
  run.latency[1].verdict = LatencyVerdict::kError;
  run.latency[1].message = "m.onnx: not a valid ONNX model";
  ASSERT_TRUE(WriteJunitXml(run, path_).ok());
  const std::string tc =
      "//testsuite[@name=\"latency\"]/testcase[@name=\"resnet_small[dnnl,4t,batch=4]\"]";
  EXPECT_EQ(XPath("string(" + tc + "/@classname)"), "latency.resnet_small[batch=4]");
  EXPECT_EQ(XPath("string(//testcase[@name=\"mlp[dnnl,4t]\"]/error/@message)"),
            "not measured: m.onnx: not a valid ONNX model");
  EXPECT_EQ(XPath("string(/testsuites/testsuite[@name=\"latency\"]/@errors)"), "1");
}

TEST_F(JunitWriterTest, EmptyRunIsStillValid) {
  RunRecord run;
  ASSERT_TRUE(WriteJunitXml(run, path_).ok());
  EXPECT_EQ(RunCommand("xmllint --noout '" + path_ + "'").exit_code, 0);
  EXPECT_EQ(XPath("string(/testsuites/@tests)"), "0");
  EXPECT_EQ(XPath("count(/testsuites/testsuite)"), "0");
}

TEST(JunitWriterErrorTest, UnwritablePathIsAnError) {
  Status st = WriteJunitXml(SampleRun(), "/proc/onnxgate-no-such-dir/junit.xml");
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("writing JUnit report /proc/onnxgate-no-such-dir/junit.xml"));
}

TEST_F(JunitStrictSchemaTest, GateOutcomeAndExpectationsAreSuiteProperties) {
  for (JunitSchema schema : {JunitSchema::kStrict, JunitSchema::kExtended}) {
    ASSERT_TRUE(WriteJunitXml(FailedGateRun(), path_, schema).ok());
    if (schema == JunitSchema::kStrict) {
      CommandResult r = Validate();
      EXPECT_EQ(r.exit_code, 0) << r.output;
    }
    const std::string suite = "/testsuites/testsuite[@name=\"onnx-node\"]/properties/";
    EXPECT_EQ(XPath("string(" + suite + "property[@name=\"gate_passed\"]/@value)"), "false");
    EXPECT_EQ(XPath("string(" + suite + "property[@name=\"expectations:ref\"]/@value)"),
              "conformance/expectations/ref.json");
    EXPECT_EQ(XPath("string(" + suite + "property[@name=\"expectations:dnnl\"]/@value)"),
              "none found: conformance/expectations/dnnl.json");
  }
  ASSERT_TRUE(WriteJunitXml(PassedGateRun(), path_).ok());
  EXPECT_EQ(XPath("string(//property[@name=\"gate_passed\"][1]/@value)"), "true");
  ASSERT_TRUE(WriteJunitXml(SampleRun(), path_).ok());
  EXPECT_EQ(XPath("count(//property[@name=\"gate_passed\"])"), "0");
}

}  // namespace
}  // namespace onnxgate
