// Ops that change only the shape, never the elements: Reshape, Squeeze, Unsqueeze (Flatten, of
// the nn family, is nn/flatten.h).
// The output shares the input's storage (tensors are immutable once produced).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/shape_ops.h"

namespace onnxgate::ref {

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
