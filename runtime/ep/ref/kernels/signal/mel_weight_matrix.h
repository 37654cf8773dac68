// MelWeightMatrix-17: the [dft_length / 2 + 1, num_mel_bins] matrix of triangular mel-scale
// filters that maps a one-sided linear spectrum onto mel bands.
#pragma once

#include <memory>

#include "runtime/base/data_type.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class MelWeightMatrix : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit MelWeightMatrix(DataType output_type) : output_type_(output_type) {}
  DataType output_type_;
};

}  // namespace onnxgate::ref
