// NonMaxSuppression (opsets 10, 11): greedy per-class selection of the highest-scoring boxes,
// dropping boxes that overlap an already selected one by more than iou_threshold.
#pragma once

#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

struct NmsParams {
  int64_t max_output_boxes_per_class = 0;
  double iou_threshold = 0.0;
  std::optional<double> score_threshold;  // boxes must score strictly above it
  bool center_point_box = false;          // [x_center, y_center, width, height] boxes
};

// boxes [num_batches, spatial_dimension, 4], scores [num_batches, num_classes,
// spatial_dimension] -> selected_indices [num_selected, 3] of (batch, class, box), batch by
// batch and class by class, each class's boxes in the order they were selected (by descending
// score, ties to the lower box index).
StatusOr<Tensor> NonMaxSuppression(const Tensor& boxes, const Tensor& scores,
                                   const NmsParams& params);

class NonMaxSuppressionKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit NonMaxSuppressionKernel(bool center_point_box) : center_point_box_(center_point_box) {}
  bool center_point_box_;
};

}  // namespace onnxgate::ref
