// Ops that change only the shape, never the elements: Reshape, Flatten, Squeeze, Unsqueeze.
// The output shares the input's storage (tensors are immutable once produced).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// Reshape's output shape for `requested`: -1 (at most one) is inferred from the element count;
// 0 copies the input dim at that index, or, with `allow_zero` (Reshape-14's allowzero=1), is a
// zero dim (then -1 may not appear as well). InvalidArgument when the counts differ.
StatusOr<Shape> ReshapeShape(const Shape& input, const std::vector<int64_t>& requested,
                             bool allow_zero);

// Flatten's 2-D shape: (d_0 * ... * d_{axis-1}, d_axis * ... * d_{r-1}) for axis in [0, r]
// (negative from the back, when allowed).
StatusOr<Shape> FlattenShape(const Shape& input, int64_t axis, bool allow_negative);

// Squeeze's output shape: removes the listed dims, which must be 1; with no axes, every 1.
StatusOr<Shape> SqueezeShape(const Shape& input, const std::optional<std::vector<int64_t>>& axes,
                             bool allow_negative);

// Unsqueeze's output shape: inserts 1-dims at `axes`, which index the output (rank r + |axes|).
StatusOr<Shape> UnsqueezeShape(const Shape& input, const std::vector<int64_t>& axes,
                               bool allow_negative);

class ReshapeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ReshapeKernel(std::optional<std::vector<int64_t>> shape_attr, bool allow_zero)
      : shape_attr_(std::move(shape_attr)), allow_zero_(allow_zero) {}
  std::optional<std::vector<int64_t>> shape_attr_;  // Reshape-1 takes the shape as attribute
  bool allow_zero_;
};

class FlattenKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  FlattenKernel(int64_t axis, bool allow_negative) : axis_(axis), allow_negative_(allow_negative) {}
  int64_t axis_;
  bool allow_negative_;
};

// Squeeze and Unsqueeze: axes as attribute (versions 1 and 11) or as input (13).
class SqueezeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  SqueezeKernel(int version, std::optional<std::vector<int64_t>> axes)
      : version_(version), axes_attr_(std::move(axes)) {}
  int version_;
  std::optional<std::vector<int64_t>> axes_attr_;
};

class UnsqueezeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  UnsqueezeKernel(int version, std::vector<int64_t> axes)
      : version_(version), axes_attr_(std::move(axes)) {}
  int version_;
  std::vector<int64_t> axes_attr_;  // versions 1 and 11
};

}  // namespace onnxgate::ref
