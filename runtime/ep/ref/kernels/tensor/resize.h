// Resize (opsets 10, 11, 13, 18, 19) and Upsample (7, 9): nearest, N-linear and N-cubic
// resampling of every axis, with the coordinate transformations, nearest modes and
// tf_crop_and_resize extrapolation of Resize-11 on, and Resize-18's antialias filter, axes subset
// and keep_aspect_ratio_policy. Resize-10 and Upsample map coordinates asymmetrically.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/tensor/resize_plan.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Resamples x to the output dims of `axes` (one entry per axis of x). Nearest works for every
// element type; linear and cubic for numeric types, computed in double (integers round half to
// even and saturate). Outputs that tf_crop_and_resize maps outside the input take
// `extrapolation_value`.
StatusOr<Tensor> Resample(const Tensor& x, const std::vector<AxisResample>& axes,
                          const ResizeOptions& options, double extrapolation_value);

// How Resize-18 reads `sizes`: as given, or scaled uniformly so that the output is not larger
// (not smaller) than `sizes` on any resized axis.
enum class AspectPolicy { kStretch, kNotLarger, kNotSmaller };

class ResizeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  // Which inputs and attributes the op version has.
  enum class Form {
    kUpsample7,   // scales attribute
    kScalesOnly,  // Upsample-9, Resize-10: X, scales
    kFull,        // Resize-11 on: X, roi, scales, sizes
  };
  ResizeKernel(Form form, bool upsample, ResizeOptions options, double extrapolation,
               std::vector<float> scales, std::vector<int64_t> axes, AspectPolicy policy)
      : form_(form),
        upsample_(upsample),
        options_(options),
        extrapolation_(extrapolation),
        scales_(std::move(scales)),
        axes_(std::move(axes)),
        policy_(policy) {}
  // The per-axis geometry from the scales or sizes (and roi) given to this run.
  StatusOr<std::vector<AxisResample>> Geometry(const KernelContext& ctx, const Shape& x) const;

  Form form_;
  bool upsample_;  // Upsample's scales must be >= 1
  ResizeOptions options_;
  double extrapolation_;
  std::vector<float> scales_;  // Upsample-7's attribute
  std::vector<int64_t> axes_;  // Resize-18's axes attribute as given; empty: every axis
  AspectPolicy policy_;
};

}  // namespace onnxgate::ref
