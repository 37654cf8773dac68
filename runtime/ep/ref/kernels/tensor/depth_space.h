// DepthToSpace (DCR and CRD orders) and SpaceToDepth: rearrange blocks of channels of an
// [N, C, H, W] tensor into blocks of pixels and back.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// [N, C, H, W] -> [N, C / b^2, H * b, W * b]. DCR reads channel (by * b + bx) * C/b^2 + c, CRD
// reads channel c * b^2 + by * b + bx, for the pixel at (y * b + by, x * b + bx).
StatusOr<Tensor> DepthToSpace(const Tensor& input, int64_t blocksize, bool crd);

// [N, C, H, W] -> [N, C * b^2, H / b, W / b], the inverse of DepthToSpace in the same order:
// DCR writes offset (by, bx) of channel c to channel (by * b + bx) * C + c, CRD (SpaceToDepth-28)
// to channel c * b^2 + by * b + bx.
StatusOr<Tensor> SpaceToDepth(const Tensor& input, int64_t blocksize, bool crd = false);

class DepthSpaceKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  DepthSpaceKernel(bool to_space, int64_t blocksize, bool crd)
      : to_space_(to_space), blocksize_(blocksize), crd_(crd) {}
  bool to_space_;
  int64_t blocksize_;
  bool crd_;
};

}  // namespace onnxgate::ref
