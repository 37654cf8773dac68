// Test helpers for If, Loop and Scan: bodies written as C++ functions (standing in for compiled
// subgraphs, so that a kernel's iteration logic is tested apart from the session), a scope
// with named values, and a runner that builds a node with graph attributes.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/onnx/type_binding.h"

namespace onnxgate::ref {

// A body whose outputs a function computes; counts its runs.
class FakeBody : public SubgraphExecutor {
 public:
  using Fn = std::function<StatusOr<std::vector<Value>>(const std::vector<Value>&, const Scope&)>;
  FakeBody(size_t num_inputs, size_t num_outputs, Fn fn) : fn_(std::move(fn)) {
    for (size_t i = 0; i < num_inputs; ++i) inputs_.push_back("in" + std::to_string(i));
    for (size_t i = 0; i < num_outputs; ++i) outputs_.push_back("out" + std::to_string(i));
  }
  const std::vector<std::string>& input_names() const override { return inputs_; }
  const std::vector<std::string>& output_names() const override { return outputs_; }
  StatusOr<std::vector<Value>> Run(const std::vector<Value>& inputs,
                                   const Scope& outer) const override {
    ++runs_;
    if (inputs.size() != inputs_.size()) return Internal("wrong number of body inputs");
    return fn_(inputs, outer);
  }
  int runs() const { return runs_; }

 private:
  std::vector<std::string> inputs_, outputs_;
  Fn fn_;
  mutable int runs_ = 0;
};

class MapScope : public Scope {
 public:
  std::map<std::string, Value> values;
  const Value* Lookup(const std::string& name) const override {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  }
};

// A node of `op_type` with `num_inputs` inputs (names in `omitted` left empty), `num_outputs`
// outputs, and one graph attribute per entry of `graphs` (attribute name -> the declared
// element types and dims of the graph's outputs; an empty dims list leaves the shape unknown).
struct GraphOutputDecl {
  GraphOutputDecl(DataType t = DataType::kUndefined) : elem_type(t) {}  // NOLINT: implicit
  GraphOutputDecl(DataType t, std::vector<int64_t> d, bool shape)
      : elem_type(t), dims(std::move(d)), has_shape(shape) {}
  DataType elem_type;
  std::vector<int64_t> dims;  // -1: an unknown dim
  bool has_shape = false;
};
inline onnx::NodeProto MakeNode(const std::string& op_type, size_t num_inputs, size_t num_outputs,
                                const std::map<std::string, std::vector<GraphOutputDecl>>& graphs,
                                const std::vector<size_t>& omitted = {}) {
  onnx::NodeProto node;
  node.set_op_type(op_type);
  for (size_t i = 0; i < num_inputs; ++i) {
    bool skip = false;
    for (size_t o : omitted) skip = skip || o == i;
    node.add_input(skip ? "" : "x" + std::to_string(i));
  }
  for (size_t i = 0; i < num_outputs; ++i) node.add_output("y" + std::to_string(i));
  for (const auto& [name, outputs] : graphs) {
    onnx::AttributeProto* a = node.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    a->mutable_g()->set_name(name);
    for (const GraphOutputDecl& d : outputs) {
      onnx::ValueInfoProto* out = a->mutable_g()->add_output();
      out->set_name("out");
      auto* tt = out->mutable_type()->mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(d.elem_type));
      if (d.has_shape) {
        auto* shape = tt->mutable_shape();
        for (int64_t dim : d.dims) {
          if (dim >= 0) {
            shape->add_dim()->set_dim_value(dim);
          } else {
            shape->add_dim()->set_dim_param("N");
          }
        }
      }
    }
  }
  return node;
}

// Builds the kernel for `node` at `opset` with the graph attributes compiled to `bodies` (by
// attribute name) and runs it on `inputs` (undefined Values are omitted inputs) in `scope`.
inline StatusOr<std::vector<Value>> RunWithBodies(
    const KernelRegistry& registry, const onnx::NodeProto& node, int opset,
    const std::map<std::string, std::shared_ptr<const SubgraphExecutor>>& bodies,
    const std::vector<Value>& inputs, const Scope* scope = nullptr) {
  const std::optional<OpSpec> schema = OpSpec::Find(node.op_type(), opset, "");
  if (!schema) return Unimplemented("no schema for " + node.op_type());
  std::vector<DataType> types;
  std::vector<const Value*> ptrs;
  for (int i = 0; i < node.input_size(); ++i) {
    const bool given = static_cast<size_t>(i) < inputs.size() && !node.input(i).empty() &&
                       inputs[i].kind() != Value::Kind::kNone;
    ptrs.push_back(given ? &inputs[i] : nullptr);
    types.push_back(given ? inputs[i].elem_type() : DataType::kUndefined);
  }
  ONNXGATE_ASSIGN_OR_RETURN(auto bound, BindTypeConstraints(*schema, types, {}));
  ONNXGATE_ASSIGN_OR_RETURN(const KernelDef* def,
                            registry.Find("", node.op_type(), schema->since_version(), bound));
  KernelInfo::SubgraphCompiler compiler =
      [&bodies](const onnx::GraphProto& g) -> StatusOr<std::shared_ptr<const SubgraphExecutor>> {
    auto it = bodies.find(g.name());
    if (it == bodies.end()) return NotFound("no body for graph '" + g.name() + "'");
    return it->second;
  };
  KernelInfo info(node, schema->since_version(), types, {}, compiler);
  ONNXGATE_ASSIGN_OR_RETURN(auto kernel, def->factory(info));
  KernelContext ctx(ptrs, static_cast<size_t>(node.output_size()), scope);
  ONNXGATE_RETURN_IF_ERROR(kernel->Compute(ctx));
  return std::move(ctx.outputs());
}

}  // namespace onnxgate::ref
