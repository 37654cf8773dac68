// Tests of the model-run rule and of the margins in words.
#include "reports/model_summary.h"

#include <gtest/gtest.h>

#include <limits>

#include "reports/report_test_util.h"

namespace onnxgate {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

CaseRecord Case(const std::string& suite, const std::string& name,
                std::vector<std::string> op_types) {
  CaseRecord c;
  c.suite = suite;
  c.name = name;
  c.op_types = std::move(op_types);
  return c;
}

TEST(ModelSummaryTest, AModelCaseUsesSeveralOpTypesAndIsNotAnExpandedOperatorTest) {
  EXPECT_TRUE(IsModelCase(Case("zoo", "resnet18", {"Conv", "Relu"})));
  EXPECT_FALSE(IsModelCase(Case("zoo", "one_gemm", {"Gemm"})));
  EXPECT_FALSE(IsModelCase(Case("onnx-node", "test_softmax_cross_entropy_expanded",
                                {"Log", "Softmax", "Gather", "Neg"})));
  EXPECT_FALSE(
      IsModelCase(Case("onnx-node", "test_layer_norm_2d_expanded_ver18", {"Sub", "Div", "Mul"})));
}

TEST(ModelSummaryTest, ARunIsAModelRunWhenEverySuiteIsMostlyModels) {
  RunRecord run;
  EXPECT_FALSE(IsModelRun(run)) << "no case";
  run.cases = {Case("zoo", "mlp", {"Gemm", "Relu"}), Case("zoo", "resnet", {"Conv", "Add"}),
               Case("zoo", "tiny", {"Gemm"})};
  EXPECT_TRUE(IsModelSuite(run, "zoo"));
  EXPECT_TRUE(IsModelRun(run));
  // Operator tests beside them, with their expanded function bodies: not a model run.
  run.cases.push_back(Case("onnx-node", "test_relu", {"Relu"}));
  run.cases.push_back(Case("onnx-node", "test_gelu_expanded", {"Mul", "Erf", "Add"}));
  EXPECT_FALSE(IsModelSuite(run, "onnx-node"));
  EXPECT_FALSE(IsModelRun(run));
  EXPECT_FALSE(IsModelSuite(run, "absent"));
  // A filter that selects only expanded operator tests: still operator tests.
  run.cases = {Case("onnx-node", "test_gelu_expanded", {"Mul", "Erf", "Add"}),
               Case("onnx-node", "test_mish_expanded", {"Softplus", "Tanh", "Mul"})};
  EXPECT_FALSE(IsModelRun(run));
}

TEST(ModelSummaryTest, ElementwiseMarginIsTheShareOfEachToleranceUsed) {
  OutputComparison o = SampleFailingOutput();
  o.passed = true;
  o.rtol = 1e-3;
  o.atol = 1e-4;
  o.max_abs_error = 2e-5;
  o.min_passing_atol = 1.2e-5;
  o.min_passing_rtol = 4e-4;
  EXPECT_EQ(DescribeOutputMargin(o), "uses 12.0% of atol, 40.0% of rtol");
  o.rtol = 0;
  EXPECT_EQ(DescribeOutputMargin(o), "uses 12.0% of atol");
  o.rtol = 1e-3;
  o.max_rel_error = 2e-4;
  o.min_passing_atol = 0;
  o.min_passing_rtol = 0;
  EXPECT_EQ(DescribeOutputMargin(o), "uses 20.0% of atol or 20.0% of rtol alone")
      << "either tolerance alone passes it";
  o.rtol = 0;
  // A failing output uses more than all of it.
  o.min_passing_atol = 3e-4;
  EXPECT_EQ(DescribeOutputMargin(o), "uses 300.0% of atol");
  o.min_passing_atol = 250;
  EXPECT_EQ(DescribeOutputMargin(o), "uses 2.5e+06x atol");
  o.min_passing_atol = kInf;
  o.min_passing_rtol = kInf;
  EXPECT_EQ(DescribeOutputMargin(o), "no tolerance passes");
}

TEST(ModelSummaryTest, ExactComparisonsAndStructuralErrorsSaySo) {
  OutputComparison o = SampleFailingOutput();
  o.rtol = 0;
  o.atol = 0;
  o.max_abs_error = 0;
  o.min_passing_atol = 0;
  o.min_passing_rtol = 0;
  EXPECT_EQ(DescribeOutputMargin(o), "exact");
  o.atol = 1e-5;
  EXPECT_EQ(DescribeOutputMargin(o), "exact") << "no element differs";
  o.atol = 0;
  o.max_abs_error = 1;
  o.min_passing_atol = 1;
  EXPECT_EQ(DescribeOutputMargin(o), "no tolerance passes");
  o.error = "shape mismatch";
  EXPECT_EQ(DescribeOutputMargin(o), "shape mismatch");
}

TEST(ModelSummaryTest, MetricsShowValueThresholdAndMargin) {
  OutputComparison o = SampleFailingOutput();
  o.metrics = {{"cosine", 0.9991, 0.999, true, true, 0.0001},
               {"top1", 0.9, 0.99, true, false, -0.09}};
  EXPECT_EQ(DescribeOutputMargin(o),
            "cosine 0.9991 (>= 0.999, margin 0.0001); top1 0.9 (>= 0.99, FAILS by 0.09)");
  EXPECT_EQ(DescribeMetric({"max_abs", 0.5, 1, false, true, 0.5}),
            "max_abs 0.5 (<= 1, margin 0.5)");
  CaseRecord c;
  c.outputs = {o};
  c.outputs[0].set_index = 2;
  ASSERT_EQ(DescribeOutputMargins(c).size(), 1u);
  EXPECT_EQ(DescribeOutputMargins(c)[0].rfind("y set 2: cosine 0.9991", 0), 0u);
}

TEST(ModelSummaryTest, DivergenceNamesTheNodeItsOpAndTheErrors) {
  DivergenceRecord d;
  d.node = "relu_3";
  d.op = "Relu";
  d.value = "y3";
  d.set_index = 1;
  d.max_abs_error = 0.5;
  d.max_rel_error = 1;
  EXPECT_EQ(DescribeDivergence(d),
            "node relu_3 (Relu) computing y3, set 1: max abs err 0.5, max rel err 1");
}

}  // namespace
}  // namespace onnxgate
