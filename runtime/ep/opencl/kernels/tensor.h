// Data movement on float32 (cl/tensor.cl): Transpose and Concat; and Reshape and Flatten, which
// change only the shape and runs nothing on the device.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::opencl_ep {

// Transpose with `perm` (default: the dims reversed), checked to be a permutation of the rank.
class TransposeKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  TransposeKernel(Context cl, std::optional<std::vector<int64_t>> perm)
      : OpenClKernel(std::move(cl)), perm_(std::move(perm)) {}

  std::optional<std::vector<int64_t>> perm_;
};

// Concat along `axis` (required from Concat-4, negative from 11): one launch per non-empty
// input, each writing its slab of Y in the one device buffer that holds Y.
class ConcatKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  ConcatKernel(Context cl, int64_t axis, bool allow_negative)
      : OpenClKernel(std::move(cl)), axis_(axis), allow_negative_(allow_negative) {}

  int64_t axis_;
  bool allow_negative_;
};

// Reshape to the `shape` input (from Reshape-5; allowzero from 14). The output shares the
// input's storage, as ref's does: a host tensor's, or a resident tensor's device buffer under the
// new shape. No element moves, so nothing runs on the device. It is claimed so that a chain of
// opencl nodes is not cut by a Reshape placed elsewhere: its tensors stay on the device
// (docs/architecture.md, "The opencl EP").
class ReshapeKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  ReshapeKernel(Context cl, bool allow_zero)
      : OpenClKernel(std::move(cl)), allow_zero_(allow_zero) {}
  bool allow_zero_;
};

// Flatten to 2-D at `axis` (negative from Flatten-11), the same view as Reshape's: a CNN's
// classifier head (Flatten before Gemm) stays on opencl.
class FlattenKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  FlattenKernel(Context cl, int64_t axis, bool allow_negative)
      : OpenClKernel(std::move(cl)), axis_(axis), allow_negative_(allow_negative) {}
  int64_t axis_;
  bool allow_negative_;
};

}  // namespace onnxgate::opencl_ep
