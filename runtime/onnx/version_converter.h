// ONNX's version converter: a model rewritten for another opset of the default domain, up or
// down, and before that the nodes it cannot move there, each named with its op version and the
// opset where its op first exists.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// A default-domain node that ONNX's version converter cannot carry across one opset step on the
// way to the target: its op first exists after a down target, or the converter has no adapter
// for that step of its op.
struct ConversionBlocker {
  std::string node;  // the node's name, or "<op type>#<index in its graph>" when it has none
  std::string op_type;
  int op_version = 0;   // the op's version at the model's opset; 0 when ONNX knows none
  int first_opset = 0;  // the opset where the op first exists; 0 when ONNX knows no such op
  int from_opset = 0;   // the step without an adapter
  int to_opset = 0;
  std::string Describe() const;  // one line naming the node, the op version and the reason
};

// The nodes of `model` (in subgraphs too) that block its conversion from its default-domain
// opset to `target_opset`, in node order; empty when the converter has an adapter for every
// step of every node. Nodes of other domains are left as they are by the converter, and here.
std::vector<ConversionBlocker> ConversionBlockers(const onnx::ModelProto& model, int target_opset);

// The model converted to default-domain opset `target_opset`, up or down. InvalidArgument naming
// both opsets and then each blocking node (ConversionBlockers), or ONNX's reason when the
// converter fails otherwise.
StatusOr<onnx::ModelProto> ConvertOpset(const onnx::ModelProto& model, int target_opset);

}  // namespace onnxgate
