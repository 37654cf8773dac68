// Col2Im: the inverse of im2col. Input [N, C * prod(block_shape), L] holds, for every channel
// and block offset, the values of the L sliding blocks; each value is added onto the image
// element its block offset and block position read, giving [N, C, image_shape...].
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class Col2Im : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  Col2Im(std::vector<int64_t> dilations, std::vector<int64_t> pads, std::vector<int64_t> strides)
      : dilations_(std::move(dilations)), pads_(std::move(pads)), strides_(std::move(strides)) {}
  // Empty when absent (defaults 1, 0 and 1 per spatial axis).
  std::vector<int64_t> dilations_;
  std::vector<int64_t> pads_;
  std::vector<int64_t> strides_;
};

}  // namespace onnxgate::ref
