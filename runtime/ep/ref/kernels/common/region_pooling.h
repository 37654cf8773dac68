// What the region-of-interest pooling kernels (RoiAlign of object_detection, MaxRoiPool of nn)
// share: the checks of the feature map and the region coordinates, and the output tensor made
// from values computed in double.
#pragma once

#include <vector>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate::ref {

// InvalidArgument unless X is 4-D [N, C, H, W].
Status CheckFeatureMap(const Tensor& x);

// Region coordinates must be finite and of a sane magnitude: they become pixel indices and
// sampling-grid sizes. InvalidArgument naming the first value that is not.
Status CheckRoiValues(const std::vector<double>& r, double spatial_scale);

// A float tensor of `dtype` and `shape` holding `v`, each value stored as `dtype` stores it.
StatusOr<Tensor> RegionOutput(DataType dtype, const Shape& shape, const std::vector<double>& v);

}  // namespace onnxgate::ref
