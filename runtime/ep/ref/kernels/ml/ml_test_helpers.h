// Shorthands for the ai.onnx.ml kernel tests: run one node at an ai.onnx.ml opset against every
// ref family.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {

inline const KernelRegistry& MlRegistry() {
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  return *registry;
}

// Runs `node` (its op written "ai.onnx.ml.Op") at ai.onnx.ml opset `opset`.
inline StatusOr<std::vector<Value>> RunMl(const std::string& node, int opset,
                                          const std::vector<Value>& inputs) {
  return RunNode(MlRegistry(), node, opset, inputs);
}

}  // namespace onnxgate::ref
