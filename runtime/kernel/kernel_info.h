// KernelInfo: what a kernel factory sees at load time: the node, its attributes with ONNX
// defaults applied by the caller, the active op version, the input types known statically,
// constant inputs, and a way to compile subgraph attributes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/kernel/op_kernel.h"

namespace onnx {
class NodeProto;
class AttributeProto;
class GraphProto;
}  // namespace onnx

namespace onnxgate {

class KernelInfo {
 public:
  using SubgraphCompiler =
      std::function<StatusOr<std::shared_ptr<const SubgraphExecutor>>(const onnx::GraphProto&)>;

  // `node` must outlive this object. `input_types[i]` is the element type of input i when known
  // (kUndefined when not known, or when the input is omitted).
  KernelInfo(const onnx::NodeProto& node, int since_version, std::vector<DataType> input_types,
             std::vector<const Tensor*> constant_inputs = {}, SubgraphCompiler compiler = nullptr);

  const onnx::NodeProto& node() const { return node_; }
  const std::string& op_type() const;
  const std::string& name() const;
  int since_version() const { return since_version_; }
  size_t num_inputs() const;   // as written in the node, omitted optional inputs included
  size_t num_outputs() const;  // as written in the node
  // Whether input i is given (not omitted with an empty name).
  bool has_input(size_t i) const;
  bool has_output(size_t i) const;
  DataType input_type(size_t i) const;
  // The value of input i when it is an initializer or Constant known at load, else nullptr.
  const Tensor* constant_input(size_t i) const;

  bool has_attribute(const std::string& name) const;
  const onnx::AttributeProto* attribute(const std::string& name) const;
  // Typed getters: the value, `default_value` when absent, InvalidArgument when of another type.
  StatusOr<int64_t> GetInt(const std::string& name,
                           std::optional<int64_t> default_value = {}) const;
  StatusOr<float> GetFloat(const std::string& name, std::optional<float> default_value = {}) const;
  StatusOr<std::string> GetString(const std::string& name,
                                  std::optional<std::string> default_value = {}) const;
  StatusOr<std::vector<int64_t>> GetInts(
      const std::string& name, std::optional<std::vector<int64_t>> default_value = {}) const;
  StatusOr<std::vector<float>> GetFloats(
      const std::string& name, std::optional<std::vector<float>> default_value = {}) const;
  StatusOr<std::vector<std::string>> GetStrings(
      const std::string& name, std::optional<std::vector<std::string>> default_value = {}) const;
  StatusOr<Tensor> GetTensor(const std::string& name) const;
  // Compiles the graph attribute `name` (If's branches, Loop's and Scan's body).
  StatusOr<std::shared_ptr<const SubgraphExecutor>> CompileSubgraph(const std::string& name) const;

  // "Conv node 'conv1' (version 11)" for error messages.
  std::string Describe() const;

 private:
  const onnx::NodeProto& node_;
  int since_version_;
  std::vector<DataType> input_types_;
  std::vector<const Tensor*> constant_inputs_;
  SubgraphCompiler compiler_;
};

}  // namespace onnxgate
