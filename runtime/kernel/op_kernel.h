// OpKernel: the compute half of an ONNX op. Attributes are parsed and validated once, in the
// kernel's factory (load time); Compute is const and may run from many threads at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnxgate {

// Values visible by name from enclosing graphs, for subgraphs that use outer-scope names.
class Scope {
 public:
  virtual ~Scope() = default;
  // nullptr when no enclosing graph defines `name`.
  virtual const Value* Lookup(const std::string& name) const = 0;
  // Where the run this scope belongs to counts its transfers; nullptr when nobody counts.
  virtual TransferStats* transfers() const { return nullptr; }
};

// A compiled subgraph (the body of If, Loop, Scan), runnable from a kernel's Compute.
class SubgraphExecutor {
 public:
  virtual ~SubgraphExecutor() = default;
  virtual const std::vector<std::string>& input_names() const = 0;
  virtual const std::vector<std::string>& output_names() const = 0;
  // Runs the subgraph with its formal inputs bound positionally; names it takes from enclosing
  // graphs resolve through `outer`.
  virtual StatusOr<std::vector<Value>> Run(const std::vector<Value>& inputs,
                                           const Scope& outer) const = 0;
};

// What a kernel sees while it runs: its inputs, room for its outputs, the enclosing scope.
class KernelContext {
 public:
  KernelContext(std::vector<const Value*> inputs, size_t num_outputs, const Scope* scope)
      : inputs_(std::move(inputs)), outputs_(num_outputs), scope_(scope) {}

  size_t num_inputs() const { return inputs_.size(); }
  // nullptr when input i is an omitted optional input (or beyond the node's inputs).
  const Value* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  bool has_input(size_t i) const { return input(i) != nullptr; }
  // The tensor of input i; nullptr when omitted or when it is not a tensor.
  const Tensor* input_tensor(size_t i) const {
    const Value* v = input(i);
    return v != nullptr && v->is_tensor() ? &v->tensor() : nullptr;
  }

  size_t num_outputs() const { return outputs_.size(); }
  void set_output(size_t i, Value v) { outputs_.at(i) = std::move(v); }
  void set_output(size_t i, Tensor t) { outputs_.at(i) = Value::FromTensor(std::move(t)); }
  std::vector<Value>& outputs() { return outputs_; }

  const Scope* scope() const { return scope_; }

 private:
  std::vector<const Value*> inputs_;
  std::vector<Value> outputs_;
  const Scope* scope_;
};

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual Status Compute(KernelContext& ctx) const = 0;
  // The memory domain (ResidentTensor::domain()) whose resident tensors this kernel reads as
  // they are; the executor gives it every other resident input as a host copy. nullptr (the
  // default): the kernel reads host tensors only. A kernel may output resident tensors of its
  // own domain only.
  virtual const void* resident_domain() const { return nullptr; }
};

}  // namespace onnxgate
