// CheckModelWithOnnx and InferShapesWithOnnx over ONNX's checker and shape inference.
#include "runtime/onnx/model_checks.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <unordered_map>

#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

// check_model(ModelProto, CheckerContext&) without reading the model from a path, so that the
// context carries the model's folder for external data.
void RunChecker(const onnx::ModelProto& model, const std::map<std::string, int>& opsets,
                const std::string& dir) {
  onnx::checker::CheckerContext ctx;
  ctx.set_ir_version(static_cast<int>(model.ir_version()));
  std::unordered_map<std::string, int> imports;
  for (const auto& opset : model.opset_import()) {
    imports[opset.domain()] = static_cast<int>(opset.version());
  }
  if (imports.empty()) imports[""] = opsets.at("");
  ctx.set_opset_imports(imports);
  ctx.set_model_dir(dir);
  onnx::checker::LexicalScopeContext lex;
  if (model.ir_version() >= 8) onnx::checker::check_model_local_functions(model, ctx, lex);
  onnx::checker::check_graph(model.graph(), ctx, lex);
}

}  // namespace

Status CheckModelWithOnnx(const onnx::ModelProto& model, const std::map<std::string, int>& opsets,
                          const std::string& dir) {
  try {
    RunChecker(model, opsets, dir);
  } catch (const std::exception& e) {
    return InvalidArgument(std::string("the ONNX ") + OnnxReleaseVersion() +
                           " checker rejects the model: " + e.what());
  }
  return OkStatus();
}

std::string InferShapesWithOnnx(onnx::ModelProto& model) {
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/false, /*strict_mode_val=*/0,
                                        /*data_prop_val=*/false);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    std::string what = e.what();
    return what.empty() ? "shape inference failed" : what;
  }
  return "";
}

}  // namespace onnxgate
