// The result of a model step run in a worker, as bytes for the way back to the parent: either
// the step's error (its status code and message) or groups of named values (a run's feeds, its
// outputs, ...). Values travel as ONNX stores test data (runtime/proto/tensor_proto.h's
// SerializeValueProto and ParseValueProto), so every kind a runtime returns (tensors,
// sequences, optionals) comes back unchanged.
#pragma once

#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

using ValueGroups = std::vector<std::vector<NamedValue>>;

// A step's error or its text result (a step that returns JSON, say), framed.
std::string EncodeStepResult(const StatusOr<std::string>& result);
// The inverse; DataLoss naming `source` for bytes that are not such a frame.
StatusOr<std::string> DecodeStepResult(const std::string& bytes, const std::string& source);

// Value groups as bytes, and back. Decoding checks every length against what is left, so a
// truncated or garbled payload is DataLoss naming `source`, never an over-read or a huge
// allocation.
std::string EncodeValueGroups(const ValueGroups& groups);
StatusOr<ValueGroups> DecodeValueGroups(const std::string& bytes, const std::string& source);

}  // namespace onnxgate
