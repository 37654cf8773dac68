// GatherElements, ScatterElements (reduction none/add/mul from opset 16, max/min from 18) and the
// older Scatter:
// element-wise indexing along one axis by an indices tensor of the data's rank.
#pragma once

#include <memory>
#include <string>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class ScatterReduction { kNone, kAdd, kMul, kMax, kMin };

// The reduction attribute; max and min only when `min_max` (opset 18 on).
StatusOr<ScatterReduction> ParseScatterReduction(const std::string& name, bool min_max);

// out[targets[i]] = updates[i], or out[targets[i]] += / *= / max= / min= updates[i], for i in
// order; `out` and `updates` share an element type. Bool adds (and takes the max) as logical or
// and multiplies (and takes the min) as logical and, as numpy does; a NaN operand of max or min
// wins; strings take no reduction and complex numbers no max or min.
Status ScatterInto(Tensor* out, const std::vector<int64_t>& targets, const Tensor& updates,
                   ScatterReduction reduction);

// The elements of an int32 or int64 indices tensor as int64; InvalidArgument for other types.
StatusOr<std::vector<int64_t>> IndexValuesOf(const Tensor& indices, const char* name);

// out[i][j][k] = data[indices[i][j][k]][j][k] for axis 0 (and likewise on other axes). `axis`
// is normalised; indices are int32 or int64 in [-s, s) (negative counts from the end when
// `allow_negative_indices`), and every dim but `axis` of indices must be <= that of data.
StatusOr<Tensor> GatherElements(const Tensor& data, const Tensor& indices, int64_t axis,
                                bool allow_negative_indices);

// A copy of data where data[indices[i][j][k]][j][k] (for axis 0) is set to, or combined with,
// updates[i][j][k], visiting updates in row-major order (so with duplicate indices and no
// reduction, the last update wins).
StatusOr<Tensor> ScatterElements(const Tensor& data, const Tensor& indices, const Tensor& updates,
                                 int64_t axis, ScatterReduction reduction,
                                 bool allow_negative_indices);

class GatherElementsKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit GatherElementsKernel(int64_t axis) : axis_(axis) {}
  int64_t axis_;
};

// ScatterElements and Scatter-9/10 (the same op under its first name, without negative indices).
class ScatterElementsKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ScatterElementsKernel(int64_t axis, ScatterReduction reduction, bool allow_negative_indices)
      : axis_(axis), reduction_(reduction), allow_negative_indices_(allow_negative_indices) {}
  int64_t axis_;
  ScatterReduction reduction_;
  bool allow_negative_indices_;
};

}  // namespace onnxgate::ref
