// `onnxgate record` on the built-in runtime: a model becomes a case the gate then passes, data
// sets per --dim size, external data copied, re-records that show what moved and refuse to
// replace moved outputs of an unchanged model, and bad input that writes nothing. Layerwise
// goldens thinned to 1 node in N or stored as float16 still attribute a planted divergence.
#include "harness/models/recorder.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "golden/golden_file.h"
#include "harness/harness_test_util.h"
#include "harness/models/fault_models_testing.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

constexpr char kBatchRelu[] = R"(<ir_version: 8, opset_import: ["" : 17]>
batch_relu (float[batch, 3] X) => (float[batch, 3] Y) {
  Y = Relu(X)
})";

class RecorderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("record");
    fs::create_directories(root_ + "/in");
    model_path_ = root_ + "/in/batch_relu.onnxtxt";
    ASSERT_TRUE(WriteFileAtomically(model_path_, kBatchRelu).ok());
    auto runtime = CreateRuntimeWithTestProviders();
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    runtime_ = std::move(runtime).value();
  }
  void TearDown() override { fs::remove_all(root_); }

  RecordOptions Options(const std::string& ep = "ref") const {
    RecordOptions o;
    o.model_path = model_path_;
    o.suite_name = "mine";
    o.repo_root = root_;
    o.runtime_spec = "builtin";
    o.load.providers = {ep};
    o.dims = {{"batch", {1, 4}}};
    return o;
  }
  nlohmann::json SuiteJson() const {
    auto text = ReadFile(root_ + "/suites/mine/suite.json");
    EXPECT_TRUE(text.ok());
    return nlohmann::json::parse(text.ok() ? *text : "{}");
  }

  // `onnxgate run --suite mine` on the built-in runtime: one case, and it passes.
  void ExpectTheSuiteRunsAndPasses() const {
    std::unique_ptr<RuntimeUnderTest> builtin = CreateBuiltinRuntime();
    RunCommandOptions run;
    run.root = root_;
    run.suites = {"mine"};
    run.json_path = root_ + "/out/run.json";
    EXPECT_EQ(RunCommand(run, *builtin), 0);
    auto record = ReadRunJson(run.json_path);
    ASSERT_TRUE(record.ok()) << record.status().ToString();
    ASSERT_EQ(record->cases.size(), 1u);
    EXPECT_EQ(record->cases[0].verdict, Verdict::kPass) << record->cases[0].message;
  }

  // `onnxgate run --suite mine` with the test-broken-relu EP: the one case's record and the
  // matrix cells it counts in.
  CaseRecord RunOnBrokenRelu(std::vector<std::string>* matrix_ops) const {
    std::unique_ptr<RuntimeUnderTest> runtime =
        CreateBuiltinRuntime(BuiltinAndTestProviderEntries());
    RunCommandOptions run;
    run.root = root_;
    run.suites = {"mine"};
    run.eps = {kTestBrokenReluProviderName};
    run.json_path = root_ + "/out/broken.json";
    EXPECT_EQ(RunCommand(run, *runtime), 1);
    auto record = ReadRunJson(run.json_path);
    EXPECT_TRUE(record.ok()) << record.status().ToString();
    if (!record.ok() || record->cases.size() != 1) return {};
    for (const MatrixCell& cell : record->matrix) matrix_ops->push_back(cell.op);
    return record->cases[0];
  }

  std::string root_;
  std::string model_path_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

// A golden recorded with --layerwise holds every intermediate value; a gate on a runtime whose
// Relu is wrong then names the Relu node as the first divergence, and the matrix counts the
// failing case under Relu alone, not under Neg and Abs as well.
TEST_F(RecorderTest, ALayerwiseGoldenAttributesAFailureToTheFirstDivergingNode) {
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/chain.onnxtxt", kNegReluAbsChain).ok());
  RecordOptions o = Options();
  o.model_path = root_ + "/in/chain.onnxtxt";
  o.layerwise = true;
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->intermediates, 2);  // A and B; Y is an output
  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  EXPECT_EQ(golden->format_version, 3);
  ASSERT_EQ(golden->sets[1].intermediates.size(), 2u);
  EXPECT_EQ(golden->sets[1].intermediates[1].name, "B");
  ExpectTheSuiteRunsAndPasses();

  std::vector<std::string> cells;
  CaseRecord broken = RunOnBrokenRelu(&cells);
  EXPECT_EQ(broken.verdict, Verdict::kFail);
  ASSERT_TRUE(broken.first_divergence.has_value()) << broken.message;
  EXPECT_EQ(broken.first_divergence->node, "Relu#1");
  EXPECT_EQ(broken.first_divergence->op, "Relu");
  EXPECT_EQ(broken.first_divergence->value, "B");
  EXPECT_GT(broken.first_divergence->max_abs_error, 0.0);
  EXPECT_NE(broken.message.find("first divergence: node Relu#1 (Relu), value 'B'"),
            std::string::npos)
      << broken.message;
  EXPECT_EQ(cells, std::vector<std::string>({"Relu"}));
}

// X -> Neg -> Neg -> Relu -> Neg -> Abs: the Relu (node 2) has negative inputs, so
// test-broken-relu diverges there; A, B, C and D are intermediate values of nodes 0 to 3.
constexpr char kLongChain[] = R"(<ir_version: 8, opset_import: ["" : 17]>
long_chain (float[batch, 4] X) => (float[batch, 4] Y) {
  A = Neg(X)
  B = Neg(A)
  C = Relu(B)
  D = Neg(C)
  Y = Abs(D)
})";

// --layerwise-every 2 keeps the values of nodes 1 and 3 (B, D; D is also the last): the
// divergence at the Relu (node 2, not kept) shows first at node 3, after node 1, which matched;
// either node in between may be the culprit, so no single node is blamed.
TEST_F(RecorderTest, EveryNthNodeNamesTheSpanWhereTheDivergenceBegan) {
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/long_chain.onnxtxt", kLongChain).ok());
  RecordOptions o = Options();
  o.model_path = root_ + "/in/long_chain.onnxtxt";
  o.layerwise = true;
  o.layerwise_every = 2;
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->intermediates, 2);
  EXPECT_GT(report->golden_bytes, 0u);
  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  EXPECT_EQ(golden->layerwise_every, 2);
  ASSERT_EQ(golden->sets[0].intermediates.size(), 2u);
  EXPECT_EQ(golden->sets[0].intermediates[0].name, "B");
  EXPECT_EQ(golden->sets[0].intermediates[1].name, "D");
  ExpectTheSuiteRunsAndPasses();

  std::vector<std::string> cells;
  CaseRecord broken = RunOnBrokenRelu(&cells);
  EXPECT_EQ(broken.verdict, Verdict::kFail);
  EXPECT_FALSE(broken.first_divergence.has_value());
  EXPECT_NE(broken.message.find("first divergence after node Neg#1, at or before node Neg#3 "
                                "(Neg), value 'D': "),
            std::string::npos)
      << broken.message;
  EXPECT_NE(broken.message.find("(the golden keeps the values of 1 node in 2, so no single node "
                                "is named)"),
            std::string::npos)
      << broken.message;
  EXPECT_EQ(cells.size(), 3u);  // Neg, Relu and Abs: every op of the model
}

// X -> Neg -> Neg -> Neg -> Relu -> Abs: with --layerwise-every 3 the golden keeps nodes 2 and 3
// (the last), so the wrong Relu (node 3) right after a kept node that matches is named.
constexpr char kReluLast[] = R"(<ir_version: 8, opset_import: ["" : 17]>
relu_last (float[batch, 4] X) => (float[batch, 4] Y) {
  A = Neg(X)
  B = Neg(A)
  C = Neg(B)
  D = Relu(C)
  Y = Abs(D)
})";

TEST_F(RecorderTest, EveryNthNodeNamesTheNodeWhenTheKeptNodeBeforeItMatches) {
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/relu_last.onnxtxt", kReluLast).ok());
  RecordOptions o = Options();
  o.model_path = root_ + "/in/relu_last.onnxtxt";
  o.layerwise = true;
  o.layerwise_every = 3;
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->intermediates, 2);  // C and D
  std::vector<std::string> cells;
  CaseRecord broken = RunOnBrokenRelu(&cells);
  ASSERT_TRUE(broken.first_divergence.has_value()) << broken.message;
  EXPECT_EQ(broken.first_divergence->node, "Relu#3");
  EXPECT_EQ(cells, std::vector<std::string>({"Relu"}));
}

// --layerwise-precision float16 stores the float32 intermediate values as float16; with a case
// tolerance far tighter than float16 keeps (rtol 1e-6, atol 0), the values before the wrong Relu
// still match within the float16 rounding, and the Relu is named.
TEST_F(RecorderTest, Float16IntermediatesStillNameTheDivergingNode) {
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/long_chain.onnxtxt", kLongChain).ok());
  RecordOptions o = Options();
  o.model_path = root_ + "/in/long_chain.onnxtxt";
  o.layerwise = true;
  o.layerwise_float16 = true;
  o.rtol = 1e-6;
  o.atol = 0;
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->intermediates, 4);
  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  EXPECT_EQ(golden->layerwise_precision, "float16");
  for (const GoldenValue& v : golden->sets[1].intermediates) {
    EXPECT_EQ(v.value.tensor().dtype(), DataType::kFloat16) << v.name;
  }
  EXPECT_EQ(golden->sets[1].outputs[0].value.tensor().dtype(), DataType::kFloat);
  ExpectTheSuiteRunsAndPasses();

  std::vector<std::string> cells;
  CaseRecord broken = RunOnBrokenRelu(&cells);
  ASSERT_TRUE(broken.first_divergence.has_value()) << broken.message;
  EXPECT_EQ(broken.first_divergence->node, "Relu#2") << broken.message;
  EXPECT_EQ(broken.first_divergence->value, "C");
  EXPECT_EQ(cells, std::vector<std::string>({"Relu"}));
}

TEST_F(RecorderTest, LayerwiseShapingNeedsLayerwiseAndAPositiveEvery) {
  RecordOptions o = Options();
  o.layerwise_every = 4;
  auto report = RecordCase(*runtime_, o);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("give --layerwise"), std::string::npos)
      << report.status().message();
  o.layerwise = true;
  o.layerwise_every = 0;
  report = RecordCase(*runtime_, o);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("--layerwise-every must be at least 1, got 0"),
            std::string::npos)
      << report.status().message();
  EXPECT_FALSE(fs::exists(root_ + "/suites/mine"));
}

// Without intermediate values there is nothing to attribute with: the case counts under every op.
TEST_F(RecorderTest, WithoutLayerwiseDataAFailureCountsUnderEveryOp) {
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/chain.onnxtxt", kNegReluAbsChain).ok());
  RecordOptions o = Options();
  o.model_path = root_ + "/in/chain.onnxtxt";
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->intermediates, 0);
  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  EXPECT_EQ(golden->format_version, 2);

  std::vector<std::string> cells;
  CaseRecord broken = RunOnBrokenRelu(&cells);
  EXPECT_EQ(broken.verdict, Verdict::kFail);
  EXPECT_FALSE(broken.first_divergence.has_value()) << broken.message;
  EXPECT_EQ(cells, std::vector<std::string>({"Abs", "Neg", "Relu"}));
}

TEST_F(RecorderTest, RecordsACaseTheGateThenPasses) {
  RecordOptions o = Options();
  o.rtol = 1e-5;
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->written);
  EXPECT_FALSE(report->replaced);
  EXPECT_EQ(report->data_sets, 2);

  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  ASSERT_EQ(golden->sets.size(), 2u);
  EXPECT_EQ(golden->sets[1].inputs[0].value.tensor().shape(), Shape({4, 3}));
  EXPECT_NE(golden->producer.find("EP ref"), std::string::npos) << golden->producer;
  EXPECT_NE(golden->source.find("seed 1"), std::string::npos) << golden->source;

  const nlohmann::json suite = SuiteJson();
  ASSERT_EQ(suite["cases"].size(), 1u);
  const nlohmann::json& entry = suite["cases"][0];
  EXPECT_EQ(entry["name"], "batch_relu");
  EXPECT_EQ(entry["model"], "models/batch_relu.onnxtxt");
  EXPECT_EQ(entry["op_types"], nlohmann::json::array({"Relu"}));
  EXPECT_EQ(entry["tolerance"]["rtol"], 1e-5);
  EXPECT_TRUE(fs::exists(root_ + "/suites/mine/models/batch_relu.onnxtxt"));

  ExpectTheSuiteRunsAndPasses();
}

TEST_F(RecorderTest, ReRecordingKeepsUserEditsAndShowsTheOutputsDidNotMove) {
  ASSERT_TRUE(RecordCase(*runtime_, Options()).ok());
  nlohmann::json suite = SuiteJson();
  suite["cases"][0]["description"] = "hand-written note";
  suite["cases"][0]["tags"].push_back("mine");
  suite["cases"][0]["tolerance"] = {{"atol", 1e-4}};
  ASSERT_TRUE(WriteFileAtomically(root_ + "/suites/mine/suite.json", suite.dump(2)).ok());

  auto again = RecordCase(*runtime_, Options());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again->written);
  EXPECT_TRUE(again->replaced);
  EXPECT_FALSE(again->model_changed);
  EXPECT_FALSE(again->outputs_moved);
  EXPECT_EQ(again->changes.size(), 2u);  // one output in each of two sets
  const nlohmann::json entry = SuiteJson()["cases"][0];
  EXPECT_EQ(entry["description"], "hand-written note");
  EXPECT_EQ(entry["tags"], nlohmann::json::array({"recorded", "mine"}));
  EXPECT_EQ(entry["tolerance"]["atol"], 1e-4);
}

TEST_F(RecorderTest, MovedOutputsOfAnUnchangedModelAreRefusedUnlessForced) {
  ASSERT_TRUE(RecordCase(*runtime_, Options()).ok());
  auto before = ReadFile(root_ + "/golden/data/mine/batch_relu.h5");
  ASSERT_TRUE(before.ok());

  // test-broken-relu lets negative values through: the same model's outputs move.
  auto refused = RecordCase(*runtime_, Options("test-broken-relu"));
  ASSERT_TRUE(refused.ok()) << refused.status().ToString();
  EXPECT_FALSE(refused->written);
  EXPECT_TRUE(refused->outputs_moved);
  EXPECT_FALSE(refused->model_changed);
  const std::vector<std::string> lines = DescribeChanges(*refused);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("moved"), std::string::npos) << lines[0];
  auto after = ReadFile(root_ + "/golden/data/mine/batch_relu.h5");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(*before, *after);

  RecordOptions forced = Options("test-broken-relu");
  forced.force = true;
  auto replaced = RecordCase(*runtime_, forced);
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  EXPECT_TRUE(replaced->written);
  auto golden = ReadGolden(replaced->golden_path);
  ASSERT_TRUE(golden.ok());
  EXPECT_NE(golden->producer.find("EP test-broken-relu"), std::string::npos);
}

TEST_F(RecorderTest, AChangedModelIsReRecordedWithItsChangesShown) {
  ASSERT_TRUE(RecordCase(*runtime_, Options()).ok());
  std::string changed = kBatchRelu;
  changed.replace(changed.find("Relu(X)"), 7, "Neg(X)");
  ASSERT_TRUE(WriteFileAtomically(model_path_, changed).ok());
  auto report = RecordCase(*runtime_, Options());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->written);
  EXPECT_TRUE(report->model_changed);
  EXPECT_TRUE(report->outputs_moved);
}

TEST_F(RecorderTest, ExternalDataIsCopiedBesideTheModel) {
  const std::string dir = root_ + "/in/ext";
  ASSERT_TRUE(WriteFileAtomically(dir + "/add.onnx", OneNodeModelBytes("Add", 4, "w.bin")).ok());
  std::vector<float> w = {1, 2, 3, 4};
  ASSERT_TRUE(
      WriteFileAtomically(dir + "/w.bin", std::string(reinterpret_cast<const char*>(w.data()), 16))
          .ok());
  RecordOptions o = Options();
  o.model_path = dir + "/add.onnx";
  o.dims.clear();
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(SuiteJson()["cases"][0]["model"], "models/add/model.onnx");
  EXPECT_TRUE(fs::exists(root_ + "/suites/mine/models/add/w.bin"));

  ExpectTheSuiteRunsAndPasses();
}

TEST_F(RecorderTest, BadInputWritesNothing) {
  struct Bad {
    RecordOptions options;
    std::string says;
  };
  std::vector<Bad> bads;
  RecordOptions unknown_dim = Options();
  unknown_dim.dims = {{"seq", {2}}};
  bads.push_back({unknown_dim, "no input dimension named 'seq'"});
  RecordOptions not_a_model = Options();
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/notes.onnx", "not a model").ok());
  not_a_model.model_path = root_ + "/in/notes.onnx";
  bads.push_back({not_a_model, "notes.onnx"});
  RecordOptions missing = Options();
  missing.model_path = root_ + "/in/missing.onnx";
  bads.push_back({missing, "missing.onnx"});
  RecordOptions bad_suite = Options();
  bad_suite.suite_name = "../up";
  bads.push_back({bad_suite, "suite name"});
  RecordOptions bad_input = Options();
  bad_input.dims.clear();
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/x.txt", "x").ok());
  bad_input.input_files = {root_ + "/in/x.txt"};
  bads.push_back({bad_input, "x.txt"});
  RecordOptions bad_rtol = Options();
  bad_rtol.rtol = -1;
  bads.push_back({bad_rtol, "--rtol"});
  for (const Bad& bad : bads) {
    auto report = RecordCase(*runtime_, bad.options);
    ASSERT_FALSE(report.ok()) << bad.says;
    EXPECT_NE(report.status().message().find(bad.says), std::string::npos)
        << report.status().message();
    EXPECT_FALSE(fs::exists(root_ + "/suites")) << bad.says;
    EXPECT_FALSE(fs::exists(root_ + "/golden")) << bad.says;
  }
}

// Twelve records of different models into one suite at once, each in its own process as from
// twelve shells: every one succeeds and every case is in suite.json with its golden, since each
// reads, merges and writes suite.json under the suite folder's lock.
TEST_F(RecorderTest, ConcurrentRecordsIntoOneSuiteAllEndUpInSuiteJson) {
  constexpr int kRecords = 12;
  for (int i = 0; i < kRecords; ++i) {
    ASSERT_TRUE(
        WriteFileAtomically(root_ + "/in/relu" + std::to_string(i) + ".onnxtxt", kBatchRelu).ok());
  }
  runtime_.reset();  // each process makes its own
  std::vector<pid_t> children;
  for (int i = 0; i < kRecords; ++i) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto runtime = CreateRuntimeWithTestProviders();
      RecordOptions o = Options();
      o.model_path = root_ + "/in/relu" + std::to_string(i) + ".onnxtxt";
      const bool ok = runtime.ok() && RecordCase(**runtime, o).ok();
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
  const nlohmann::json suite = SuiteJson();
  ASSERT_TRUE(suite["cases"].is_array());
  EXPECT_EQ(suite["cases"].size(), static_cast<size_t>(kRecords));
  std::set<std::string> names;
  for (const nlohmann::json& c : suite["cases"]) names.insert(c["name"].get<std::string>());
  for (int i = 0; i < kRecords; ++i) {
    const std::string name = "relu" + std::to_string(i);
    EXPECT_EQ(names.count(name), 1u) << name;
    EXPECT_TRUE(fs::exists(root_ + "/golden/data/mine/" + name + ".h5")) << name;
  }
}

// A run that crashes, hangs or never ends is an error naming it, and nothing is written.
TEST_F(RecorderTest, ARunThatCrashesOrHangsWritesNothing) {
  ASSERT_TRUE(WriteFileAtomically(root_ + "/in/endless.onnxtxt", kEndlessLoopModel).ok());
  struct Fault {
    std::string ep;
    std::string model;
    bool layerwise;
    std::string says;
  };
  const std::vector<Fault> faults = {
      {kTestCrashProviderName, model_path_, false,
       "batch_relu.onnxtxt: the run on builtin test-crash crashed: killed by SIGSEGV while "
       "running "},
      {kTestHangProviderName, model_path_, false,
       "batch_relu.onnxtxt: the run on builtin test-hang timed out after "},
      {"ref", root_ + "/in/endless.onnxtxt", false,
       "endless.onnxtxt: the run on builtin ref timed out after "}};
  for (const Fault& fault : faults) {
    RecordOptions o = Options(fault.ep);
    o.model_path = fault.model;
    o.worker.timeout_s = 1;
    auto report = RecordCase(*runtime_, o);
    ASSERT_FALSE(report.ok()) << fault.says;
    EXPECT_NE(report.status().message().find(fault.says), std::string::npos)
        << report.status().message();
    EXPECT_FALSE(fs::exists(root_ + "/suites")) << fault.says;
    EXPECT_FALSE(fs::exists(root_ + "/golden")) << fault.says;
  }
}

TEST_F(RecorderTest, WithoutIsolationARecordRunsInThisProcessAlike) {
  RecordOptions o = Options();
  o.worker.isolation = Isolation::kNone;
  o.layerwise = true;
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->written);
  EXPECT_EQ(report->data_sets, 2);
  ExpectTheSuiteRunsAndPasses();
}

}  // namespace
}  // namespace onnxgate
