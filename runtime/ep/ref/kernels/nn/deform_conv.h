// DeformConv: a grouped N-D convolution whose kernel taps sample X at positions moved by a
// learned `offset` (one displacement per tap, spatial axis and output position, shared by the
// channels of an offset group), read by multilinear interpolation with zeros outside X and
// weighted by the optional `mask`.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/provider/common/conv_attributes.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class DeformConv : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  DeformConv(ConvPoolAttributes attrs, int64_t group, int64_t offset_group)
      : attrs_(std::move(attrs)), group_(group), offset_group_(offset_group) {}
  ConvPoolAttributes attrs_;
  int64_t group_;
  int64_t offset_group_;
};

}  // namespace onnxgate::ref
