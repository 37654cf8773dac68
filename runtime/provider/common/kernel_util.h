// Helpers every provider's kernels share: output allocation with a size guard, input access with
// uniform messages (the one way a kernel reads a tensor input), and integer-list inputs (shapes,
// axes, indices) read as int64.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate {

// Largest output one kernel allocates. Output shapes can come from tensor data (Expand, Tile,
// ConstantOfShape, Range); a bad value must give an error, not exhaust the machine's memory.
inline constexpr int64_t kMaxOutputBytes = int64_t{1} << 34;  // 16 GiB

// A zero-initialised tensor; InvalidArgument when `shape` has a negative dim, overflows int64 or
// exceeds kMaxOutputBytes; Unavailable when the allocation fails.
StatusOr<Tensor> NewTensor(DataType dtype, const Shape& shape);
// NewTensor's storage not cleared (Tensor::Uninitialized), for a kernel that writes every element
// itself; same errors. Not for kString.
StatusOr<Tensor> NewUninitializedTensor(DataType dtype, const Shape& shape);

// The tensor of input `index`, called `name` in the op's schema; InvalidArgument when the input
// is omitted or is not a tensor.
StatusOr<const Tensor*> GetInput(const KernelContext& ctx, size_t index, const char* name);

// The elements of an integer tensor as int64 (shape, axes, repeats, split inputs). Float tensors
// are accepted when every value is an integer, because Split-1 and Tile-1 declare such inputs
// with the float constraint T. InvalidArgument naming `name` otherwise.
StatusOr<std::vector<int64_t>> ToInt64s(const Tensor& t, const char* name);

// Like ToInt64s, and the tensor must be 1-D (or, when `allow_scalar`, a scalar).
StatusOr<std::vector<int64_t>> ToInt64List(const Tensor& t, const char* name,
                                           bool allow_scalar = false);

// Maps `axis` into [0, rank). Before opset 11 many ops took only non-negative axes; callers say
// whether negative axes are part of the op version (`allow_negative`).
StatusOr<int64_t> NormalizeAxisOf(int64_t axis, int64_t rank, bool allow_negative,
                                  const char* name = "axis");

// Normalizes every axis as above and rejects duplicates (two axes naming one dim).
StatusOr<std::vector<int64_t>> NormalizeAxesOf(const std::vector<int64_t>& axes, int64_t rank,
                                               bool allow_negative, const char* name = "axes");

// "[1,2,3]" for messages.
std::string ListToString(const std::vector<int64_t>& values);

}  // namespace onnxgate
