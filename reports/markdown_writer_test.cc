// Tests of the Markdown summary: totals, the table of non-passing cases, reproducers, latency
// alerts, escaping and the size bound.
#include "reports/markdown_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reports/model_summary.h"
#include "reports/report_test_util.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t CountOf(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++count;
  }
  return count;
}

TEST(MarkdownWriterTest, HeaderAndTotals) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_EQ(md.rfind("## onnxgate run\n\n", 0), 0u) << md;
  EXPECT_THAT(md, HasSubstr("runtime `onnxgate-builtin` 0.1.0 · suites `onnx-node`, "
                            "`models` · EPs ref, dnnl · filter `test_*` · shard 2/4 · started "
                            "2024-05-01T10:20:30.123Z · 12.5 s"));
  // Two EPs: a row of counts per EP.
  EXPECT_THAT(md, HasSubstr("| Runs on | Total | PASS | FAIL | UNSUPPORTED | UNRESOLVED | CRASH "
                            "| TIMEOUT | SKIP | XFAIL | XPASS |\n"
                            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                            "| `ref` | 4 | 1 | 0 | 0 | 1 | 0 | 1 | 1 | 0 | 0 |\n"
                            "| `dnnl` | 6 | 1 | 1 | 1 | 0 | 1 | 0 | 0 | 1 | 1 |\n"));
}

TEST(MarkdownWriterTest, OneTargetHasOneRowOfTotals) {
  RunRecord run = SampleRun();
  for (CaseRecord& c : run.cases) c.ep = "ref";
  for (MatrixCell& cell : run.matrix) cell.ep = "ref";
  const std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr("| Total | PASS | FAIL | UNSUPPORTED | UNRESOLVED | CRASH | TIMEOUT "
                            "| SKIP | XFAIL | XPASS |\n"
                            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                            "| 10 | 2 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |\n"));
  EXPECT_THAT(md, Not(HasSubstr("results differ")));
}

TEST(MarkdownWriterTest, SideBySideRunsShowWhereTheTargetsDiffer) {
  const RunRecord run = SideBySideRun();
  const std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr("runtimes side by side `onnxgate` 0.1.0, `onnxruntime` 1.31.1"));
  EXPECT_THAT(md, HasSubstr("| `onnxgate/ref` | 2 | 1 | 1 |\n"
                            "| `onnxruntime/CPUExecutionProvider` | 2 | 2 | 0 |\n"));
  EXPECT_THAT(md, HasSubstr("### Op versions where the results differ (1)\n\n"
                            "| Op version | `onnxgate/ref` | `onnxruntime/CPUExecutionProvider` |\n"
                            "|---|---|---|\n| `Conv v11` | 1 fail | 1 pass |\n"));
  EXPECT_THAT(md, HasSubstr("| `test_conv` | `onnxgate/ref` | **FAIL** |"));
}

TEST(MarkdownWriterTest, InterruptedRunSaysSoAndListsTheCasesNotRun) {
  const std::string md = RenderMarkdown(InterruptedRun());
  EXPECT_THAT(md, HasSubstr("> **Run interrupted:** interrupted by SIGTERM: 10 of 12 selected "
                            "case(s) x EP finished, 2 not run\n\nNot run (2):\n\n"));
  EXPECT_THAT(md, HasSubstr("- `models/mobilenet` `dnnl`: not run: the run was interrupted by "
                            "SIGTERM\n"));
  EXPECT_LT(md.find("Run interrupted"), md.find("| Total |")) << "before the numbers";
  EXPECT_THAT(RenderMarkdown(SampleRun()), Not(HasSubstr("interrupted")));
}

TEST(MarkdownWriterTest, MatrixListsOpsWithFailuresFirstAndCountsThePassingOnes) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_THAT(md, HasSubstr("### Conformance matrix (10 ops)\n\n"
                            "| Op | Op version, EP: cases by verdict |\n|---|---|\n"
                            "| `Add` | v13 ref: 1 unresolved · v14 dnnl: 1 pass |\n"
                            "| `Conv` | v11 dnnl: 1 fail |\n"
                            "| `Erf` | v13 dnnl: 1 xpass |\n"
                            "| `Gather` | v13 dnnl: 1 crash |\n"
                            "| `NonMaxSuppression` | v13 ref: 1 timeout |\n"
                            "| `Identity` | v13 ref: 1 skip |\n"
                            "| `Loop` | v13 dnnl: 1 unsupported |\n"
                            "| `Softmax` | v13 dnnl: 1 xfail |\n\n"
                            "2 ops all passing\n\n"
                            "**Coverage:** ONNX operators with at least one case: 5 of 7; op "
                            "versions covered: 7 of 22\n\n"
                            "Operators with no case (2): `Abs`, `ai.onnx.ml.LabelEncoder`\n\n"
                            "### Not passing (8)"));
  EXPECT_THAT(md, Not(HasSubstr("`Relu` |")));  // all passing: only counted
}

TEST(MarkdownWriterTest, MatrixAndCoverageAreBounded) {
  RunRecord run = SampleRun();
  MarkdownOptions options;
  options.max_matrix_ops = 3;
  options.max_uncovered_ops = 1;
  const std::string md = RenderMarkdown(run, options);
  EXPECT_THAT(md, HasSubstr("| `Erf` | v13 dnnl: 1 xpass |\n\n"
                            "... and 5 more ops not all passing\n\n2 ops all passing\n"));
  EXPECT_THAT(md, Not(HasSubstr("`Gather`")));
  EXPECT_THAT(md, HasSubstr("Operators with no case (2): `Abs` ... and 1 more\n"));

  // Without a matrix or coverage (a report from before they existed) both sections are absent.
  run.matrix.clear();
  run.coverage.clear();
  const std::string plain = RenderMarkdown(run);
  EXPECT_THAT(plain, Not(HasSubstr("Conformance matrix")));
  EXPECT_THAT(plain, Not(HasSubstr("Coverage")));
}

TEST(MarkdownWriterTest, NonPassingCasesBySeverityWithReproducers) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_THAT(md, HasSubstr("### Not passing (8)\n\n| Case | EP | Verdict | Message |\n"
                            "|---|---|---|---|\n"
                            "| `test_conv_with_strides` | `dnnl` | **FAIL** | output y differs |\n"
                            "| `test_gather_negative` | `dnnl` | **CRASH** |"));
  // Order: FAIL, CRASH, TIMEOUT, UNRESOLVED, XPASS, UNSUPPORTED, XFAIL, SKIP.
  const size_t timeout = md.find("**TIMEOUT**"), xpass = md.find("**XPASS**"),
               unsupported = md.find("**UNSUPPORTED**"), skip = md.find("**SKIP**");
  EXPECT_LT(timeout, xpass);
  EXPECT_LT(xpass, unsupported);
  EXPECT_LT(unsupported, skip);
  EXPECT_THAT(md, Not(HasSubstr("test_relu")));  // passed
  EXPECT_THAT(md, Not(HasSubstr("mlp_b8")));
  // The XPASS without a message shows its expectation's reason; the pipe in a name is escaped.
  EXPECT_THAT(md, HasSubstr("| `test_erf` | `dnnl` | **XPASS** | erf approximation too coarse |"));
  EXPECT_THAT(md, HasSubstr("| `test_pipe\\|name` | `ref` | **SKIP** | filtered by tag |"));
  // Hostile text: markup escaped, control characters and broken UTF-8 gone.
  EXPECT_THAT(md, HasSubstr("worker died: SIGSEGV \\[31mred\\[0m bad \xEF\xBF\xBD\xEF\xBF\xBD "
                            "utf8 \\<\\&\"'\\> caf\xC3\xA9"));
  EXPECT_THAT(md, Not(HasSubstr("\x1b")));

  EXPECT_THAT(md, HasSubstr("Reproduce:\n\n```sh\n"
                            "# test_conv_with_strides[dnnl] FAIL\n"
                            "onnxgate run --suite onnx-node --case test_conv_with_strides "
                            "--ep dnnl\n"));
  EXPECT_THAT(md, Not(HasSubstr("--case test_pipe|name")));  // SKIP has nothing to reproduce
  EXPECT_EQ(CountOf(md, "\nonnxgate run --suite"), 7u);
}

TEST(MarkdownWriterTest, LatencyAlerts) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_THAT(md, HasSubstr("### Latency (4 measured)\n\n"
                            "1 regression, 1 unchanged, 1 inconclusive, 1 no-baseline\n\n"));
  EXPECT_THAT(md, HasSubstr("\n\n- **regression** `resnet_small[dnnl,4t]`: median moved beyond "
                            "the threshold\n"));
  EXPECT_EQ(CountOf(md, "- **regression**"), 1u);
}

// The message already holds the medians and the change: the line under the table says it once,
// not after a summary that repeats it.
TEST(MarkdownWriterTest, LatencyMessageIsWrittenOnce) {
  RunRecord run = SampleRun();
  run.latency[0].message =
      "model changed (hash 1a2b3c4d -> 5e6f7a8b): +21.8%; median 12.3 ms vs baseline 10.1 ms";
  const std::string md = RenderMarkdown(run);
  EXPECT_EQ(CountOf(md, "median 12.3 ms vs baseline 10.1 ms"), 1u);
  EXPECT_EQ(CountOf(md, "model changed"), 1u);
  EXPECT_THAT(md, HasSubstr("- **regression** `resnet_small[dnnl,4t]`: model changed (hash "
                            "1a2b3c4d -\\> 5e6f7a8b): +21.8%; median 12.3 ms vs baseline 10.1 "
                            "ms\n"));
  // Without a message the line falls back to the summary.
  run.latency[0].message.clear();
  EXPECT_THAT(RenderMarkdown(run),
              HasSubstr("- **regression** `resnet_small[dnnl,4t]`: median 12.3 ms vs baseline "
                        "10.1 ms (+21.8%, p=0.0001, threshold 10.0%, cv 2.00%)\n"));
}

TEST(MarkdownWriterTest, AnUnreliableVerdictIsSaidWithItsReason) {
  RunRecord run = SampleRun();
  run.latency[1].noise = "cv 30.0% now and 2.0% in the baseline against a threshold of 10.0%";
  const std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr("1 regression, 1 unchanged, 1 inconclusive, 1 no-baseline, "
                            "1 unreliable\n"));
  EXPECT_THAT(md, HasSubstr("| `mlp` | `dnnl` | 4 | 1.01 ms | +1.0% (1 ms) | unchanged "
                            "(unreliable) |\n"));
  EXPECT_THAT(md, HasSubstr("- **unreliable** `mlp[dnnl,4t]`: cv 30.0% now and 2.0% in the "
                            "baseline against a threshold of 10.0%\n"));
  EXPECT_THAT(RenderMarkdown(SampleRun()), Not(HasSubstr("unreliable")));
}

// Every measurement gets a row with its median, its change against the baseline and the
// verdict, not only the regressions.
TEST(MarkdownWriterTest, LatencyTableShowsMedianChangeAndVerdictPerModel) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_THAT(md, HasSubstr("| Model | EP | Threads | Median | vs baseline | Verdict |\n"
                            "| --- | --- | ---: | ---: | ---: | --- |\n"
                            "| `resnet_small` | `dnnl` | 4 | 12.3 ms | +21.8% (10.1 ms) | "
                            "**regression** |\n"
                            "| `mlp` | `dnnl` | 4 | 1.01 ms | +1.0% (1 ms) | unchanged |\n"));
  EXPECT_THAT(md, HasSubstr("| `mobilenet` | `dnnl` | 4 | "));
  EXPECT_THAT(md, HasSubstr("| `encoder` | `ref` | 1 | 5.5 ms | n/a | no-baseline |\n"));
}

TEST(MarkdownWriterTest, BenchRunIsTheLatencySectionAlone) {
  RunRecord run = SampleRun();
  run.cases.clear();
  run.matrix.clear();
  run.coverage.clear();
  const std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr("### Latency (4 measured)"));
  EXPECT_THAT(md, Not(HasSubstr("| Total |")));
  EXPECT_THAT(md, Not(HasSubstr("Coverage")));
}

TEST(MarkdownWriterTest, SizeIsBounded) {
  RunRecord run = SampleRun();
  const CaseRecord fail = run.cases[1];
  for (int i = 0; i < 500; ++i) {
    CaseRecord c = fail;
    c.name = "test_many_" + std::to_string(i);
    c.message = std::string(1000, 'x');
    run.cases.push_back(c);
  }
  MarkdownOptions options;
  options.max_cases = 20;
  const std::string md = RenderMarkdown(run, options);
  EXPECT_THAT(md, HasSubstr("### Not passing (508)"));
  EXPECT_THAT(md, HasSubstr("\n... and 488 more (see the JSON report)\n"));
  EXPECT_EQ(CountOf(md, "| **FAIL** |"), 20u);
  EXPECT_THAT(md, HasSubstr(std::string(157, 'x') + "... |"));
  EXPECT_LT(md.size(), 12000u);
}

TEST(MarkdownWriterTest, AllPassingRunHasNoTables) {
  RunRecord run;
  run.cases.resize(3);
  const std::string md = RenderMarkdown(run);
  EXPECT_THAT(md, HasSubstr("| Total | PASS |\n|---:|---:|\n| 3 | 3 |\n"));
  EXPECT_THAT(md, Not(HasSubstr("Not passing")));
  EXPECT_THAT(md, Not(HasSubstr("Latency")));
  EXPECT_THAT(md, Not(HasSubstr("Reproduce")));
}

}  // namespace
}  // namespace onnxgate

namespace onnxgate {
namespace {

TEST(MarkdownWriterTest, AModelRunOpensOnItsMarginsAndFailingNodesAndEndsOnTheMatrix) {
  const RunRecord run = ModelRun();
  ASSERT_TRUE(IsModelRun(run));
  const std::string md = RenderMarkdown(run);
  EXPECT_THAT(md,
              HasSubstr("### Models (3)\n\n| Case | EP | Verdict | Margin to tolerance, per "
                        "output |\n|---|---|---|---|\n"
                        "| `mlp` | `ref` | PASS | y set 0: uses 12.0% of atol, 40.0% of rtol |\n"
                        "| `resnet18` | `ref` | **FAIL** | logits set 0: cosine 0.9991 (\\>= "
                        "0.999, margin 0.0001); top1 0.9 (\\>= 0.99, FAILS by 0.09) |\n"));
  EXPECT_THAT(md, HasSubstr("### Failing nodes (1)\n\n- `resnet18` `ref`: node relu\\_3 (Relu) "
                            "computing y3, set 0: max abs err 0.5, max rel err 1\n"));
  EXPECT_THAT(md, HasSubstr("Metrics:\n\n- `resnet18` `ref` `logits` set 0: cosine 0.9991"));
  const size_t models = md.find("### Models (3)");
  const size_t nodes = md.find("### Failing nodes");
  const size_t failing = md.find("### Not passing");
  const size_t matrix = md.find("### Conformance matrix");
  ASSERT_NE(matrix, std::string::npos) << md;
  EXPECT_LT(models, nodes);
  EXPECT_LT(nodes, failing);
  EXPECT_LT(failing, matrix);
  EXPECT_EQ(md.find("Reproduce", matrix), std::string::npos) << "the matrix comes last";
  EXPECT_THAT(md, Not(HasSubstr("Coverage")));
}

TEST(MarkdownWriterTest, MetricsAreShownForTheFailingCasesOfAnyRun) {
  RunRecord run = SampleRun();
  run.cases[1].outputs[0].metrics = {{"cosine", 0.98, 0.999, true, false, -0.019}};
  ASSERT_FALSE(IsModelRun(run));
  EXPECT_THAT(RenderMarkdown(run),
              HasSubstr("Metrics:\n\n- `test_conv_with_strides` `dnnl` `y` set 0: cosine 0.98 "
                        "(\\>= 0.999, FAILS by 0.019)\n"));
}

TEST(MarkdownWriterTest, AnOperatorRunKeepsTheMatrixFirst) {
  const RunRecord run = SampleRun();
  ASSERT_FALSE(IsModelRun(run));
  const std::string md = RenderMarkdown(run);
  EXPECT_EQ(md.find("### Models"), std::string::npos);
  EXPECT_LT(md.find("### Conformance matrix"), md.find("### Not passing"));
}

TEST(MarkdownWriterTest, GateOpensWithItsOutcomeAndTheFilesItWasJudgedBy) {
  const RunRecord failed = FailedGateRun();
  const std::string md = RenderMarkdown(failed);
  EXPECT_EQ(md.rfind("## onnxgate gate\n\n**FAILED: " +
                         std::to_string(failed.gate->unexpected.total()) + " unexpected** (",
                     0),
            0u)
      << md;
  EXPECT_THAT(md, HasSubstr("see *Not passing* below"));
  EXPECT_THAT(md, HasSubstr("Judged by: `ref` `conformance/expectations/ref.json` (3 entries); "
                            "`dnnl` none found (`conformance/expectations/dnnl.json`: every case "
                            "must pass)"));
  const std::string passed = RenderMarkdown(PassedGateRun());
  EXPECT_EQ(passed.rfind("## onnxgate gate\n\n**PASSED**\n", 0), 0u) << passed;
  EXPECT_EQ(RenderMarkdown(SampleRun()).rfind("## onnxgate run\n\n", 0), 0u);
}

TEST(MarkdownWriterTest, FallbackNodesGetASectionOfTheirOwn) {
  RunRecord run = SampleRun();
  EXPECT_THAT(RenderMarkdown(run), Not(HasSubstr("### Fallback")));
  run.cases[0].fallbacks = {{"shape0", "Shape", "ref", true}, {"neg0", "Neg", "ref", false}};
  EXPECT_THAT(RenderMarkdown(run),
              HasSubstr("### Fallback\n\n- `" + run.cases[0].ep +
                        "`, 1 case(s): 2 nodes (ops: Neg x1, Shape x1), of which 1 shape-only\n"));
}

}  // namespace
}  // namespace onnxgate
