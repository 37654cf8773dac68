// ONNX's text format (the syntax of onnx.parser), parsed into protobuf messages. Parser
// exceptions and errors become InvalidArgument naming what was parsed.
#pragma once

#include <string>

#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
class NodeProto;
}  // namespace onnx

namespace onnxgate {

// `display_name` (a file name, say) starts every error message.
Status ParseModelText(const std::string& text, const std::string& display_name,
                      onnx::ModelProto* model);
Status ParseNodeText(const std::string& text, onnx::NodeProto* node);

}  // namespace onnxgate
