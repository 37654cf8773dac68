// For kernel unit tests: runs one registered kernel on a node written in ONNX text syntax,
// e.g. RunNode(registry, "Y = Conv <strides = [2, 2]> (X, W)", 11, {x, w}).
#pragma once

#include <string>
#include <vector>

#include "runtime/base/value.h"
#include "runtime/kernel/kernel_registry.h"

namespace onnxgate {

// Parses `node_text`, resolves the active version of its op at `opset` from the ONNX schema
// registry, finds the kernel in `registry` for the input types, builds it and runs it.
// An undefined Value (Value()) in `inputs` stands for an omitted optional input; if the node
// names an input "" it is omitted as well. Returns the node's outputs, a resident one (a tensor
// left in a provider's layout) as its host copy, as a session returns graph outputs.
StatusOr<std::vector<Value>> RunNode(const KernelRegistry& registry, const std::string& node_text,
                                     int opset, const std::vector<Value>& inputs);

// A registry holding what `register_fn` registers (CHECKs that it succeeds).
KernelRegistry RegistryOf(Status (*register_fn)(KernelRegistry&));

// Shorthands for building inputs.
template <typename T>
Value TensorValue(Shape shape, const std::vector<T>& values) {
  return Value::FromTensor(Tensor::FromVector<T>(std::move(shape), values));
}

}  // namespace onnxgate
