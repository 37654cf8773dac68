// check-model --target-opset down-level on the built-in runtime: a convertible opset-20 model is
// brought to opset 17 and its converted run matches the original's; one with a node whose op
// first exists after 17 is a problem naming the node, its op version and that opset.
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/models/model_check.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

// ReduceMean's axes are an input from opset 18 on; the converter makes them an attribute at 17.
constexpr char kReduceMean20[] = R"(<ir_version: 9, opset_import: ["" : 20]>
mean (float[2, 3] X) => (float[2, 1] Y) {
  axes = Constant <value = int64[1] {1}> ()
  R = Relu(X)
  Y = ReduceMean <keepdims = 1> (R, axes)
})";

constexpr char kGelu20[] = R"(<ir_version: 9, opset_import: ["" : 20]>
gelu (float[2, 3] X) => (float[2, 3] Y) {
  R = Relu(X)
  Y = Gelu(R)
})";

class ModelCheckOpsetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("check-opset");
    fs::create_directories(dir_);
    runtime_ = CreateBuiltinRuntime();
  }
  void TearDown() override { fs::remove_all(dir_); }
  ModelCheckRecord CheckAt17(const std::string& name, const std::string& text) {
    ModelCheckOptions o;
    o.model_path = dir_ + "/" + name + ".onnxtxt";
    EXPECT_TRUE(WriteFileAtomically(o.model_path, text).ok());
    o.eps = {"ref"};
    o.target_opset = 17;
    auto check = CheckModel(*runtime_, runtime_.get(), o);
    EXPECT_TRUE(check.ok()) << check.status().ToString();
    return check.ok() ? *check : ModelCheckRecord{};
  }
  std::string dir_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

TEST_F(ModelCheckOpsetTest, AConvertibleModelIsBroughtDownAndMatchesTheOriginal) {
  const ModelCheckRecord check = CheckAt17("mean", kReduceMean20);
  ASSERT_TRUE(check.conversion.has_value());
  EXPECT_TRUE(check.conversion->converted) << check.conversion->error;
  EXPECT_TRUE(check.conversion->loaded) << check.conversion->error;
  EXPECT_TRUE(check.conversion->outputs_match) << check.conversion->error;
  EXPECT_EQ(check.conversion->output_summaries.size(), 1u);
  EXPECT_TRUE(check.passed()) << RenderModelCheckText(check);
}

TEST_F(ModelCheckOpsetTest, ABlockingNodeIsNamedWithItsOpVersionAndFirstOpset) {
  const ModelCheckRecord check = CheckAt17("gelu", kGelu20);
  ASSERT_TRUE(check.conversion.has_value());
  EXPECT_FALSE(check.conversion->converted);
  EXPECT_NE(
      check.conversion->error.find("from opset 20 to opset 17: 1 node blocks it: node 'Gelu#1' "
                                   "(Gelu version 20): Gelu first exists in opset 20"),
      std::string::npos)
      << check.conversion->error;
  EXPECT_FALSE(check.passed());
  EXPECT_NE(RenderModelCheckText(check).find("node 'Gelu#1' (Gelu version 20)"), std::string::npos)
      << RenderModelCheckText(check);
}

}  // namespace
}  // namespace onnxgate
