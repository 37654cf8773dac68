// The line every ai.onnx registration table of the ref EP is written in: one kernel for one
// version range of an op, with the element types of each of its schema's type constraints.
#pragma once

#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/kernel/kernel_def.h"
#include "runtime/kernel/kernel_registry.h"

namespace onnxgate::ref::table {

// The newest opset of each domain whose semantics the ref kernels were checked against (ONNX
// 1.23.2). Every range is closed (kernel_def.h): it ends right before the op's next since-version
// or at the since-version of the last version the kernel implements, so raising one of these
// claims nothing by itself; it lets a table claim a newer version once its kernel is checked.
// registration_test.cc passes them to CheckRegistrationRanges.
inline constexpr int kCheckedThroughOpset = 28;         // ai.onnx
inline constexpr int kCheckedThroughTrainingOpset = 1;  // ai.onnx.preview.training
inline constexpr int kCheckedThroughMlOpset = 5;        // ai.onnx.ml
inline constexpr int kCheckedThroughPreviewOpset = 1;   // ai.onnx.preview

// Registers `factory` for ai.onnx `op`, versions since..until (both inclusive, closed as
// kernel_def.h says), with the given type constraints.
inline Status Def(KernelRegistry& registry, const char* op, int since, int until,
                  std::vector<TypeConstraint> constraints, KernelFactory factory) {
  return registry.Register(
      KernelDef{"", op, since, until, std::move(constraints), std::move(factory)});
}

}  // namespace onnxgate::ref::table
