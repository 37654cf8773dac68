// ONNX's checker and shape inference, behind onnxgate's Status: the one place where their
// exceptions are turned into values.
#pragma once

#include <map>
#include <string>

#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// Runs ONNX's checker on the model's graph, subgraphs and model-local functions, with `dir` as
// the folder external data is resolved against. `opsets` are the model's imports (domain ""
// for the default one). InvalidArgument("the ONNX <release> checker rejects the model: ...").
Status CheckModelWithOnnx(const onnx::ModelProto& model, const std::map<std::string, int>& opsets,
                          const std::string& dir);

// Runs ONNX's shape inference in this process, adding inferred types to the value_info and the
// graph outputs of `model` and its subgraphs. Errors on single nodes are tolerated (they leave
// those types unknown); the return value describes the first error, "" when there was none.
std::string InferShapesWithOnnx(onnx::ModelProto& model);

}  // namespace onnxgate
