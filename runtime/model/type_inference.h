// Shape and type inference with ONNX's library, optionally in a child process. Some of ONNX
// 1.12's inference functions indexed out of range on models that pass its checker
// (LayerNormalization with axis < -rank wrote dim(-1)), which corrupts or kills the process that
// loads the model; in a child, such a crash only costs the inferred types.
//
// The child for ONNX's inference is forked once per process and serves every isolated load
// after it (a fork per load was most of the cost of a gate): each load sends the serialized
// model and gets the types back. A crash or hang still costs only that load's types, and the
// next load gets a fresh child. A model larger than the server takes (16 MiB serialized, which
// a request would copy whole) gets a fork of its own, as every model did before.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

namespace onnx {
class ModelProto;
}

namespace onnxgate {

struct InferenceResult {
  bool ok = true;        // inference finished (errors it reports on single nodes are tolerated)
  bool crashed = false;  // the child died or timed out (a libonnx bug), rather than reporting
  std::string detail;    // what went wrong when !ok: the exception, the signal, the timeout
};

// Adds inferred types to the value_info (and graph outputs) of `model` and all its subgraphs.
// With `isolate`, inference runs in a child process (the shared server above, or a fork of its
// own for a large model) that sends the types back over a pipe and is given `timeout_seconds`;
// when it fails, `model` is left as it was.
InferenceResult InferTypes(onnx::ModelProto& model, bool isolate, int timeout_seconds = 60);

// Adds types to `model` in place; "" on success, else the first error.
using ShapeInferenceFn = std::function<std::string(onnx::ModelProto&)>;
// InferTypes with another inference function: tests use one that crashes or hangs, since the
// isolation must hold whatever bug a future ONNX release brings. With `isolate` it runs in a
// server of its own, started and ended within the call (the same path as InferTypes', not
// shared).
InferenceResult InferTypesWith(onnx::ModelProto& model, bool isolate, int timeout_seconds,
                               const ShapeInferenceFn& infer);

// The process serving this process's isolated InferTypes calls, -1 when none is running (for
// tests).
pid_t ShapeInferenceServerPid();

}  // namespace onnxgate
