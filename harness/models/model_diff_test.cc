// diff on the built-in runtime: the same configuration twice is the same; an optimization level
// that changes nothing is the same; and with a deliberately wrong Relu (test-broken-relu) the
// layerwise diff names that node as the first divergence while the nodes before it agree. Against
// another model: a QDQ copy's dequantized tensor stands for the float name, metric thresholds
// judge values with margins, and outputs that do not correspond are refused. Over a dataset:
// every set is compared, the worst named, and one differing set fails the verdict.
#include "harness/models/model_diff.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness/harness_test_util.h"
#include "harness/models/fault_models_testing.h"
#include "runtime/base/atomic_file.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

// kNegReluAbsChain with A quantized to int8 and dequantized again (as a QDQ quantizer writes it).
constexpr char kQuantizedChain[] = R"(<ir_version: 8, opset_import: ["" : 17]>
chain (float[batch, 4] X) => (float[batch, 4] Y) {
  A = Neg(X)
  s = Constant<value = float {0.05}>()
  z = Constant<value = int8 {0}>()
  Aq = QuantizeLinear(A, s, z)
  A_dq = DequantizeLinear(Aq, s, z)
  B = Relu(A_dq)
  Y = Abs(B)
})";

// The chain with its output under another name.
constexpr char kRenamedOutputChain[] = R"(<ir_version: 8, opset_import: ["" : 17]>
chain (float[batch, 4] X) => (float[batch, 4] Z) {
  A = Neg(X)
  B = Relu(A)
  Z = Abs(B)
})";

class ModelDiffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("diff");
    fs::create_directories(dir_);
    model_path_ = dir_ + "/chain.onnxtxt";
    ASSERT_TRUE(WriteFileAtomically(model_path_, kNegReluAbsChain).ok());
    auto runtime = CreateRuntimeWithTestProviders();
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    runtime_ = std::move(runtime).value();
  }
  void TearDown() override { fs::remove_all(dir_); }
  DiffSide Side(const std::string& ep, int level = 0) const {
    DiffSide side;
    side.runtime = runtime_.get();
    side.label = ep + " level " + std::to_string(level);
    side.load.providers = {ep};
    side.load.optimization_level = level;
    return side;
  }
  DiffOptions Options(bool layerwise) const {
    DiffOptions o;
    o.model_path = model_path_;
    o.dims = {{"batch", 3}};
    o.layerwise = layerwise;
    return o;
  }
  std::string dir_;
  std::string model_path_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

// Writes an .npz holding one float array `name` of shape [1, 4], as numpy.savez does.
void WriteRowNpz(const std::string& path, const std::string& name, const std::vector<float>& row) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,4,), }\n";
  std::string npy = std::string("\x93NUMPY\x01\x00", 8);
  npy += static_cast<char>(header.size());
  npy += '\x00';
  npy += header;
  npy.append(reinterpret_cast<const char*>(row.data()), row.size() * sizeof(float));
  int error = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(zip, nullptr);
  void* copy = std::malloc(npy.size());
  std::memcpy(copy, npy.data(), npy.size());
  const std::string member = name + ".npy";
  ASSERT_GE(zip_file_add(zip, member.c_str(), zip_source_buffer(zip, copy, npy.size(), 1), 0), 0);
  ASSERT_EQ(zip_close(zip), 0);
}

class ModelDiffDatasetTest : public ModelDiffTest {
 protected:
  // Sets a and c are all negative (Neg makes them positive: test-broken-relu's identity Relu is
  // right there); set b has positive values, where it is wrong.
  DiffOptions DatasetOptions() {
    WriteRowNpz(dir_ + "/a.npz", "X", {-1, -2, -3, -4});
    WriteRowNpz(dir_ + "/b.npz", "X", {1, -2, 3, -4});
    WriteRowNpz(dir_ + "/c.npz", "X", {-0.5f, -1, -1.5f, -2});
    DiffOptions o = Options(false);
    o.dims.clear();
    o.input_files = {dir_ + "/a.npz", dir_ + "/b.npz", dir_ + "/c.npz"};
    return o;
  }
};

TEST_F(ModelDiffDatasetTest, EverySetIsComparedAndOneDifferingSetFailsTheVerdict) {
  auto diff =
      DiffModelOverDataset(Side(kTestBrokenReluProviderName), Side("ref"), DatasetOptions());
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  ASSERT_EQ(diff->sets.size(), 3u);
  EXPECT_TRUE(diff->sets[0].passed());
  EXPECT_FALSE(diff->sets[1].passed());
  EXPECT_TRUE(diff->sets[2].passed());
  EXPECT_FALSE(diff->passed());
  EXPECT_EQ(diff->WorstSet(), 1u);
  const std::string text = RenderDatasetDiffText(*diff);
  EXPECT_NE(text.find("data sets  3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("b.npz): DIFFERS\n  DIFFERS output Y"), std::string::npos) << text;
  EXPECT_NE(text.find("worst set: " + diff->set_labels[1] + ", output Y: "), std::string::npos)
      << text;
  EXPECT_NE(text.find("DIFFERENT: the candidate does not match the reference on 1 of 3 data sets"),
            std::string::npos)
      << text;
  const nlohmann::json json = nlohmann::json::parse(RenderDatasetDiffJson(*diff));
  EXPECT_FALSE(json["passed"].get<bool>());
  ASSERT_EQ(json["data_sets"].size(), 3u);
  EXPECT_EQ(json["data_sets"][1]["data_set"], diff->set_labels[1]);
  EXPECT_FALSE(json["data_sets"][1]["passed"].get<bool>());
  EXPECT_EQ(json["worst_data_set"], diff->set_labels[1]);
}

TEST_F(ModelDiffDatasetTest, SetsThatAllMatchAreTheSameAndOneSetKeepsTheSingleReport) {
  auto diff = DiffModelOverDataset(Side("ref"), Side("ref", 2), DatasetOptions());
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  EXPECT_TRUE(diff->passed());
  EXPECT_NE(RenderDatasetDiffText(*diff).find("SAME: the candidate matches the reference on all 3 "
                                              "data sets"),
            std::string::npos);
  DiffOptions one = DatasetOptions();
  one.input_files = {dir_ + "/b.npz"};
  auto single = DiffModelOverDataset(Side("ref"), Side("ref"), one);
  ASSERT_TRUE(single.ok()) << single.status().ToString();
  EXPECT_EQ(RenderDatasetDiffText(*single), RenderDiffText(single->sets.front()));
  EXPECT_EQ(RenderDatasetDiffJson(*single), RenderDiffJson(single->sets.front()));
}

TEST_F(ModelDiffDatasetTest, SetsGivingOtherInputsAreRefusedNamingBoth) {
  DiffOptions o = DatasetOptions();
  WriteRowNpz(dir_ + "/w.npz", "W", {1, 2, 3, 4});
  o.input_files.push_back(dir_ + "/w.npz");
  auto diff = DiffModelOverDataset(Side("ref"), Side("ref"), o);
  ASSERT_FALSE(diff.ok());
  EXPECT_NE(diff.status().message().find("w.npz"), std::string::npos) << diff.status().message();
  EXPECT_NE(diff.status().message().find("a.npz"), std::string::npos) << diff.status().message();
}

TEST_F(ModelDiffTest, TheSameConfigurationTwiceIsTheSameLayerByLayer) {
  auto diff = DiffModel(Side("ref"), Side("ref", 2), Options(true));
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  EXPECT_TRUE(diff->passed()) << RenderDiffText(*diff);
  ASSERT_EQ(diff->outputs.size(), 1u);
  EXPECT_EQ(diff->intermediates.size(), 2u);  // A and B
  EXPECT_FALSE(diff->first_divergence.has_value());
}

TEST_F(ModelDiffTest, ADeliberatelyWrongNodeIsNamedAsTheFirstDivergence) {
  auto diff = DiffModel(Side(kTestBrokenReluProviderName), Side("ref"), Options(true));
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  EXPECT_FALSE(diff->passed());
  EXPECT_FALSE(diff->outputs[0].comparison.passed);
  ASSERT_TRUE(diff->first_divergence.has_value()) << RenderDiffText(*diff);
  const ValueDiff& first = diff->intermediates[*diff->first_divergence];
  EXPECT_EQ(first.node, "Relu#1");
  EXPECT_EQ(first.value, "B");
  EXPECT_TRUE(diff->intermediates[0].comparison.passed);  // Neg agrees
  const std::string text = RenderDiffText(*diff);
  EXPECT_NE(text.find("first divergence: node Relu#1 (Relu)"), std::string::npos) << text;
  const nlohmann::json json = nlohmann::json::parse(RenderDiffJson(*diff));
  EXPECT_EQ(json["first_divergence"]["node"], "Relu#1");
  EXPECT_EQ(json["passed"], false);
}

TEST_F(ModelDiffTest, WithoutLayerwiseOnlyOutputsAreCompared) {
  auto diff = DiffModel(Side(kTestBrokenReluProviderName), Side("ref"), Options(false));
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  EXPECT_FALSE(diff->passed());
  EXPECT_TRUE(diff->intermediates.empty());
}

TEST_F(ModelDiffTest, AQuantizedModelAgainstItsFloatParentIsJudgedByMetrics) {
  const std::string quantized = dir_ + "/quantized.onnxtxt";
  ASSERT_TRUE(WriteFileAtomically(quantized, kQuantizedChain).ok());
  DiffOptions o = Options(true);
  o.model_path = quantized;
  o.reference_model_path = model_path_;
  o.metrics = *ParseMetricThresholds({"cosine=0.99", "top1=0.6"}, "test");
  auto diff = DiffModel(Side("ref"), Side("ref"), o);
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  const std::string text = RenderDiffText(*diff);
  EXPECT_TRUE(diff->passed()) << text;
  ASSERT_EQ(diff->outputs.size(), 1u);
  EXPECT_TRUE(diff->outputs[0].judgement.judged);
  EXPECT_EQ(diff->outputs[0].judgement.verdicts.size(), 2u);
  ASSERT_GE(diff->intermediates.size(), 2u) << text;
  EXPECT_EQ(diff->intermediates[0].value, "A");
  EXPECT_EQ(diff->intermediates[0].candidate_value, "A_dq");
  EXPECT_EQ(diff->intermediates[0].judgement.verdicts.size(), 1u);  // top-k: outputs only
  EXPECT_NE(text.find("against    " + model_path_), std::string::npos) << text;
  EXPECT_NE(text.find("worst values by SQNR:"), std::string::npos) << text;
  const nlohmann::json json = nlohmann::json::parse(RenderDiffJson(*diff));
  EXPECT_EQ(json["outputs"][0]["judged_by"], "metrics");
  EXPECT_TRUE(json["outputs"][0]["metrics"].contains("sqnr_db"));

  o.metrics = *ParseMetricThresholds({"sqnr_db=300"}, "test");
  diff = DiffModel(Side("ref"), Side("ref"), o);
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  EXPECT_FALSE(diff->passed());
  EXPECT_NE(RenderDiffText(*diff).find("(>= 300, FAILS by"), std::string::npos);
}

TEST_F(ModelDiffTest, ModelsWhoseOutputsDoNotCorrespondAreRefused) {
  const std::string renamed = dir_ + "/renamed.onnxtxt";
  ASSERT_TRUE(WriteFileAtomically(renamed, kRenamedOutputChain).ok());
  DiffOptions o = Options(false);
  o.reference_model_path = renamed;
  auto diff = DiffModel(Side("ref"), Side("ref"), o);
  ASSERT_FALSE(diff.ok());
  EXPECT_NE(diff.status().message().find("outputs do not correspond: output 'Y' is not an "
                                         "output of " +
                                         renamed),
            std::string::npos)
      << diff.status().message();
}

TEST_F(ModelDiffTest, LayerwiseTextIsASummaryUnlessVerbose) {
  auto diff = DiffModel(Side(kTestBrokenReluProviderName), Side("ref"), Options(true));
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  const std::string summary = RenderDiffText(*diff);
  EXPECT_EQ(summary.find("  same    Neg#0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("first divergence: node Relu#1"), std::string::npos) << summary;
  EXPECT_NE(summary.find("worst values by SQNR:"), std::string::npos) << summary;
  const std::string verbose = RenderDiffText(*diff, true);
  EXPECT_NE(verbose.find("  same    Neg#0 (Neg) -> A"), std::string::npos) << verbose;
}

TEST_F(ModelDiffTest, BadInputNamesTheProblem) {
  DiffOptions o = Options(true);
  o.dims = {{"seq", 2}};
  auto diff = DiffModel(Side("ref"), Side("ref"), o);
  ASSERT_FALSE(diff.ok());
  EXPECT_NE(diff.status().message().find("no input dimension named 'seq'"), std::string::npos)
      << diff.status().message();
  o = Options(true);
  o.model_path = dir_ + "/missing.onnx";
  diff = DiffModel(Side("ref"), Side("ref"), o);
  ASSERT_FALSE(diff.ok());
  EXPECT_NE(diff.status().message().find("missing.onnx"), std::string::npos);
}

// The run that crashes, hangs or never ends is an error naming its side; this process goes on.
class ModelDiffFaultTest : public ModelDiffTest {
 protected:
  DiffOptions FaultOptions(const char* text, double timeout_s) {
    DiffOptions o = Options(false);
    o.model_path = dir_ + "/fault.onnxtxt";
    EXPECT_TRUE(WriteFileAtomically(o.model_path, text).ok());
    o.worker.timeout_s = timeout_s;
    return o;
  }
};

TEST_F(ModelDiffFaultTest, ACrashingReferenceIsAnErrorNamingItsSideAndTheSignal) {
  auto diff =
      DiffModel(Side("ref"), Side(kTestCrashProviderName), FaultOptions(kBatchReluModel, 10));
  ASSERT_FALSE(diff.ok());
  const std::string message = diff.status().message();
  EXPECT_NE(message.find("fault.onnxtxt: the run on test-crash level 0 crashed: killed by "
                         "SIGSEGV while running "),
            std::string::npos)
      << message;
}

TEST_F(ModelDiffFaultTest, AHangingCandidateTimesOut) {
  auto diff = DiffModel(Side(kTestHangProviderName), Side("ref"), FaultOptions(kBatchReluModel, 1));
  ASSERT_FALSE(diff.ok());
  const std::string message = diff.status().message();
  EXPECT_NE(message.find("the run on test-hang level 0 timed out after "), std::string::npos)
      << message;
  EXPECT_NE(message.find("(limit 1.0 s)"), std::string::npos) << message;
}

TEST_F(ModelDiffFaultTest, ALoopThatNeverEndsOnRefTimesOut) {
  auto diff = DiffModel(Side("ref"), Side("ref", 2), FaultOptions(kEndlessLoopModel, 1));
  ASSERT_FALSE(diff.ok());
  EXPECT_NE(diff.status().message().find("the run on ref level 0 timed out after "),
            std::string::npos)
      << diff.status().message();
}

TEST_F(ModelDiffFaultTest, InputsPastTheMemoryLimitAreAnErrorSayingSo) {
  DiffOptions o = FaultOptions(kBatchReluModel, 10);
  o.dims = {{"batch", 50'000'000}};  // 800 MB of float inputs
  o.worker.memory_limit_mb = 256;
  auto diff = DiffModel(Side("ref"), Side("ref"), o);
  ASSERT_FALSE(diff.ok());
  EXPECT_NE(diff.status().message().find("ran out of its memory limit of 256 MiB"),
            std::string::npos)
      << diff.status().message();
}

TEST_F(ModelDiffFaultTest, WithoutIsolationTheSidesRunInThisProcess) {
  DiffOptions o = FaultOptions(kBatchReluModel, 10);
  o.worker.isolation = Isolation::kNone;
  auto diff = DiffModel(Side(kTestBrokenReluProviderName), Side("ref"), o);
  ASSERT_TRUE(diff.ok()) << diff.status().ToString();
  EXPECT_FALSE(diff->passed());  // test-broken-relu's wrong Relu, found in process
}

}  // namespace
}  // namespace onnxgate
