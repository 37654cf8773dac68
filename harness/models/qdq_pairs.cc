// QuantizeLinear -> DequantizeLinear pairs (see qdq_pairs.h).
#include "harness/models/qdq_pairs.h"

#include <onnx/onnx_pb.h>

namespace onnxgate {
namespace {

bool IsOp(const onnx::NodeProto& node, const char* op_type) {
  return node.op_type() == op_type &&
         (node.domain().empty() || node.domain() == "ai.onnx" || node.domain() == "com.microsoft");
}

}  // namespace

std::map<std::string, std::string> DequantizedTensorOf(const onnx::ModelProto& model) {
  // Quantized tensor name -> its DequantizeLinear's output.
  std::map<std::string, std::string> dequantized;
  for (const onnx::NodeProto& node : model.graph().node()) {
    if (IsOp(node, "DequantizeLinear") && node.input_size() > 0 && node.output_size() > 0) {
      dequantized.emplace(node.input(0), node.output(0));
    }
  }
  std::map<std::string, std::string> pairs;
  for (const onnx::NodeProto& node : model.graph().node()) {
    if (!IsOp(node, "QuantizeLinear") || node.input_size() == 0 || node.output_size() == 0) {
      continue;
    }
    auto dq = dequantized.find(node.output(0));
    if (dq != dequantized.end()) pairs.emplace(node.input(0), dq->second);
  }
  return pairs;
}

}  // namespace onnxgate
