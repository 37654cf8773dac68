// numpy multidirectional broadcasting and ONNX's legacy broadcast rule.
#include "runtime/provider/common/broadcast.h"

#include <algorithm>

namespace onnxgate {

StatusOr<Shape> BroadcastShapeOf(const std::vector<Shape>& shapes) {
  Shape out;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i == 0) {
      out = shapes[0];
      continue;
    }
    ONNXGATE_ASSIGN_OR_RETURN(out, BroadcastShapes(out, shapes[i]));
  }
  return out;
}

std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out) {
  std::vector<int64_t> strides(out.rank(), 0);
  std::vector<int64_t> in_strides = in.Strides();
  const size_t lead = out.rank() - in.rank();
  for (size_t d = 0; d < in.rank(); ++d) {
    // A dim of 1 against a larger one repeats its single element.
    strides[lead + d] = (in[d] == 1 && out[lead + d] != 1) ? 0 : in_strides[d];
  }
  return strides;
}

StatusOr<LegacyBroadcast> LegacyBroadcast::FromInfo(const KernelInfo& info) {
  LegacyBroadcast lb;
  if (info.since_version() >= 7) return lb;
  lb.enabled = true;
  ONNXGATE_ASSIGN_OR_RETURN(lb.broadcast, info.GetInt("broadcast", 0));
  if (lb.broadcast != 0 && lb.broadcast != 1) {
    return InvalidArgument("attribute 'broadcast' must be 0 or 1, got " +
                           std::to_string(lb.broadcast));
  }
  if (info.has_attribute("axis")) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis"));
    lb.axis = axis;
  }
  return lb;
}

StatusOr<Tensor> LegacyBroadcast::AlignB(const Tensor& a, const Tensor& b) const {
  if (!enabled) return b;
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  if (broadcast == 0) {
    if (sa != sb) {
      return InvalidArgument("without broadcast=1 the shapes of A and B must be equal, got " +
                             sa.ToString() + " and " + sb.ToString());
    }
    return b;
  }
  if (sb.rank() > sa.rank()) {
    return InvalidArgument("B " + sb.ToString() + " has a higher rank than A " + sa.ToString());
  }
  if (b.NumElements() == 1) {
    return b.Reshaped(Shape(std::vector<int64_t>(sa.rank(), 1)));
  }
  const int64_t rank_a = static_cast<int64_t>(sa.rank());
  const int64_t rank_b = static_cast<int64_t>(sb.rank());
  int64_t start = axis.value_or(rank_a - rank_b);
  if (start < 0) start += rank_a;
  if (start < 0 || start + rank_b > rank_a) {
    return InvalidArgument("axis " + std::to_string(axis.value_or(start)) + " does not place B " +
                           sb.ToString() + " inside A " + sa.ToString());
  }
  std::vector<int64_t> dims(sa.rank(), 1);
  for (int64_t d = 0; d < rank_b; ++d) {
    if (sb[d] != sa[start + d]) {
      return InvalidArgument("B " + sb.ToString() + " does not match the dims of A " +
                             sa.ToString() + " from axis " + std::to_string(start));
    }
    dims[start + d] = sb[d];
  }
  return b.Reshaped(Shape(std::move(dims)));
}

}  // namespace onnxgate
