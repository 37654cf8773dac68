// The line every ai.onnx registration table of the ref EP is written in: one kernel for one
// version range of an op, with the element types of each of its schema's type constraints.
#pragma once

#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/kernel/kernel_def.h"
#include "runtime/kernel/kernel_registry.h"

namespace onnxgate::ref::table {

// The `until` of a range that is open to every later opset.
inline constexpr int kOpen = kOpenEndedVersion;

// Registers `factory` for ai.onnx `op`, versions since..until, with the given type constraints.
inline Status Def(KernelRegistry& registry, const char* op, int since, int until,
                  std::vector<TypeConstraint> constraints, KernelFactory factory) {
  return registry.Register(
      KernelDef{"", op, since, until, std::move(constraints), std::move(factory)});
}

}  // namespace onnxgate::ref::table
