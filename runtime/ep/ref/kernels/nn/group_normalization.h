// GroupNormalization: the C channels of X [N, C, ...] split into num_groups groups; each image's
// group is normalized over its channels and spatial positions, y = scale * (x - mean) /
// sqrt(var + epsilon) + bias. Version 18 takes one scale and bias per group, version 21 one per
// channel and a stash_type for the precision of the normalization stage.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/base/data_type.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class GroupNormalization : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  GroupNormalization(int64_t num_groups, double epsilon, bool per_channel, DataType stash_type)
      : num_groups_(num_groups),
        epsilon_(epsilon),
        per_channel_(per_channel),
        stash_type_(stash_type) {}
  int64_t num_groups_;
  double epsilon_;
  bool per_channel_;     // scale and bias have C values (21) rather than num_groups (18)
  DataType stash_type_;  // 21: the precision of the normalization stage; kDouble for 18
};

}  // namespace onnxgate::ref
