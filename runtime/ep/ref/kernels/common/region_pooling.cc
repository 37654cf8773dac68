// The region-of-interest pooling kernels' shared checks and output.
#include "runtime/ep/ref/kernels/common/region_pooling.h"

#include <cmath>
#include <string>

#include "runtime/provider/common/compute_type.h"
#include "runtime/provider/common/indexing_util.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

Status CheckFeatureMap(const Tensor& x) {
  if (x.shape().rank() != 4) {
    return InvalidArgument("X must be 4-D [N, C, H, W], got " + x.shape().ToString());
  }
  return OkStatus();
}

Status CheckRoiValues(const std::vector<double>& r, double spatial_scale) {
  for (size_t i = 0; i < r.size(); ++i) {
    if (!(std::fabs(r[i] * spatial_scale) < 1.0e9)) {
      return InvalidArgument("rois value " + std::to_string(r[i]) + " (element " +
                             std::to_string(i) + ") scaled by " + std::to_string(spatial_scale) +
                             " is not a usable coordinate");
    }
  }
  return OkStatus();
}

StatusOr<Tensor> RegionOutput(DataType dtype, const Shape& shape, const std::vector<double>& v) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(dtype, shape));
  Status st = VisitFloatTypes(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = y.mutable_data<T>();
    for (size_t i = 0; i < v.size(); ++i) o[i] = StoreAs<T>(v[i]);
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  return y;
}

}  // namespace onnxgate::ref
