// The case runner reads a case's model file once: its op versions and its hashes against the
// golden come from that read, and the runtime is handed the bytes it read, so an in-process
// runtime parses them instead of reading the file again.
#include "harness/case_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/mock_runtime.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::_;
using ::testing::NiceMock;
using ::testing::Return;

// A model whose Run returns `output` for "Y", fed "X".
std::unique_ptr<LoadedModel> ModelAnswering(Value output) {
  auto m = std::make_unique<NiceMock<MockLoadedModel>>();
  ValueInfo x, y;
  x.name = "X";
  y.name = "Y";
  ON_CALL(*m, inputs()).WillByDefault(Return(std::vector<ValueInfo>{x}));
  ON_CALL(*m, outputs()).WillByDefault(Return(std::vector<ValueInfo>{y}));
  ON_CALL(*m, Run(_)).WillByDefault([output](const std::vector<NamedValue>&) {
    return StatusOr<std::vector<Value>>(std::vector<Value>{output});
  });
  return m;
}

class CaseRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("case_runner_test");
    WriteMiniSuite(root_, {{"pass", "Relu", Floats({-1, 2}), Floats({0, 2})},
                           {"stale", "Relu", Floats({1}), Floats({1}), /*stale=*/true}});
    StatusOr<Suite> suite = LoadSuite(root_ + "/suites", "mini");
    ASSERT_TRUE(suite.ok()) << suite.status().ToString();
    suite_ = std::move(suite).value();
    ON_CALL(runtime_, Load(_, _))
        .WillByDefault([this](const std::string& path,
                              const LoadOptions& o) -> StatusOr<std::unique_ptr<LoadedModel>> {
          loaded_paths_.push_back(path);
          if (o.model_bytes == nullptr) return Internal("the runtime was not given the bytes");
          given_bytes_.push_back(*o.model_bytes);
          return ModelAnswering(Floats({0, 2}));
        });
  }
  void TearDown() override { fs::remove_all(root_); }

  const SuiteCase& Case(const std::string& name) const {
    for (const SuiteCase& c : suite_.cases) {
      if (c.name == name) return c;
    }
    ADD_FAILURE() << "no case " << name;
    return suite_.cases.front();
  }

  std::string root_;
  Suite suite_;
  NiceMock<MockRuntime> runtime_;
  std::vector<std::string> loaded_paths_;
  std::vector<std::string> given_bytes_;
};

TEST_F(CaseRunnerTest, TheRuntimeIsGivenTheBytesTheCaseRunnerRead) {
  const SuiteCase& c = Case("pass");
  CaseRecord record = RunCase(runtime_, suite_, c, CaseRunOptions{});
  EXPECT_EQ(record.verdict, Verdict::kPass) << record.message;
  ASSERT_EQ(loaded_paths_, std::vector<std::string>{c.model_path});
  StatusOr<std::string> on_disk = ReadRegularFile(c.model_path, kMaxProtobufFileBytes);
  ASSERT_TRUE(on_disk.ok()) << on_disk.status().ToString();
  ASSERT_EQ(given_bytes_.size(), 1u);
  EXPECT_EQ(given_bytes_[0], *on_disk);
  // The op versions come from the same read.
  EXPECT_EQ(record.op_versions, (std::map<std::string, int64_t>{{"Relu", 13}}));
}

// A golden written for other model bytes is stale: the runtime never sees the model, and the op
// versions are still recorded, so the case lands in its cell of the matrix.
TEST_F(CaseRunnerTest, AStaleGoldenIsFoundFromTheSameRead) {
  CaseRecord record = RunCase(runtime_, suite_, Case("stale"), CaseRunOptions{});
  EXPECT_EQ(record.verdict, Verdict::kUnresolved);
  EXPECT_THAT(record.message, ::testing::HasSubstr("model changed (stale golden)"));
  EXPECT_TRUE(loaded_paths_.empty());
  EXPECT_EQ(record.op_versions, (std::map<std::string, int64_t>{{"Relu", 13}}));
}

// A model file that cannot be read leaves the case unjudged, naming the file; the runtime is not
// asked to load it.
TEST_F(CaseRunnerTest, AnUnreadableModelIsUnresolved) {
  const SuiteCase& c = Case("pass");
  fs::remove(c.model_path);
  CaseRecord record = RunCase(runtime_, suite_, c, CaseRunOptions{});
  EXPECT_EQ(record.verdict, Verdict::kUnresolved);
  EXPECT_THAT(record.message, ::testing::HasSubstr(c.model_path));
  EXPECT_TRUE(record.op_versions.empty());
  EXPECT_TRUE(loaded_paths_.empty());
}

// A model answering as ModelAnswering does, whose nodes the runtime says it placed so.
std::unique_ptr<LoadedModel> ModelPlaced(std::vector<NodePlacement> placements) {
  std::unique_ptr<LoadedModel> m = ModelAnswering(Floats({0, 2}));
  ON_CALL(static_cast<MockLoadedModel&>(*m), placements()).WillByDefault(Return(placements));
  return m;
}

NodePlacement Placed(const std::string& node, const std::string& op, const std::string& provider) {
  NodePlacement p;
  p.node_name = node;
  p.op_type = op;
  p.provider = provider;
  return p;
}

// The fallback policy, judged by the harness from the placements any runtime reports: the
// mock's runtime neither warns nor refuses anything itself.
class FallbackPolicyTest : public CaseRunnerTest {
 protected:
  CaseRecord RunPlaced(FallbackPolicy policy, std::vector<NodePlacement> placements) {
    ON_CALL(runtime_, name()).WillByDefault(Return("mock"));
    ON_CALL(runtime_, Load(_, _))
        .WillByDefault([placements](const std::string&,
                                    const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
          return ModelPlaced(placements);
        });
    CaseRunOptions o;
    o.ep = "accel+cpu";
    o.load.providers = {"accel", "cpu"};
    o.load.fallback = policy;
    return RunCase(runtime_, suite_, Case("pass"), o);
  }
};

TEST_F(FallbackPolicyTest, WarnRecordsTheNodesOffTheFirstProviderAndStillJudgesTheCase) {
  CaseRecord r = RunPlaced(FallbackPolicy::kWarn,
                           {Placed("relu0", "Relu", "accel"), Placed("shape0", "Shape", "cpu")});
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
  ASSERT_EQ(r.fallbacks.size(), 1u);
  EXPECT_EQ(r.fallbacks[0].node, "shape0");
  EXPECT_EQ(r.fallbacks[0].ep, "cpu");
  EXPECT_TRUE(r.fallbacks[0].shape_only);
  EXPECT_EQ(r.placements.size(), 2u);
}

TEST_F(FallbackPolicyTest, AllowRecordsPlacementsOnly) {
  CaseRecord r = RunPlaced(FallbackPolicy::kAllow, {Placed("relu0", "Relu", "cpu")});
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
  EXPECT_TRUE(r.fallbacks.empty());
  EXPECT_EQ(r.placements.size(), 1u);
}

TEST_F(FallbackPolicyTest, ForbidMakesAFallbackUnsupportedNamingNodeOpAndProvider) {
  CaseRecord r = RunPlaced(FallbackPolicy::kForbid, {Placed("relu0", "Relu", "cpu")});
  EXPECT_EQ(r.verdict, Verdict::kUnsupported);
  EXPECT_EQ(r.message, "fallback is forbidden: Relu node 'relu0' runs on 'cpu', not on 'accel'");
  EXPECT_EQ(r.fallbacks.size(), 1u);
}

TEST_F(FallbackPolicyTest, ForbidPassesWhenTheFirstProviderTakesEveryNode) {
  CaseRecord r = RunPlaced(FallbackPolicy::kForbid, {Placed("relu0", "Relu", "accel")});
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.message;
  EXPECT_TRUE(r.fallbacks.empty());
}

TEST_F(FallbackPolicyTest, ForbidOnARuntimeThatReportsNoPlacementsIsUnresolvedNeverAPass) {
  CaseRecord r = RunPlaced(FallbackPolicy::kForbid, {});
  EXPECT_EQ(r.verdict, Verdict::kUnresolved);
  EXPECT_EQ(r.message,
            "runtime mock reports no node placements, so --fallback forbid cannot be checked");
  // Under the other policies the missing placements change nothing.
  EXPECT_EQ(RunPlaced(FallbackPolicy::kWarn, {}).verdict, Verdict::kPass);
}

TEST_F(FallbackPolicyTest, EveryProviderOfTheTargetMustBeAvailable) {
  ON_CALL(runtime_, ProviderAvailability(_)).WillByDefault([](const std::string& provider) {
    return provider == "cpu" ? Unavailable("no cpu here") : OkStatus();
  });
  CaseRecord r = RunPlaced(FallbackPolicy::kAllow, {Placed("relu0", "Relu", "accel")});
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_EQ(r.message, "provider 'cpu' is unavailable here: no cpu here");
}

}  // namespace
}  // namespace onnxgate
