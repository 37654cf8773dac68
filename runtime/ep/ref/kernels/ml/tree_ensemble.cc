// TreeEnsemble.
#include "runtime/ep/ref/kernels/ml/tree_ensemble.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>

namespace onnxgate::ref {

namespace {

// A tensor attribute's elements as doubles; InvalidArgument unless it is a float tensor.
StatusOr<std::vector<double>> FloatsAttribute(const KernelInfo& info, const char* name) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor t, info.GetTensor(name));
  if (!IsFloatingPoint(t.dtype())) {
    return InvalidArgument(std::string("'") + name + "' must be a float tensor, got " +
                           DataTypeShortName(t.dtype()));
  }
  std::vector<double> out(static_cast<size_t>(t.NumElements()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = t.ElementAsDouble(static_cast<int64_t>(i));
  return out;
}

// An enumeration attribute in [0, count).
StatusOr<int64_t> EnumAttribute(const KernelInfo& info, const char* name, int64_t fallback,
                                int64_t count) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t v, info.GetInt(name, fallback));
  if (v < 0 || v >= count) {
    return InvalidArgument(std::string("'") + name + "' must be in [0, " + std::to_string(count) +
                           "), got " + std::to_string(v));
  }
  return v;
}

// A threshold as X's element type holds it (X float or float16 compares against rounded
// thresholds, as a runtime storing them in X's type does).
double AsType(double v, DataType type) {
  if (type == DataType::kFloat) return static_cast<float>(v);
  if (type == DataType::kFloat16) return Float16::FromFloat(static_cast<float>(v)).ToFloat();
  return v;
}

void PostTransform(TreePostTransform transform, std::vector<double>& v) {
  switch (transform) {
    case TreePostTransform::kNone: return;
    case TreePostTransform::kLogistic:
      for (double& e : v) e = 1.0 / (1.0 + std::exp(-e));
      return;
    case TreePostTransform::kProbit:
      for (double& e : v) e = std::sqrt(2.0) * ErfInv(2.0 * e - 1.0);
      return;
    case TreePostTransform::kSoftmax:
    case TreePostTransform::kSoftmaxZero: {
      // SOFTMAX_ZERO leaves zeros at zero and normalises the others among themselves.
      const bool keep_zeros = transform == TreePostTransform::kSoftmaxZero;
      if (v.empty()) return;
      const double max = *std::max_element(v.begin(), v.end());
      double sum = 0;
      for (double& e : v) {
        e = keep_zeros && e == 0 ? 0 : std::exp(e - max);
        sum += e;
      }
      for (double& e : v) e = sum == 0 ? 0 : e / sum;
      return;
    }
  }
}

}  // namespace

double ErfInv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return std::numeric_limits<double>::infinity();
  if (y == -1) return -std::numeric_limits<double>::infinity();
  // Giles' single-precision approximation as the start, then Newton steps on erf(x) - y.
  const double w = -std::log((1.0 - y) * (1.0 + y));
  double x;
  if (w < 5.0) {
    const double t = w - 2.5;
    double p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941}) {
      p = c + p * t;
    }
    x = p * y;
  } else {
    const double t = std::sqrt(w) - 3.0;
    double p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682}) {
      p = c + p * t;
    }
    x = p * y;
  }
  for (int i = 0; i < 3; ++i) {
    const double err = std::erf(x) - y;
    x -= err / (1.1283791670955126 /* 2 / sqrt(pi) */ * std::exp(-x * x));
  }
  return x;
}

StatusOr<std::unique_ptr<OpKernel>> TreeEnsembleKernel::Create(const KernelInfo& info) {
  TreeEnsembleModel m;
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> featureids, info.GetInts("nodes_featureids"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> trueids, info.GetInts("nodes_truenodeids"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> falseids, info.GetInts("nodes_falsenodeids"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> trueleafs, info.GetInts("nodes_trueleafs"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> falseleafs, info.GetInts("nodes_falseleafs"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> splits, FloatsAttribute(info, "nodes_splits"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor modes, info.GetTensor("nodes_modes"));
  const size_t n = featureids.size();
  std::vector<int64_t> missing(n, 0);
  if (info.has_attribute("nodes_missing_value_tracks_true")) {
    ONNXGATE_ASSIGN_OR_RETURN(missing, info.GetInts("nodes_missing_value_tracks_true"));
  }
  if (modes.dtype() != DataType::kUint8) {
    return InvalidArgument(std::string("'nodes_modes' must be a uint8 tensor, got ") +
                           DataTypeShortName(modes.dtype()));
  }
  const std::vector<std::pair<const char*, size_t>> lengths = {
      {"nodes_truenodeids", trueids.size()},
      {"nodes_falsenodeids", falseids.size()},
      {"nodes_trueleafs", trueleafs.size()},
      {"nodes_falseleafs", falseleafs.size()},
      {"nodes_splits", splits.size()},
      {"nodes_modes", static_cast<size_t>(modes.NumElements())},
      {"nodes_missing_value_tracks_true", missing.size()}};
  for (const auto& [name, length] : lengths) {
    if (length != n) {
      return InvalidArgument(std::string("'") + name + "' has " + std::to_string(length) +
                             " entries but 'nodes_featureids' has " + std::to_string(n));
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(m.leaf_weights, FloatsAttribute(info, "leaf_weights"));
  ONNXGATE_ASSIGN_OR_RETURN(m.leaf_targets, info.GetInts("leaf_targetids"));
  if (m.leaf_targets.size() != m.leaf_weights.size()) {
    return InvalidArgument("'leaf_targetids' has " + std::to_string(m.leaf_targets.size()) +
                           " entries but 'leaf_weights' " + std::to_string(m.leaf_weights.size()));
  }
  const int64_t leaves = static_cast<int64_t>(m.leaf_weights.size());
  int64_t max_target = -1;
  for (int64_t t : m.leaf_targets) max_target = std::max(max_target, t);
  // Without 'n_targets' (the schema gives it no default) the targets the leaves name count.
  ONNXGATE_ASSIGN_OR_RETURN(m.n_targets, info.GetInt("n_targets", max_target + 1));
  for (int64_t t : m.leaf_targets) {
    if (t < 0 || t >= m.n_targets) {
      return InvalidArgument("leaf target id " + std::to_string(t) +
                             " is outside [0, n_targets = " + std::to_string(m.n_targets) + ")");
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t aggregate, EnumAttribute(info, "aggregate_function", 1, 4));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t post, EnumAttribute(info, "post_transform", 0, 5));
  m.aggregate = static_cast<TreeAggregate>(aggregate);
  m.post_transform = static_cast<TreePostTransform>(post);

  std::vector<double> members;
  if (info.has_attribute("membership_values")) {
    ONNXGATE_ASSIGN_OR_RETURN(members, FloatsAttribute(info, "membership_values"));
  }
  size_t next_member = 0;
  m.nodes.resize(n);
  for (size_t i = 0; i < n; ++i) {
    TreeEnsembleModel::Node& node = m.nodes[i];
    const uint8_t mode = modes.data<uint8_t>()[i];
    if (mode > static_cast<uint8_t>(TreeNodeMode::kMember)) {
      return InvalidArgument("node " + std::to_string(i) + " has mode " + std::to_string(mode) +
                             ", outside [0, 6]");
    }
    node.mode = static_cast<TreeNodeMode>(mode);
    node.feature = featureids[i];
    if (node.feature < 0) {
      return InvalidArgument("node " + std::to_string(i) + " has the negative feature id " +
                             std::to_string(node.feature));
    }
    node.split = splits[i];
    node.missing_tracks_true = missing[i] != 0;
    // The set members of the k-th BRANCH_MEMBER node are the k-th NaN-terminated run.
    if (node.mode == TreeNodeMode::kMember) {
      bool terminated = false;
      while (next_member < members.size()) {
        const double v = members[next_member++];
        if (std::isnan(v)) {
          terminated = true;
          break;
        }
        node.members.push_back(v);
      }
      if (!terminated) {
        return InvalidArgument(
            "'membership_values' has no NaN-terminated "
            "set for the BRANCH_MEMBER node " +
            std::to_string(i));
      }
      std::sort(node.members.begin(), node.members.end());
    }
    node.true_leaf = trueleafs[i] != 0;
    node.false_leaf = falseleafs[i] != 0;
    node.true_id = trueids[i];
    node.false_id = falseids[i];
    for (auto [id, leaf, name] : {std::make_tuple(node.true_id, node.true_leaf, "true"),
                                  std::make_tuple(node.false_id, node.false_leaf, "false")}) {
      const int64_t bound = leaf ? leaves : static_cast<int64_t>(n);
      if (id < 0 || id >= bound) {
        return InvalidArgument("node " + std::to_string(i) + "'s " + name + " branch names " +
                               (leaf ? "leaf " : "node ") + std::to_string(id) + ", outside [0, " +
                               std::to_string(bound) + ")");
      }
    }
  }
  if (next_member != members.size()) {
    return InvalidArgument(
        "'membership_values' holds more sets than there "
        "are BRANCH_MEMBER nodes");
  }
  ONNXGATE_ASSIGN_OR_RETURN(m.roots, info.GetInts("tree_roots"));
  for (int64_t r : m.roots) {
    if (r < 0 || r >= static_cast<int64_t>(n)) {
      return InvalidArgument("tree root " + std::to_string(r) + " is outside [0, " +
                             std::to_string(n) + ")");
    }
  }
  return std::unique_ptr<OpKernel>(new TreeEnsembleKernel(std::move(m)));
}

StatusOr<int64_t> TreeEnsembleKernel::LeafOf(const double* x, int64_t features, DataType x_type,
                                             int64_t root) const {
  int64_t id = root;
  // A path longer than the node count has gone round a cycle.
  for (size_t step = 0; step <= model_.nodes.size(); ++step) {
    const TreeEnsembleModel::Node& node = model_.nodes[static_cast<size_t>(id)];
    // Both branches on one leaf (a tree that is a single leaf): no comparison is needed.
    if (node.true_leaf && node.false_leaf && node.true_id == node.false_id) return node.true_id;
    if (node.feature >= features) {
      return InvalidArgument("node " + std::to_string(id) + " reads feature " +
                             std::to_string(node.feature) + ", but X has " +
                             std::to_string(features));
    }
    const double v = x[node.feature];
    const double s = AsType(node.split, x_type);
    bool go_true = false;
    switch (node.mode) {
      case TreeNodeMode::kLeq: go_true = v <= s; break;
      case TreeNodeMode::kLt: go_true = v < s; break;
      case TreeNodeMode::kGte: go_true = v >= s; break;
      case TreeNodeMode::kGt: go_true = v > s; break;
      case TreeNodeMode::kEq: go_true = v == s; break;
      case TreeNodeMode::kNeq: go_true = v != s; break;
      case TreeNodeMode::kMember:
        for (double member : node.members) go_true = go_true || v == AsType(member, x_type);
        break;
    }
    if (std::isnan(v) && node.missing_tracks_true) go_true = true;
    const bool leaf = go_true ? node.true_leaf : node.false_leaf;
    id = go_true ? node.true_id : node.false_id;
    if (leaf) return id;
  }
  return InvalidArgument("the tree at root " + std::to_string(root) + " has a cycle");
}

Status TreeEnsembleKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  if (x->shape().rank() != 2) {
    return InvalidArgument("X must be 2-D [N, F], got shape " + x->shape().ToString());
  }
  const int64_t rows = x->shape()[0], features = x->shape()[1];
  std::vector<double> xs(static_cast<size_t>(x->NumElements()));
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = x->ElementAsDouble(static_cast<int64_t>(i));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x->dtype(), Shape{rows, model_.n_targets}));
  const size_t targets = static_cast<size_t>(model_.n_targets);
  std::vector<double> sums(targets);
  std::vector<bool> reached(targets);
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(sums.begin(), sums.end(), 0.0);
    std::fill(reached.begin(), reached.end(), false);
    for (int64_t root : model_.roots) {
      ONNXGATE_ASSIGN_OR_RETURN(int64_t leaf,
                                LeafOf(xs.data() + r * features, features, x->dtype(), root));
      const size_t t = static_cast<size_t>(model_.leaf_targets[static_cast<size_t>(leaf)]);
      const double w = model_.leaf_weights[static_cast<size_t>(leaf)];
      switch (model_.aggregate) {
        case TreeAggregate::kSum:
        case TreeAggregate::kAverage: sums[t] += w; break;
        case TreeAggregate::kMin: sums[t] = reached[t] ? std::min(sums[t], w) : w; break;
        case TreeAggregate::kMax: sums[t] = reached[t] ? std::max(sums[t], w) : w; break;
      }
      reached[t] = true;
    }
    if (model_.aggregate == TreeAggregate::kAverage && !model_.roots.empty()) {
      for (double& s : sums) s /= static_cast<double>(model_.roots.size());
    }
    PostTransform(model_.post_transform, sums);
    for (size_t t = 0; t < targets; ++t) {
      const int64_t i = r * model_.n_targets + static_cast<int64_t>(t);
      switch (x->dtype()) {
        case DataType::kFloat16: y.mutable_data<Float16>()[i] = Float16::FromFloat(sums[t]); break;
        case DataType::kDouble: y.mutable_data<double>()[i] = sums[t]; break;
        default: y.mutable_data<float>()[i] = static_cast<float>(sums[t]); break;
      }
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
