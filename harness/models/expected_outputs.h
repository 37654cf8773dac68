// Expected outputs computed outside onnxgate (PyTorch, TensorFlow, JAX, NumPy, a production log),
// given to `onnxgate record --expected` as one NumPy .npz per data set, an array per model output.
// They become a golden only after they are checked against what the model declares: the same
// output names, each with the declared element type, rank and fixed sizes, and each symbolic
// dimension at the size the data set's inputs give it.
#pragma once

#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace onnxgate {

// What a model's graph declares for the values it is fed (inputs without an initializer) and
// the values it returns, in graph order, read from the model itself (no runtime involved).
struct DeclaredIo {
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
};
DeclaredIo DeclaredIoOf(const onnx::ModelProto& model);

// Reads the expected outputs of one data set from the .npz at `path` (`set` names the data set in
// messages) and checks them against `outputs` as declared: every output present, no other array,
// each a tensor of the declared element type, rank and fixed sizes. The values come in output
// order. InvalidArgument naming the file, the set and the output; the .npz reader's errors as they
// are (a member that is not an array, pickled objects, ...).
StatusOr<std::vector<NamedValue>> ReadExpectedOutputs(const std::string& path,
                                                      const std::string& set,
                                                      const std::vector<ValueInfo>& outputs);

// Checks that every symbolic dimension of the declared outputs that the declared inputs also use
// has, in `expected`, the size the set's `inputs` give it (an expected [3, 4] for an output
// [batch, 4] fed a batch of 2 is refused). InvalidArgument naming the file, the set, the output
// and the dimension.
Status CheckSymbolicSizes(const DeclaredIo& declared, const std::vector<NamedValue>& inputs,
                          const std::vector<NamedValue>& expected, const std::string& path,
                          const std::string& set);

}  // namespace onnxgate
