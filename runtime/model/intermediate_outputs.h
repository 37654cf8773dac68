// Every intermediate value of a model as a graph output, for layer-by-layer comparisons
// (`onnxgate diff --layerwise`): a run of the rewritten model returns what each node computed,
// so two runtimes or optimization levels can be compared node by node.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// A value added to the graph outputs and the node that computes it (unnamed nodes named
// "<op_type>#<index>", as sessions name them).
struct ExposedValue {
  std::string value;
  std::string node;
  std::string op_type;
  std::string domain;  // the node's op domain; "" for ai.onnx
  int node_index = 0;  // the node's position in the graph
};

// Adds every output of every main-graph node that is not a graph input or output already and
// whose element type is known after type inference (run as model loading runs it, in a child
// process) to the graph outputs of `model`, in node order, and returns them in that order.
// Values without an inferred tensor type (sequences, maps, types inference cannot tell) are left
// out. InvalidArgument when type inference fails outright.
StatusOr<std::vector<ExposedValue>> ExposeIntermediateOutputs(onnx::ModelProto& model);

// The main-graph node computing each graph output, in node order (graph outputs that are graph
// inputs or initializers have none and are left out).
std::vector<ExposedValue> GraphOutputProducers(const onnx::ModelProto& model);

}  // namespace onnxgate
