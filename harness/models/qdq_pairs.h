// QuantizeLinear -> DequantizeLinear pairs of a quantized model (QDQ format, as ONNX Runtime's
// quantizer writes them): which dequantized tensor stands for which float tensor name, so that a
// quantized model's intermediate values can be compared with its float parent's by name (the way
// ONNX Runtime's qdq_loss_debug matches them).
#pragma once

#include <map>
#include <string>

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// For each main-graph QuantizeLinear whose output feeds a DequantizeLinear: the Q node's float
// input name -> the DQ node's output name. Where one float tensor is quantized more than once,
// the first pair in node order wins. Domains "" and "com.microsoft" both count.
std::map<std::string, std::string> DequantizedTensorOf(const onnx::ModelProto& model);

}  // namespace onnxgate
