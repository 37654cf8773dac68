// ArrayFeatureExtractor (ai.onnx.ml 1): selects elements along the last axis of X by the indices
// in Y; the output is X's shape with the last dim replaced by the number of indices ([1, k] for
// a 1-D X, as ONNX Runtime and ONNX's reference give).
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class ArrayFeatureExtractorKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
