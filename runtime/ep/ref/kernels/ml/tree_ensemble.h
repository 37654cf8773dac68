// TreeEnsemble (ai.onnx.ml 5): every row of X [N, F] walks each tree from its root to a leaf;
// the leaves' weights are aggregated per target (AVERAGE, SUM, MIN, MAX) into Y [N, n_targets],
// then post-transformed (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class TreeAggregate { kAverage = 0, kSum = 1, kMin = 2, kMax = 3 };
enum class TreePostTransform {
  kNone = 0,
  kSoftmax = 1,
  kLogistic = 2,
  kSoftmaxZero = 3,
  kProbit = 4
};
enum class TreeNodeMode : uint8_t { kLeq = 0, kLt, kGte, kGt, kEq, kNeq, kMember };

// The ensemble as its attributes encode it, validated: every index in range.
struct TreeEnsembleModel {
  struct Node {
    TreeNodeMode mode = TreeNodeMode::kLeq;
    int64_t feature = 0;
    double split = 0;
    std::vector<double> members;  // kMember: the set, sorted
    bool missing_tracks_true = false;
    int64_t true_id = 0, false_id = 0;  // a node or, when the flag says so, a leaf
    bool true_leaf = false, false_leaf = false;
  };
  std::vector<Node> nodes;
  std::vector<double> leaf_weights;
  std::vector<int64_t> leaf_targets;
  std::vector<int64_t> roots;
  int64_t n_targets = 0;
  TreeAggregate aggregate = TreeAggregate::kSum;
  TreePostTransform post_transform = TreePostTransform::kNone;
};

// The inverse error function on (-1, 1) (+-inf at +-1, NaN outside), for PROBIT.
double ErfInv(double y);

class TreeEnsembleKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit TreeEnsembleKernel(TreeEnsembleModel model) : model_(std::move(model)) {}

  // The leaf that row `x` (F features, `x_type` rounding the thresholds) reaches from `root`.
  StatusOr<int64_t> LeafOf(const double* x, int64_t features, DataType x_type, int64_t root) const;

  TreeEnsembleModel model_;
};

}  // namespace onnxgate::ref
