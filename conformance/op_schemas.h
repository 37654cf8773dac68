// What ONNX itself says about operators, from libonnx's schema registry (ONNX 1.12): every
// operator of the default domain and ai.onnx.ml with its version history, and the active
// version of each op a model uses (Schema(op, model_opset, domain)->SinceVersion()).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

// The highest opset of each domain that onnxgate's conformance knowledge covers.
inline constexpr int kMaxDefaultOpset = 17;
inline constexpr int kMaxMlOpset = 3;

struct OperatorVersions {
  std::string domain;   // "" for ai.onnx, "ai.onnx.ml", "ai.onnx.preview.training"
  std::string op_type;
  std::vector<int> since_versions;  // ascending, each <= the domain's max opset
  bool deprecated = false;          // the newest version is deprecated
};

// Every operator of the default domain (up to opset 17) and ai.onnx.ml (up to 3), sorted by
// domain and name.
std::vector<OperatorVersions> AllOperators();

// An op used by a model at its active version.
struct ActiveOp {
  std::string domain;
  std::string op_type;
  int since_version = 0;  // 0 when ONNX has no schema for it at the model's opset
  bool operator<(const ActiveOp& o) const {
    return std::tie(domain, op_type, since_version) < std::tie(o.domain, o.op_type, o.since_version);
  }
  bool operator==(const ActiveOp& o) const {
    return domain == o.domain && op_type == o.op_type && since_version == o.since_version;
  }
};

// The distinct ops of a model file (.onnx, or ONNX text format .onnxtxt), subgraphs included,
// at their active versions, in order of first use. Errors name the file.
StatusOr<std::vector<ActiveOp>> ActiveOpsOfModel(const std::string& path);

// "Conv" for the default domain, "ai.onnx.ml.LabelEncoder" otherwise.
std::string QualifiedOpName(const std::string& domain, const std::string& op_type);

}  // namespace onnxgate
