// HannWindow-17, HammingWindow-17 and BlackmanWindow-17: the generalized cosine windows
// w[n] = a0 - a1 * cos(2*pi*n / N) + a2 * cos(4*pi*n / N), with N = size (periodic) or size - 1
// (symmetric), in the element type the output_datatype attribute names.
#pragma once

#include <memory>

#include "runtime/base/data_type.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

// One kernel for the three ops; Create picks the coefficients from the op type.
class CosineSumWindow : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  CosineSumWindow(const char* op, double a0, double a1, double a2, bool periodic,
                  DataType output_type)
      : op_(op), a0_(a0), a1_(a1), a2_(a2), periodic_(periodic), output_type_(output_type) {}
  const char* op_;  // for messages
  double a0_, a1_, a2_;
  bool periodic_;
  DataType output_type_;
};

}  // namespace onnxgate::ref
