// Text-format parsing over onnx::OnnxParser.
#include "runtime/onnx/text_format.h"

#include <onnx/defs/parser.h>
#include <onnx/onnx_pb.h>

#include <stdexcept>

#include "runtime/base/nesting_depth.h"

namespace onnxgate {

namespace {

template <typename Proto>
Status Parse(const std::string& text, const std::string& what, Proto* out) {
  // The parser recurses per nested graph: a deep If chain would overflow the stack.
  ONNXGATE_RETURN_IF_ERROR(
      CheckNestingDepth(text, NestingSyntax::kOnnxText, kMaxOnnxTextNesting, what));
  try {
    onnx::Common::Status st = onnx::OnnxParser::Parse(*out, text.c_str());
    if (!st.IsOK()) return InvalidArgument(what + ": " + st.ErrorMessage());
  } catch (const std::invalid_argument& e) {
    // std::stof and friends throw with only their own name as the message.
    return InvalidArgument(what + ": a numeric literal is not a number (" + e.what() + ")");
  } catch (const std::out_of_range& e) {
    return InvalidArgument(what + ": a numeric literal is out of range (" + e.what() + ")");
  } catch (const std::exception& e) {
    return InvalidArgument(what + ": " + e.what());
  }
  return OkStatus();
}

}  // namespace

Status ParseModelText(const std::string& text, const std::string& display_name,
                      onnx::ModelProto* model) {
  return Parse(text, display_name + ": not a valid ONNX text model", model);
}

Status ParseNodeText(const std::string& text, onnx::NodeProto* node) {
  return Parse(text, "not a valid ONNX text node", node);
}

}  // namespace onnxgate
