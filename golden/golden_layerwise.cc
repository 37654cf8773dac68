// Smaller layerwise goldens (see golden_layerwise.h).
#include "golden/golden_layerwise.h"

#include <cmath>

namespace onnxgate {

namespace {

constexpr float kFloat16Max = 65504.0f;

bool FitsFloat16(const Tensor& t) {
  const float* x = t.data<float>();
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (std::isfinite(x[i]) && std::fabs(x[i]) > kFloat16Max) return false;
  }
  return true;
}

}  // namespace

Status CheckLayerwiseAttributes(const GoldenFile& golden, const std::string& where) {
  if (golden.layerwise_every < 1) {
    return InvalidArgument(where + "layerwise_every must be at least 1, got " +
                           std::to_string(golden.layerwise_every));
  }
  if (!golden.layerwise_precision.empty() && golden.layerwise_precision != kLayerwiseFloat16) {
    return InvalidArgument(where + "layerwise_precision must be '" + kLayerwiseFloat16 +
                           "' when present, got '" + golden.layerwise_precision + "'");
  }
  return OkStatus();
}

std::vector<bool> KeepEveryNthNode(const std::vector<int64_t>& node_indices, int64_t every) {
  std::vector<bool> keep(node_indices.size(), true);
  if (every <= 1 || node_indices.empty()) return keep;
  int64_t position = -1;  // of the current node among the distinct nodes
  for (size_t i = 0; i < node_indices.size(); ++i) {
    if (i == 0 || node_indices[i] != node_indices[i - 1]) ++position;
    const bool last_node = node_indices[i] == node_indices.back();
    keep[i] = last_node || (position + 1) % every == 0;
  }
  return keep;
}

Value NarrowToFloat16(const Value& value) {
  if (!value.is_tensor() || value.tensor().dtype() != DataType::kFloat) return value;
  const Tensor& t = value.tensor();
  if (!FitsFloat16(t)) return value;
  Tensor narrow(DataType::kFloat16, t.shape());
  const float* x = t.data<float>();
  Float16* out = narrow.mutable_data<Float16>();
  for (int64_t i = 0; i < t.NumElements(); ++i) out[i] = Float16::FromFloat(x[i]);
  return Value::FromTensor(std::move(narrow));
}

Value WidenFloat16(const Value& value) {
  if (!value.is_tensor() || value.tensor().dtype() != DataType::kFloat16) return value;
  const Tensor& t = value.tensor();
  Tensor wide(DataType::kFloat, t.shape());
  const Float16* x = t.data<Float16>();
  float* out = wide.mutable_data<float>();
  for (int64_t i = 0; i < t.NumElements(); ++i) out[i] = x[i].ToFloat();
  return Value::FromTensor(std::move(wide));
}

}  // namespace onnxgate
