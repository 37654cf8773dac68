// Type-constraint binding from the schema's formal parameters.
#include "runtime/onnx/type_binding.h"

#include <algorithm>

namespace onnxgate {

namespace {

Status BindList(const OpSpec& spec,
                const std::map<std::string, std::vector<std::string>>& constraints,
                const std::vector<FormalParameter>& formals, const std::vector<DataType>& types,
                const char* what, std::map<std::string, DataType>* bound) {
  if (formals.empty()) return OkStatus();
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] == DataType::kUndefined) continue;
    // Values past the last formal belong to it when it is variadic.
    size_t f = std::min(i, formals.size() - 1);
    if (i >= formals.size() && formals.back().option != FormalParameter::Option::kVariadic) break;
    const std::string& type_str = formals[f].type_str;
    if (!constraints.count(type_str)) continue;
    auto it = bound->find(type_str);
    if (it == bound->end()) {
      (*bound)[type_str] = types[i];
    } else if (it->second != types[i] && formals[f].homogeneous) {
      return InvalidArgument(spec.op_type() + ": " + what + " " + std::to_string(i) + " has type " +
                             DataTypeShortName(types[i]) + " but " + type_str +
                             " is already bound to " + DataTypeShortName(it->second));
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::map<std::string, DataType>> BindTypeConstraints(
    const OpSpec& spec, const std::vector<DataType>& input_types,
    const std::vector<DataType>& output_types) {
  std::map<std::string, DataType> bound;
  const auto constraints = spec.type_constraints();
  ONNXGATE_RETURN_IF_ERROR(
      BindList(spec, constraints, spec.inputs(), input_types, "input", &bound));
  ONNXGATE_RETURN_IF_ERROR(
      BindList(spec, constraints, spec.outputs(), output_types, "output", &bound));
  return bound;
}

std::string BoundTypesToString(const std::map<std::string, DataType>& bound) {
  std::string s;
  for (const auto& [name, type] : bound) {
    if (!s.empty()) s += ", ";
    s += name + "=" + DataTypeShortName(type);
  }
  return s.empty() ? "no bound types" : s;
}

}  // namespace onnxgate
