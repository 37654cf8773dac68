// ConvertOpset over onnx::version_conversion::ConvertVersion.
#include "runtime/onnx/version_converter.h"

#include <onnx/onnx_pb.h>
#include <onnx/version_converter/convert.h>

#include <string>

#include "runtime/onnx/op_spec.h"

namespace onnxgate {

StatusOr<onnx::ModelProto> ConvertOpset(const onnx::ModelProto& model, int target_opset) {
  int from = -1;
  for (const auto& o : model.opset_import()) {
    if (NormalizeDomain(o.domain()).empty()) from = static_cast<int>(o.version());
  }
  const std::string what = "converting the model from opset " + std::to_string(from) +
                           " to opset " + std::to_string(target_opset);
  if (target_opset < 1 || target_opset > MaxOpset("")) {
    return InvalidArgument(what + ": ONNX " + OnnxReleaseVersion() + " knows opsets 1 to " +
                           std::to_string(MaxOpset("")));
  }
  try {
    return onnx::version_conversion::ConvertVersion(model, target_opset);
  } catch (const std::exception& e) {
    return InvalidArgument(what + ": " + e.what());
  }
}

}  // namespace onnxgate
