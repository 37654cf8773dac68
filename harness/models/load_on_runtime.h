// Loading a model file on a runtime in the format the runtime reads. A runtime that reads only
// binary ONNX (RuntimeUnderTest::ReadsOnnxText is false: a plugin or an adapter over another
// runtime's API) is given a binary scratch copy of a text model (.onnxtxt, harness/models/
// scratch_model.h, with copies of its external data beside it), made from the parse the harness
// already has; the copy lives as long as the loaded model (a runtime may read its file again while
// running) and is removed with it, and the errors of the load and of every run name the user's
// file, not the copy. Every other model, and every model on a runtime that reads text, is loaded
// from its own path.
#pragma once

#include <memory>
#include <string>

#include "runtime/api/runtime.h"
#include "runtime/base/status.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

// Loads `model_path` on `runtime`. `file`, when given, is that path's ModelFile (read once by the
// caller); otherwise it is read here when a copy is needed. Errors of writing the copy name the
// model ("<model_path>: cannot hand a binary copy to <runtime>: ...").
StatusOr<std::unique_ptr<LoadedModel>> LoadOnRuntime(const RuntimeUnderTest& runtime,
                                                     const std::string& model_path,
                                                     const LoadOptions& load,
                                                     const ModelFile* file = nullptr);

}  // namespace onnxgate
