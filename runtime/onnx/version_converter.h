// ONNX's version converter: a model rewritten for another opset of the default domain.
#pragma once

#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// The model converted to default-domain opset `target_opset`. InvalidArgument naming both
// opsets and ONNX's reason when the converter cannot do it (an op with no adapter, say).
StatusOr<onnx::ModelProto> ConvertOpset(const onnx::ModelProto& model, int target_opset);

}  // namespace onnxgate
