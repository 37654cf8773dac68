// Tests of a reference model's outputs on a record's data sets: the same chain returns its values
// in the recorded order on every set; a reference whose outputs do not correspond by name or shape
// is refused naming both models and the output.
#include "harness/models/reference_outputs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "runtime/base/atomic_file.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kRenamedOutput[] = R"(<ir_version: 8, opset_import: ["" : 17]>
chain (float[batch, 4] X) => (float[batch, 4] Z) {
  Z = Abs(X)
})";

class ReferenceOutputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("reference");
    fs::create_directories(dir_);
    ASSERT_TRUE(WriteFileAtomically(dir_ + "/chain.onnxtxt", kNegReluAbsChain).ok());
    ASSERT_TRUE(WriteFileAtomically(dir_ + "/renamed.onnxtxt", kRenamedOutput).ok());
    auto runtime = CreateRuntimeWithTestProviders();
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    runtime_ = std::move(runtime).value();
  }
  void TearDown() override { fs::remove_all(dir_); }

  StatusOr<ValueGroups> Run(const std::string& model, const ValueGroups& recorded) {
    ReferenceRun reference{runtime_.get(), {}, dir_ + "/" + model, "ref"};
    reference.load.providers = {"ref"};
    ModelWorker worker(ModelWorkerOptions{}, {runtime_.get()});
    ValueGroups feeds;
    for (size_t s = 0; s < recorded.size(); ++s) {
      const float x = static_cast<float>(s) - 1;
      feeds.push_back({{"X", Value::FromTensor(Tensor::FromVector<float>({1, 4}, {x, 2, -3, 4}))}});
    }
    return RunReferenceModel(reference, "int8.onnx", feeds, recorded, worker);
  }
  static std::vector<NamedValue> Recorded(const std::string& name, Shape shape) {
    std::vector<float> zeros(static_cast<size_t>(shape.NumElements()), 0);
    return {{name, Value::FromTensor(Tensor::FromVector<float>(shape, zeros))}};
  }

  std::string dir_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

TEST_F(ReferenceOutputsTest, TheReferenceValuesComeInTheRecordedOrderOnEverySet) {
  auto values = Run("chain.onnxtxt", {Recorded("Y", {1, 4}), Recorded("Y", {1, 4})});
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  ASSERT_EQ(values->size(), 2u);
  ASSERT_EQ((*values)[1].size(), 1u);
  EXPECT_EQ((*values)[1][0].name, "Y");
  const float* y = (*values)[1][0].value.tensor().data<float>();
  EXPECT_EQ(y[0], 0);  // Abs(Relu(Neg(0)))
  EXPECT_EQ(y[2], 3);  // Abs(Relu(Neg(-3)))
  EXPECT_EQ(y[1], 0);
}

TEST_F(ReferenceOutputsTest, OutputsThatDoNotCorrespondAreRefused) {
  auto renamed = Run("renamed.onnxtxt", {Recorded("Y", {1, 4})});
  ASSERT_FALSE(renamed.ok());
  EXPECT_THAT(renamed.status().message(),
              HasSubstr("int8.onnx and reference model " + dir_ +
                        "/renamed.onnxtxt: outputs do not correspond: output 'Y' is not an "
                        "output of"));
  auto shape = Run("chain.onnxtxt", {Recorded("Y", {2, 2})});
  ASSERT_FALSE(shape.ok());
  EXPECT_THAT(shape.status().message(), HasSubstr("output 'Y' has shape [2,2] in int8.onnx"));
  auto missing = Run("missing.onnx", {Recorded("Y", {1, 4})});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("missing.onnx"));
}

}  // namespace
}  // namespace onnxgate
