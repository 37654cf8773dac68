// Binds a node's input and output element types to the type-constraint names of its ONNX schema
// ("T" -> float), so a registry can find the kernel that accepts them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/base/data_type.h"
#include "runtime/base/status.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

// `input_types[i]` / `output_types[i]` are the element types of the node's i-th input/output
// (kUndefined where unknown or omitted; for sequences and optionals, the element type).
// InvalidArgument when two values bound to one constraint have different types.
StatusOr<std::map<std::string, DataType>> BindTypeConstraints(
    const OpSpec& spec, const std::vector<DataType>& input_types,
    const std::vector<DataType>& output_types);

// "T=float, T1=int64" for messages.
std::string BoundTypesToString(const std::map<std::string, DataType>& bound);

}  // namespace onnxgate
