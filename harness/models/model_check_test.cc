// check-model on the built-in runtime (with the test-only providers): placements, fallback under
// forbid, op versions ref lacks, IR versions it refuses, conversions, and the four report forms.
#include "harness/models/model_check.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness/harness_test_util.h"
#include "harness/models/fault_models_testing.h"
#include "runtime/base/atomic_file.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

constexpr char kReluNeg[] = R"(<ir_version: 8, opset_import: ["" : 17]>
relu_neg (float[2, 3] X) => (float[2, 3] Y) {
  R = Relu(X)
  Y = Neg(R)
})";

// Upsample-10 is deprecated; ref has no kernel for it.
constexpr char kUpsample10[] = R"(<ir_version: 5, opset_import: ["" : 10]>
upsample (float[1, 1, 2, 2] X, float[4] S) => (float[1, 1, 4, 4] Y) {
  Y = Upsample <mode = "nearest"> (X, S)
})";

constexpr char kReduceSum11[] = R"(<ir_version: 7, opset_import: ["" : 11]>
reduce (float[2, 3] X) => (float[2] Y) {
  Y = ReduceSum <axes = [1], keepdims = 0> (X)
})";

class ModelCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("check");
    fs::create_directories(dir_);
    auto runtime = CreateRuntimeWithTestProviders();
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    runtime_ = std::move(runtime).value();
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Model(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name + ".onnxtxt";
    EXPECT_TRUE(WriteFileAtomically(path, text).ok());
    return path;
  }
  ModelCheckRecord Check(const ModelCheckOptions& o) {
    auto check = CheckModel(*runtime_, runtime_.get(), o);
    EXPECT_TRUE(check.ok()) << check.status().ToString();
    return check.ok() ? *check : ModelCheckRecord{};
  }
  std::string dir_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

TEST_F(ModelCheckTest, AModelRefRunsPassesWithEveryNodePlaced) {
  ModelCheckOptions o;
  o.model_path = Model("relu_neg", kReluNeg);
  o.eps = {"ref"};
  const ModelCheckRecord check = Check(o);
  EXPECT_TRUE(check.passed()) << RenderModelCheckText(check);
  EXPECT_TRUE(check.ir_accepted);
  ASSERT_EQ(check.opsets.size(), 1u);
  EXPECT_TRUE(check.opsets[0].accepted);
  ASSERT_EQ(check.nodes.size(), 2u);
  EXPECT_EQ(check.nodes[0].op_type, "Relu");
  EXPECT_EQ(check.nodes[0].since_version, 14);
  EXPECT_EQ(check.nodes[1].provider, "ref");
  EXPECT_FALSE(check.nodes[1].falls_back);
}

TEST_F(ModelCheckTest, ANodeThatFallsBackFailsOnlyUnderForbid) {
  ModelCheckOptions o;
  o.model_path = Model("relu_neg", kReluNeg);
  o.eps = {kTestCrashProviderName};  // takes Relu alone
  ModelCheckRecord allowed = Check(o);
  EXPECT_TRUE(allowed.passed()) << RenderModelCheckText(allowed);
  ASSERT_EQ(allowed.nodes.size(), 2u);
  EXPECT_EQ(allowed.nodes[0].provider, kTestCrashProviderName);
  EXPECT_TRUE(allowed.nodes[1].falls_back);
  EXPECT_EQ(allowed.nodes[1].provider, "ref");
  ASSERT_FALSE(allowed.nodes[1].declines.empty());
  EXPECT_EQ(allowed.nodes[1].declines[0].provider, kTestCrashProviderName);

  o.fallback = FallbackPolicy::kForbid;
  const ModelCheckRecord forbidden = Check(o);
  ASSERT_EQ(forbidden.problems.size(), 1u) << RenderModelCheckText(forbidden);
  EXPECT_NE(forbidden.problems[0].find("'Neg#1'"), std::string::npos) << forbidden.problems[0];
  EXPECT_NE(forbidden.problems[0].find("falls back to ref"), std::string::npos);
  const std::string junit = RenderModelCheckJunit(forbidden);
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure message=\"falls back to ref"), std::string::npos) << junit;
}

TEST_F(ModelCheckTest, AnOpVersionRefLacksIsNamedWithItsNode) {
  ModelCheckOptions o;
  o.model_path = Model("upsample", kUpsample10);
  o.eps = {"ref"};
  o.fallback = FallbackPolicy::kForbid;
  const ModelCheckRecord check = Check(o);
  EXPECT_FALSE(check.passed());
  EXPECT_FALSE(check.loaded);
  ASSERT_EQ(check.nodes.size(), 1u);
  EXPECT_TRUE(check.nodes[0].lacking);
  EXPECT_EQ(check.nodes[0].since_version, 10);
  bool named = false;
  for (const std::string& p : check.problems) {
    named = named || p.find("node 'Upsample#0': no provider of onnxgate claims Upsample-10") !=
                         std::string::npos;
  }
  EXPECT_TRUE(named) << RenderModelCheckText(check);
  const nlohmann::json json = nlohmann::json::parse(RenderModelCheckJson(check));
  EXPECT_EQ(json["passed"], false);
  EXPECT_EQ(json["nodes"][0]["lacking"], true);
  EXPECT_NE(RenderModelCheckMarkdown(check).find("nowhere: no provider claims Upsample-10"),
            std::string::npos)
      << RenderModelCheckMarkdown(check);
}

TEST_F(ModelCheckTest, AConvertedModelIsComparedWithTheOriginal) {
  ModelCheckOptions o;
  o.model_path = Model("reduce", kReduceSum11);
  o.eps = {"ref"};
  o.target_opset = 18;  // ReduceSum's axes become an input at 13
  const ModelCheckRecord check = Check(o);
  ASSERT_TRUE(check.conversion.has_value());
  EXPECT_TRUE(check.conversion->converted) << check.conversion->error;
  EXPECT_TRUE(check.conversion->loaded) << check.conversion->error;
  EXPECT_TRUE(check.conversion->outputs_match) << RenderModelCheckText(check);
  EXPECT_TRUE(check.passed()) << RenderModelCheckText(check);

  o.target_opset = 99;
  const ModelCheckRecord impossible = Check(o);
  ASSERT_TRUE(impossible.conversion.has_value());
  EXPECT_FALSE(impossible.conversion->converted);
  EXPECT_FALSE(impossible.passed());
}

// The conversion's differential run crashing, hanging or never ending is a problem of the check
// naming what happened; the check itself (and this process) goes on to report it.
TEST_F(ModelCheckTest, AConversionRunThatCrashesOrHangsIsAProblemSayingSo) {
  struct Fault {
    const char* ep;
    const char* model;
    std::string says;
  };
  const std::vector<Fault> faults = {
      {kTestCrashProviderName, kBatchReluModel,
       "the differential run of the conversion crashed: killed by SIGSEGV while running "},
      {kTestHangProviderName, kBatchReluModel,
       "the differential run of the conversion timed out after "},
      {"ref", kEndlessLoopModel, "the differential run of the conversion timed out after "}};
  for (const Fault& fault : faults) {
    ModelCheckOptions o;
    o.model_path = Model("fault", fault.model);
    o.eps = {fault.ep};
    o.target_opset = 18;
    o.worker.timeout_s = 1;
    const ModelCheckRecord check = Check(o);
    EXPECT_TRUE(check.loaded) << check.load_error;  // the load alone is fine
    ASSERT_TRUE(check.conversion.has_value());
    EXPECT_TRUE(check.conversion->converted) << check.conversion->error;
    EXPECT_NE(check.conversion->error.find(fault.says), std::string::npos)
        << check.conversion->error;
    EXPECT_FALSE(check.passed());
    ASSERT_FALSE(check.problems.empty());
    EXPECT_NE(check.problems.back().find("conversion to opset 18: "), std::string::npos)
        << check.problems.back();
    EXPECT_NE(RenderModelCheckJson(check).find(fault.says), std::string::npos);
  }
}

TEST_F(ModelCheckTest, WithoutIsolationTheCheckRunsInThisProcessAlike) {
  ModelCheckOptions o;
  o.model_path = Model("reduce", kReduceSum11);
  o.eps = {"ref"};
  o.target_opset = 18;
  o.worker.isolation = Isolation::kNone;
  const ModelCheckRecord check = Check(o);
  EXPECT_TRUE(check.passed()) << RenderModelCheckText(check);
  ASSERT_TRUE(check.conversion.has_value());
  EXPECT_TRUE(check.conversion->outputs_match);
}

TEST_F(ModelCheckTest, AnIrVersionTheRuntimeRefusesIsAProblem) {
  std::string text = kReluNeg;
  text.replace(text.find("ir_version: 8"), 13, "ir_version: 99");
  ModelCheckOptions o;
  o.model_path = Model("old_ir", text);
  o.eps = {"ref"};
  const ModelCheckRecord check = Check(o);
  EXPECT_FALSE(check.ir_accepted) << RenderModelCheckText(check);
  EXPECT_FALSE(check.passed());
  EXPECT_NE(check.problems[0].find("IR version 99 is not accepted"), std::string::npos)
      << check.problems[0];
}

TEST_F(ModelCheckTest, InputThatIsNotAModelIsAnErrorNamingTheFile) {
  ASSERT_TRUE(WriteFileAtomically(dir_ + "/notes.onnx", "not a model").ok());
  ModelCheckOptions o;
  o.model_path = dir_ + "/notes.onnx";
  o.eps = {"ref"};
  auto check = CheckModel(*runtime_, nullptr, o);
  ASSERT_FALSE(check.ok());
  EXPECT_NE(check.status().message().find("notes.onnx"), std::string::npos);
  o.model_path = dir_ + "/missing.onnx";
  EXPECT_FALSE(CheckModel(*runtime_, nullptr, o).ok());
}

}  // namespace
}  // namespace onnxgate
