// Helpers shared by If, Loop and Scan: the outer scope a body runs in, scalar condition and
// count inputs, the declared types of a body's outputs, and stacking per-iteration outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/base/value.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

// The scope the kernel runs in, or an empty one when it runs outside any graph (unit tests).
const Scope& OuterScopeOf(const KernelContext& ctx);

// The single element of a bool tensor (scalar or of any shape with one element).
StatusOr<bool> ReadBoolScalar(const Tensor& t, const char* name);
// The single element of an int64 tensor (scalar or of any shape with one element).
StatusOr<int64_t> ReadInt64Scalar(const Tensor& t, const char* name);

// What a graph's output declares about its type; for stacked outputs that no iteration
// produced, the only source of their element type and per-iteration shape.
struct DeclaredType {
  DataType elem_type = DataType::kUndefined;  // kUndefined when not declared
  std::optional<std::vector<int64_t>> dims;   // nullopt: rank unknown; -1: dim unknown
};

// The declared types of the outputs of the graph attribute `attr` (empty when it is absent).
std::vector<DeclaredType> DeclaredOutputTypes(const KernelInfo& info, const std::string& attr);

// The output of stacking zero items of the declared type: the declared per-iteration dims with
// 0 inserted at `axis` (normalized in [0, rank]); unknown dims count as 0 and an unknown rank
// gives shape [0]. InvalidArgument when the element type is not declared.
StatusOr<Tensor> EmptyStack(const DeclaredType& type, int64_t axis, const std::string& what);

// Stacks same-shaped tensors along a new dim at `axis` (normalized in [0, rank]).
StatusOr<Tensor> Stack(const std::vector<Tensor>& items, int64_t axis);

// The tensors of `x` along `axis` (normalized), each without that dim.
StatusOr<std::vector<Tensor>> Unstack(const Tensor& x, int64_t axis);

}  // namespace onnxgate::ref
