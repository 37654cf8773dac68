// Tests of optimization level 1: constant folding, dead-node removal, and what the optimizer
// never does (touch the caller's model, fold overridable inputs, random ops or subgraphs, grow a
// model past the limit, fail because a fold fails).
#include "runtime/optimizer/optimizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/optimizer/optimizer_test_util.h"
#include "runtime/session/session_test_kernels.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using namespace optimizer_test;

Value Floats(Shape shape, std::vector<float> v) {
  return Value::FromTensor(Tensor::FromVector<float>(std::move(shape), v));
}

// Y = X + (A + B) * (A + B) with A and B constants, a Constant node, and a dead Relu.
constexpr char kChain[] = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] X) => (float[3] Y) <float[3] A = {1.0, 2.0, 3.0}, float[3] B = {0.5, 0.5, 0.5}> {
  [sum] C = Add(A, B)
  [square] D = Mul(C, C)
  [two] T = Constant <value = float[1] {2.0}> ()
  [twice] E = Mul(D, T)
  [unused] R = Relu(X)
  [out] Y = Add(X, E)
}
)";

TEST(ConstantFoldingTest, FoldsChainsOfConstantsIntoInitializers) {
  auto model = LoadText(kChain);
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  ASSERT_NE(optimized, nullptr);
  EXPECT_THAT(report.folded, ElementsAre("sum", "square", "two", "twice"));
  EXPECT_THAT(report.removed, ElementsAre("unused"));
  EXPECT_THAT(OpTypes(*optimized), ElementsAre("Add"));
  EXPECT_THAT(NodeNames(*optimized), ElementsAre("out"));
  // Only what the remaining node uses is kept.
  EXPECT_THAT(InitializerNames(*optimized), ElementsAre("E"));

  const std::vector<NamedValue> feeds = {{"X", Floats({3}, {1, 1, 1})}};
  const std::vector<Value> got = RunOnRef(optimized, feeds);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_THAT(std::vector<float>(got[0].tensor().data<float>(), got[0].tensor().data<float>() + 3),
              ElementsAre(1 + 2 * 1.5f * 1.5f, 1 + 2 * 2.5f * 2.5f, 1 + 2 * 3.5f * 3.5f));
  ExpectClose(RunOnRef(model, feeds), got, 0, 0);
}

TEST(ConstantFoldingTest, NeverModifiesTheCallersModel) {
  auto model = LoadText(kChain);
  ASSERT_NE(model, nullptr);
  const std::string before = model->proto().SerializeAsString();
  auto optimized = Optimize(model, 2);
  ASSERT_NE(optimized, nullptr);
  EXPECT_NE(optimized.get(), model.get());
  EXPECT_EQ(model->proto().SerializeAsString(), before);
  EXPECT_EQ(model->graph().node_size(), 6);
}

TEST(ConstantFoldingTest, AModelWithNothingToDoComesBackAsItIs) {
  auto model = LoadText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] X) => (float[3] Y) {
  Y = Relu(X)
}
)");
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 2, &report);
  EXPECT_EQ(optimized.get(), model.get());
  EXPECT_THAT(report.folded, IsEmpty());
  EXPECT_THAT(report.fused, IsEmpty());
}

TEST(ConstantFoldingTest, InitializersThatAreGraphInputsAreOverridableAndNeverFolded) {
  // B is a graph input with a default: a caller may feed it, so Neg(B) is not a constant.
  auto model = LoadText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] X, float[3] B) => (float[3] Y) <float[3] B = {1.0, 2.0, 3.0}> {
  [neg] N = Neg(B)
  [out] Y = Add(X, N)
}
)");
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  EXPECT_EQ(optimized.get(), model.get());
  EXPECT_THAT(report.folded, IsEmpty());
  auto overridden =
      RunOnRef(optimized, {{"X", Floats({3}, {0, 0, 0})}, {"B", Floats({3}, {5, 5, 5})}});
  ASSERT_EQ(overridden.size(), 1u);
  EXPECT_EQ(overridden[0].tensor().data<float>()[0], -5.0f);
}

TEST(ConstantFoldingTest, RandomOpsAndSubgraphsAreNeverFolded) {
  auto model = LoadText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y, float[2] Z) <bool c = {1}, float[2] K = {1.0, 2.0}> {
  [draw] R = RandomUniform <shape = [2], seed = 1.0> ()
  [plus] Y = Add(X, R)
  [branch] Z = If (c) <then_branch = t () => (float[2] z) { z = Identity(K) },
                      else_branch = e () => (float[2] z) { z = Neg(K) }>
}
)");
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  EXPECT_THAT(report.folded, IsEmpty());
  EXPECT_THAT(report.removed, IsEmpty());
  EXPECT_EQ(optimized.get(), model.get());
}

TEST(ConstantFoldingTest, FoldedValuesKeepTheirNamesForSubgraphsAndGraphOutputs) {
  // K2 is used only inside the If's branches, and W is a graph output: both stay defined.
  auto model = LoadText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (bool c) => (float[2] Z, float[2] W) <float[2] K = {1.0, 2.0}> {
  [double] K2 = Add(K, K)
  [w] W = Neg(K)
  [branch] Z = If (c) <then_branch = t () => (float[2] z) { z = Identity(K2) },
                      else_branch = e () => (float[2] z) { z = Neg(K2) }>
}
)");
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  ASSERT_NE(optimized, nullptr);
  EXPECT_THAT(report.folded, ElementsAre("double", "w"));
  EXPECT_THAT(OpTypes(*optimized), ElementsAre("If"));
  EXPECT_THAT(InitializerNames(*optimized), UnorderedElementsAre("K2", "W"));
  const std::vector<NamedValue> feeds = {{"c", Value::FromTensor(Tensor::Scalar<bool>(false))}};
  ExpectClose(RunOnRef(model, feeds), RunOnRef(optimized, feeds), 0, 0);
}

TEST(ConstantFoldingTest, BelowIrVersion4FoldedValuesAreConstantNodes) {
  // IR 3 lists every initializer as a graph input (overridable), so only Constant chains fold,
  // and their results become Constant nodes rather than initializers that would be inputs.
  auto model = LoadText(R"(
<ir_version: 3, opset_import: ["" : 8]>
g (float[2] X) => (float[2] Y) {
  [k] K = Constant <value = float[2] {1.0, 2.0}> ()
  [neg] N = Neg(K)
  [out] Y = Add(X, N)
}
)");
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  ASSERT_NE(optimized, nullptr);
  EXPECT_THAT(report.folded, ElementsAre("neg"));
  EXPECT_THAT(OpTypes(*optimized), ElementsAre("Constant", "Add"));
  EXPECT_THAT(NodeNames(*optimized), ElementsAre("neg", "out"));
  EXPECT_THAT(InitializerNames(*optimized), IsEmpty());
  const std::vector<NamedValue> feeds = {{"X", Floats({2}, {1, 1})}};
  ExpectClose(RunOnRef(model, feeds), RunOnRef(optimized, feeds), 0, 0);
}

TEST(ConstantFoldingTest, FoldsThatWouldGrowTheModelPastTheLimitAreLeftAlone) {
  // ConstantOfShape turns 16 bytes into 4 MB.
  constexpr char kBig[] = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1000, 1000] X) => (float[1000, 1000] Y) <int64[2] S = {1000, 1000}> {
  [fill] F = ConstantOfShape <value = float[1] {1.0}> (S)
  [out] Y = Add(X, F)
}
)";
  auto model = LoadText(kBig);
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  EXPECT_EQ(optimized.get(), model.get());
  EXPECT_THAT(report.folded, IsEmpty());
  ASSERT_EQ(report.not_folded.size(), 1u);
  EXPECT_THAT(report.not_folded[0], HasSubstr("ConstantOfShape node 'fill'"));
  EXPECT_THAT(report.not_folded[0], HasSubstr("4000000 bytes, more than the limit of 65536"));

  OptimizerOptions roomy;
  roomy.fold_growth_limit_bytes = 8 << 20;
  OptimizationReport folded;
  auto big = Optimize(model, 1, &folded, roomy);
  ASSERT_NE(big, nullptr);
  EXPECT_THAT(folded.folded, ElementsAre("fill"));
  EXPECT_THAT(OpTypes(*big), ElementsAre("Add"));
}

TEST(ConstantFoldingTest, AFoldThatFailsLeavesTheNodeAsItWas) {
  using testing_kernels::RefusingProvider;
  using testing_kernels::SilentProvider;
  auto model = LoadText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) <float[2] A = {1.0, 2.0}> {
  [sq] S = Sqrt(A)
  [out] Y = Add(X, S)
}
)");
  ASSERT_NE(model, nullptr);
  for (auto provider : {RefusingProvider("broken", "Sqrt", InvalidArgument("bad attribute")),
                        SilentProvider("silent", "Sqrt")}) {
    OptimizerOptions options;
    options.fold_provider = provider;
    OptimizationReport report;
    auto optimized = Optimize(model, 1, &report, options);
    EXPECT_EQ(optimized.get(), model.get()) << provider->name();
    EXPECT_THAT(report.folded, IsEmpty());
    ASSERT_EQ(report.not_folded.size(), 1u);
    EXPECT_THAT(report.not_folded[0], HasSubstr("Sqrt node 'sq'"));
  }
}

TEST(ConstantFoldingTest, CastLikeOfAConstantFoldsWhateverTheValueItTakesTheTypeFrom) {
  // CastLike reads only the element type of X, which the model declares.
  auto model = LoadText(R"(
<ir_version: 9, opset_import: ["" : 21]>
g (float16[2] X) => (float16[2] Y) <float[1] one = {1.0}> {
  [cast] C = CastLike(one, X)
  [out] Y = Add(X, C)
}
)");
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  ASSERT_NE(optimized, nullptr);
  EXPECT_THAT(report.folded, ElementsAre("cast"));
  EXPECT_THAT(OpTypes(*optimized), ElementsAre("Add"));
  ASSERT_EQ(optimized->graph().initializer_size(), 1);
  EXPECT_EQ(optimized->graph().initializer(0).name(), "C");
  EXPECT_EQ(optimized->graph().initializer(0).data_type(), onnx::TensorProto::FLOAT16);
  Tensor x(DataType::kFloat16, Shape{2});
  x.mutable_data<Float16>()[0] = Float16::FromFloat(0.5f);
  x.mutable_data<Float16>()[1] = Float16::FromFloat(-2.0f);
  const std::vector<NamedValue> feeds = {{"X", Value::FromTensor(x)}};
  ExpectClose(RunOnRef(model, feeds), RunOnRef(optimized, feeds), 0, 0);
}

TEST(ConstantFoldingTest, UnnamedNodesKeepTheNamesTheyHaveAtLevelZero) {
  auto model = LoadText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) <float[2] A = {1.0, 4.0}> {
  S = Sqrt(A)
  R = Relu(X)
  Y = Add(R, S)
}
)");
  ASSERT_NE(model, nullptr);
  OptimizationReport report;
  auto optimized = Optimize(model, 1, &report);
  ASSERT_NE(optimized, nullptr);
  EXPECT_THAT(report.folded, ElementsAre("Sqrt#0"));
  EXPECT_THAT(NodeNames(*optimized), ElementsAre("Relu#1", "Add#2"));
}

TEST(OptimizerTest, LevelsOutsideOneAndTwoAreRefused) {
  auto model = LoadText(kChain);
  ASSERT_NE(model, nullptr);
  for (int level : {0, 3, -1}) {
    OptimizerOptions options;
    options.level = level;
    auto st = OptimizeModel(model, options).status();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << level;
  }
  EXPECT_EQ(OptimizeModel(nullptr, {}).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate
