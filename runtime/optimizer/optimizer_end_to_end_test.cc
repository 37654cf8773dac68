// The optimizer through the built-in runtime, as the harness uses it: LoadOptions'
// optimization_level rewrites the model before the session, the placements name the fused
// nodes, and the outputs agree with level 0.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/model/model_test_util.h"
#include "runtime/optimizer/optimizer_test_util.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace optimizer_test;

// Conv -> BatchNormalization -> Relu, with a shape computation on constants (Mul of two
// initializers feeding Reshape) that level 1 folds, and a dead branch it removes.
constexpr char kModel[] = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1,2,4,4] X) => (float[1,48] Y)
  <float[3,2,3,3] W = {0.2, -0.1, 0.3, 0.05, 0.4, -0.2, 0.1, 0.0, -0.3,
                       0.25, 0.1, -0.05, 0.3, -0.4, 0.2, 0.15, -0.1, 0.05,
                       -0.2, 0.3, 0.1, 0.0, 0.2, -0.1, 0.35, 0.05, -0.25,
                       0.1, 0.2, 0.3, -0.1, -0.2, -0.3, 0.05, 0.15, 0.25,
                       0.3, -0.3, 0.2, -0.2, 0.1, -0.1, 0.0, 0.4, -0.4,
                       0.12, 0.22, -0.32, 0.42, -0.12, 0.02, 0.33, -0.23, 0.13},
   float[3] B = {0.1, -0.2, 0.3}, float[3] scale = {1.5, 0.5, 2.0},
   float[3] bias = {0.1, 0.2, -0.1}, float[3] mean = {0.05, -0.1, 0.2},
   float[3] var = {0.9, 1.1, 0.5}, int64[2] half_shape = {1, 24}, int64[2] two = {1, 2}> {
  [conv1] C = Conv <pads = [1, 1, 1, 1]> (X, W, B)
  [bn1] N = BatchNormalization <epsilon = 0.001> (C, scale, bias, mean, var)
  [relu1] R = Relu(N)
  [shape] S = Mul(half_shape, two)
  [flatten] Y = Reshape(R, S)
  [unused] U = Sigmoid(R)
}
)";

std::vector<std::string> PlacedNodes(const LoadedModel& model) {
  std::vector<std::string> names;
  for (const NodePlacement& p : model.placements()) names.push_back(p.node_name + "@" + p.provider);
  return names;
}

TEST(OptimizationLevelsEndToEndTest, Level2FusesConvAndBatchNormAndKeepsTheNumbers) {
  ScratchDir dir;
  const std::string path = dir.WriteModel("convbn.onnx", kModel);
  auto runtime = CreateBuiltinRuntime();
  LoadOptions options;
  options.providers = {"ref"};
  const std::vector<NamedValue> feeds = {{"X", RandomFloats({1, 2, 4, 4}, 7)}};

  std::vector<std::vector<Value>> outputs;
  std::vector<std::vector<std::string>> placements;
  for (int level : {0, 1, 2}) {
    options.optimization_level = level;
    auto loaded = runtime->Load(path, options);
    ASSERT_TRUE(loaded.ok()) << "level " << level << ": " << loaded.status().ToString();
    EXPECT_THAT((*loaded)->input_names(), ElementsAre("X"));
    EXPECT_THAT((*loaded)->output_names(), ElementsAre("Y"));
    auto run = (*loaded)->Run(feeds);
    ASSERT_TRUE(run.ok()) << "level " << level << ": " << run.status().ToString();
    outputs.push_back(*run);
    placements.push_back(PlacedNodes(**loaded));
  }
  EXPECT_THAT(placements[0], ElementsAre("conv1@ref", "bn1@ref", "relu1@ref", "shape@ref",
                                         "flatten@ref", "unused@ref"));
  EXPECT_THAT(placements[1], ElementsAre("conv1@ref", "bn1@ref", "relu1@ref", "flatten@ref"));
  EXPECT_THAT(placements[2], ElementsAre("conv1+bn1@ref", "relu1@ref", "flatten@ref"));
  ExpectClose(outputs[0], outputs[1], 0, 0);  // folding computes what the node computed
  ExpectClose(outputs[0], outputs[2], 1e-5, 1e-6);
  // The fusion changed the arithmetic (the weights are rescaled), so exact equality is not
  // what it promises; the tolerance above is ONNX's default rtol divided by 100.
}

TEST(OptimizationLevelsEndToEndTest, OnlyLevelsZeroToTwoExist) {
  ScratchDir dir;
  const std::string path = dir.WriteModel("convbn.onnx", kModel);
  auto runtime = CreateBuiltinRuntime();
  LoadOptions options;
  for (int level : {-1, 3, 99}) {
    options.optimization_level = level;
    auto st = runtime->Load(path, options).status();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << level;
    EXPECT_THAT(st.message(), HasSubstr("optimization level " + std::to_string(level)));
  }
}

}  // namespace
}  // namespace onnxgate
