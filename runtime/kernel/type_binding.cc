// Type-constraint binding from the schema's formal parameters.
#include "runtime/kernel/type_binding.h"

#include <onnx/defs/schema.h>

namespace onnxgate {

namespace {

Status BindList(const onnx::OpSchema& schema,
                const std::vector<onnx::OpSchema::FormalParameter>& formals,
                const std::vector<DataType>& types, const char* what,
                std::map<std::string, DataType>* bound) {
  if (formals.empty()) return OkStatus();
  std::map<std::string, bool> is_constraint;
  for (const auto& c : schema.typeConstraintParams()) is_constraint[c.type_param_str] = true;
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] == DataType::kUndefined) continue;
    // Inputs past the last formal belong to it when it is variadic.
    size_t f = std::min(i, formals.size() - 1);
    if (i >= formals.size() && formals.back().GetOption() != onnx::OpSchema::Variadic) break;
    const std::string& type_str = formals[f].GetTypeStr();
    if (!is_constraint.count(type_str)) continue;
    auto it = bound->find(type_str);
    if (it == bound->end()) {
      (*bound)[type_str] = types[i];
    } else if (it->second != types[i] && formals[f].GetIsHomogeneous()) {
      return InvalidArgument(schema.Name() + ": " + what + " " + std::to_string(i) + " has type " +
                             DataTypeShortName(types[i]) + " but " + type_str +
                             " is already bound to " + DataTypeShortName(it->second));
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::map<std::string, DataType>> BindTypeConstraints(
    const onnx::OpSchema& schema, const std::vector<DataType>& input_types,
    const std::vector<DataType>& output_types) {
  std::map<std::string, DataType> bound;
  RETURN_IF_ERROR(BindList(schema, schema.inputs(), input_types, "input", &bound));
  RETURN_IF_ERROR(BindList(schema, schema.outputs(), output_types, "output", &bound));
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
