// Tests of TreeEnsemble: the suite's single tree and set membership ensembles worked by hand,
// the aggregations, post transforms, missing values, and the rejected encodings.
#include "runtime/ep/ref/kernels/ml/tree_ensemble.h"

#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/ml/ml_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::Pointwise;

// One tree: node 0 (x0 <= 3.14) -> node 1 (x0 <= 1.2 -> leaf 0 else leaf 1), else node 2
// (x0 <= 4.2 -> leaf 2 else leaf 3); leaves 0 and 2 feed target 0, 1 and 3 target 1.
std::string SingleTree(const std::string& extra) {
  return "y = ai.onnx.ml.TreeEnsemble <" + extra +
         "n_targets = 2, tree_roots = [0], nodes_featureids = [0, 0, 0], "
         "nodes_modes = uint8[3] {0, 0, 0}, nodes_splits = double[3] {3.14, 1.2, 4.2}, "
         "nodes_truenodeids = [1, 0, 1], nodes_trueleafs = [0, 1, 1], "
         "nodes_falsenodeids = [2, 2, 3], nodes_falseleafs = [0, 1, 1], "
         "leaf_targetids = [0, 1, 0, 1], leaf_weights = double[4] {5.23, 12.12, -12.23, 7.21}> (x)";
}

TEST(TreeEnsembleTest, SingleTree) {
  ASSERT_OK_AND_ASSIGN(
      auto y,
      RunMl(SingleTree(""), 5, {TensorValue<double>({3, 2}, {1.2, 3.4, -0.12, 1.66, 4.14, 1.77})}));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(3, 2));
  EXPECT_THAT(ValuesOf<double>(y[0]), ElementsAre(5.23, 0, 5.23, 0, 0, 12.12));
}

TEST(TreeEnsembleTest, PostTransforms) {
  const Value x = TensorValue<double>({1, 1}, {1.0});  // reaches leaf 0: target 0 gets 5.23
  const double e = std::exp(-5.23);
  ASSERT_OK_AND_ASSIGN(auto y, RunMl(SingleTree("post_transform = 2, "), 5, {x}));
  EXPECT_THAT(ValuesOf<double>(y[0]), Pointwise(DoubleNear(1e-12), {1 / (1 + e), 0.5}));
  ASSERT_OK_AND_ASSIGN(y, RunMl(SingleTree("post_transform = 1, "), 5, {x}));
  EXPECT_THAT(ValuesOf<double>(y[0]), Pointwise(DoubleNear(1e-12), {1 / (1 + e), e / (1 + e)}));
  ASSERT_OK_AND_ASSIGN(y, RunMl(SingleTree("post_transform = 3, "), 5, {x}));
  EXPECT_THAT(ValuesOf<double>(y[0]), ElementsAre(1, 0));
}

TEST(TreeEnsembleTest, ProbitUsesTheInverseErrorFunction) {
  for (double v : {-0.99, -0.5, 0.0, 0.3, 0.999999}) {
    EXPECT_NEAR(std::erf(ErfInv(v)), v, 1e-14) << v;
  }
  EXPECT_TRUE(std::isinf(ErfInv(1)));
  EXPECT_TRUE(std::isnan(ErfInv(2)));
}

// Two one-node trees on feature 0 (<= 0 -> leaf 0 else 1) and feature 1 (< 5 -> leaf 2 else 3),
// all leaves on target 0 with weights 1, 2, 4, 8.
std::string TwoTrees(const std::string& extra) {
  return "y = ai.onnx.ml.TreeEnsemble <" + extra +
         "n_targets = 1, tree_roots = [0, 1], nodes_featureids = [0, 1], "
         "nodes_modes = uint8[2] {0, 1}, nodes_splits = float[2] {0, 5}, "
         "nodes_truenodeids = [0, 2], nodes_trueleafs = [1, 1], "
         "nodes_falsenodeids = [1, 3], nodes_falseleafs = [1, 1], "
         "leaf_targetids = [0, 0, 0, 0], leaf_weights = float[4] {1, 2, 4, 8}> (x)";
}

TEST(TreeEnsembleTest, Aggregations) {
  const Value x = TensorValue<float>({2, 2}, {-1, 7, 1, 3});  // leaves {0, 3} and {1, 2}
  ASSERT_OK_AND_ASSIGN(auto y, RunMl(TwoTrees(""), 5, {x}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(9, 6));
  ASSERT_OK_AND_ASSIGN(y, RunMl(TwoTrees("aggregate_function = 0, "), 5, {x}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(4.5, 3));
  ASSERT_OK_AND_ASSIGN(y, RunMl(TwoTrees("aggregate_function = 2, "), 5, {x}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, 2));
  ASSERT_OK_AND_ASSIGN(y, RunMl(TwoTrees("aggregate_function = 3, "), 5, {x}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(8, 4));
}

TEST(TreeEnsembleTest, MissingValuesFollowTheirFlag) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Value x = TensorValue<float>({1, 2}, {nan, nan});
  ASSERT_OK_AND_ASSIGN(auto y, RunMl(TwoTrees(""), 5, {x}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(10));  // both false: 2 + 8
  ASSERT_OK_AND_ASSIGN(y, RunMl(TwoTrees("nodes_missing_value_tracks_true = [1, 0], "), 5, {x}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(9));  // 1 + 8
}

TEST(TreeEnsembleTest, SetMembership) {
  // Node 0: x0 <= 11 -> node 1, else node 2; node 1: x0 in {1.2, 3.7, 8, 9} -> leaf 0 else 1 ...
  const std::string node =
      "y = ai.onnx.ml.TreeEnsemble <n_targets = 4, tree_roots = [0], "
      "nodes_featureids = [0, 0, 0], nodes_modes = uint8[3] {0, 6, 6}, "
      "nodes_splits = float[3] {11, 232344, nan}, nodes_truenodeids = [1, 0, 1], "
      "nodes_trueleafs = [0, 1, 1], nodes_falsenodeids = [2, 2, 3], nodes_falseleafs = [1, 0, 1], "
      "leaf_targetids = [0, 1, 2, 3], leaf_weights = float[4] {1, 10, 1000, 100}, "
      "membership_values = float[8] {1.2, 3.7, 8, 9, nan, 12, 7, nan}> (x)";
  ASSERT_OK_AND_ASSIGN(
      auto y, RunMl(node, 5, {TensorValue<float>({6, 1}, {1.2f, 3.4f, -0.12f, 10, 12, 7})}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, 0, 0, 0,  // 1.2: member of the first set
                                                 0, 0, 0, 100, 0, 0, 0, 100, 0, 0, 0, 100, 0, 0,
                                                 1000, 0,        // 12 > 11: node 0's false leaf
                                                 0, 10, 0, 0));  // 7: a member of node 2's set
}

TEST(TreeEnsembleTest, RejectedEncodingsAndInputs) {
  const Value x = TensorValue<float>({1, 2}, {0, 0});
  for (const std::string& bad :
       {// A branch naming a leaf that does not exist; a target outside n_targets; a bad mode;
        // lengths differing; a member node without its set; an unknown aggregation.
        std::string("y = ai.onnx.ml.TreeEnsemble <n_targets = 1, tree_roots = [0], "
                    "nodes_featureids = [0], nodes_modes = uint8[1] {0}, "
                    "nodes_splits = float[1] {0}, nodes_truenodeids = [0], nodes_trueleafs = [1], "
                    "nodes_falsenodeids = [5], nodes_falseleafs = [1], leaf_targetids = [0], "
                    "leaf_weights = float[1] {1}> (x)"),
        std::string("y = ai.onnx.ml.TreeEnsemble <n_targets = 1, tree_roots = [0], "
                    "nodes_featureids = [0], nodes_modes = uint8[1] {0}, "
                    "nodes_splits = float[1] {0}, nodes_truenodeids = [0], nodes_trueleafs = [1], "
                    "nodes_falsenodeids = [0], nodes_falseleafs = [1], leaf_targetids = [1], "
                    "leaf_weights = float[1] {1}> (x)"),
        std::string("y = ai.onnx.ml.TreeEnsemble <n_targets = 1, tree_roots = [0], "
                    "nodes_featureids = [0], nodes_modes = uint8[1] {9}, "
                    "nodes_splits = float[1] {0}, nodes_truenodeids = [0], nodes_trueleafs = [1], "
                    "nodes_falsenodeids = [0], nodes_falseleafs = [1], leaf_targetids = [0], "
                    "leaf_weights = float[1] {1}> (x)"),
        std::string("y = ai.onnx.ml.TreeEnsemble <n_targets = 1, tree_roots = [0], "
                    "nodes_featureids = [0, 1], nodes_modes = uint8[1] {0}, "
                    "nodes_splits = float[1] {0}, nodes_truenodeids = [0], nodes_trueleafs = [1], "
                    "nodes_falsenodeids = [0], nodes_falseleafs = [1], leaf_targetids = [0], "
                    "leaf_weights = float[1] {1}> (x)"),
        std::string("y = ai.onnx.ml.TreeEnsemble <n_targets = 1, tree_roots = [0], "
                    "nodes_featureids = [0], nodes_modes = uint8[1] {6}, "
                    "nodes_splits = float[1] {0}, nodes_truenodeids = [0], nodes_trueleafs = [1], "
                    "nodes_falsenodeids = [0], nodes_falseleafs = [1], leaf_targetids = [0], "
                    "leaf_weights = float[1] {1}> (x)"),
        TwoTrees("aggregate_function = 4, ")}) {
    EXPECT_ERROR_CODE(RunMl(bad, 5, {x}), kInvalidArgument);
  }
  // A feature X lacks, a cycle between interior nodes, X not 2-D.
  EXPECT_ERROR_CODE(RunMl(TwoTrees(""), 5, {TensorValue<float>({1, 1}, {0})}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunMl("y = ai.onnx.ml.TreeEnsemble <n_targets = 1, tree_roots = [0], "
                          "nodes_featureids = [0, 0], nodes_modes = uint8[2] {0, 0}, "
                          "nodes_splits = float[2] {0, 0}, nodes_truenodeids = [1, 0], "
                          "nodes_trueleafs = [0, 0], nodes_falsenodeids = [1, 0], "
                          "nodes_falseleafs = [0, 0], leaf_targetids = [0], "
                          "leaf_weights = float[1] {1}> (x)",
                          5, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunMl(TwoTrees(""), 5, {TensorValue<float>({2}, {0, 0})}), kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
