// RunNode: parse a node in ONNX text syntax, find its kernel, build it and run it.
#include "runtime/kernel/kernel_test_util.h"

#include <onnx/onnx_pb.h>

#include "runtime/kernel/kernel_info.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/onnx/text_format.h"
#include "runtime/onnx/type_binding.h"

namespace onnxgate {

KernelRegistry RegistryOf(Status (*register_fn)(KernelRegistry&)) {
  KernelRegistry registry;
  Status st = register_fn(registry);
  if (!st.ok()) {
    std::fprintf(stderr, "registration failed: %s\n", st.ToString().c_str());
    std::abort();
  }
  return registry;
}

StatusOr<std::vector<Value>> RunNode(const KernelRegistry& registry, const std::string& node_text,
                                     int opset, const std::vector<Value>& inputs) {
  onnx::NodeProto node;
  Status parsed = ParseNodeText(node_text, &node);
  if (!parsed.ok()) return parsed.WithContext("node '" + node_text + "'");
  const std::optional<OpSpec> schema = OpSpec::Find(node.op_type(), opset, node.domain());
  if (!schema) {
    return Unimplemented("no ONNX schema for " + node.op_type() + " at opset " +
                         std::to_string(opset));
  }
  std::vector<DataType> input_types;
  std::vector<const Value*> input_ptrs;
  for (int i = 0; i < node.input_size(); ++i) {
    const Value* v = (static_cast<size_t>(i) < inputs.size() && !node.input(i).empty() &&
                      inputs[i].kind() != Value::Kind::kNone)
                         ? &inputs[i]
                         : nullptr;
    input_ptrs.push_back(v);
    input_types.push_back(v ? v->elem_type() : DataType::kUndefined);
  }
  ONNXGATE_ASSIGN_OR_RETURN(auto bound, BindTypeConstraints(*schema, input_types, {}));
  ONNXGATE_ASSIGN_OR_RETURN(const KernelDef* def, registry.Find(node.domain(), node.op_type(),
                                                                schema->since_version(), bound));
  // No constant inputs: kernels are exercised on the general path where inputs arrive at run time.
  KernelInfo info(node, schema->since_version(), input_types);
  // As the session does, the node is named once, around the kernel's own message.
  auto kernel = def->factory(info);
  if (!kernel.ok()) return kernel.status().WithContext(info.Describe());
  KernelContext ctx(input_ptrs, static_cast<size_t>(node.output_size()), nullptr);
  Status computed = (*kernel)->Compute(ctx);
  if (!computed.ok()) return computed.WithContext(info.Describe());
  // As the session does for a graph output: a resident output is copied to the host.
  for (Value& out : ctx.outputs()) {
    if (!out.is_resident()) continue;
    auto host = out.resident().ToHost();
    if (!host.ok()) return host.status().WithContext(info.Describe());
    out = Value::FromTensor(std::move(host).value());
  }
  return std::move(ctx.outputs());
}

}  // namespace onnxgate
