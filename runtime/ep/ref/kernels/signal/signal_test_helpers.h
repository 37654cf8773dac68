// Test helper for the signal kernels (DFT, STFT, windows, MelWeightMatrix): runs one node, written
// in ONNX text syntax, on the signal family's registration table at opset 17.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/value.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {

inline StatusOr<std::vector<Value>> RunSignalNode(const std::string& node,
                                                  const std::vector<Value>& inputs) {
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  return RunNode(*registry, node, 17, inputs);
}

}  // namespace onnxgate::ref
