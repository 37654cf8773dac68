// What ONNX itself says about the operators of a model: the active version of each op it uses
// (Schema(op, model_opset, domain)->SinceVersion(), through runtime/onnx), and every operator's
// version history for the op x version matrix.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/onnx/op_spec.h"

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// An op used by a model at its active version.
struct ActiveOp {
  std::string domain;
  std::string op_type;
  int since_version = 0;  // 0 when ONNX has no schema for it at the model's opset
  bool operator<(const ActiveOp& o) const {
    return std::tie(domain, op_type, since_version) <
           std::tie(o.domain, o.op_type, o.since_version);
  }
  bool operator==(const ActiveOp& o) const {
    return domain == o.domain && op_type == o.op_type && since_version == o.since_version;
  }
};

// The distinct ops of `model` (as runtime/model/model_file.h reads it), subgraphs included, at
// their active versions, in order of first use.
std::vector<ActiveOp> ActiveOpsOfModel(const onnx::ModelProto& model);

// "Conv" for the default domain, "ai.onnx.ml.LabelEncoder" otherwise.
std::string QualifiedOpName(const std::string& domain, const std::string& op_type);

}  // namespace onnxgate
