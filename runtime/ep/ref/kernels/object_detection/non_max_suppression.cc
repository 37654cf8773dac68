// NonMaxSuppression.
#include "runtime/ep/ref/kernels/object_detection/non_max_suppression.h"

#include <algorithm>
#include <cmath>

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

// A box as its corner intervals, whatever order or format it was given in.
struct Box {
  double y1, x1, y2, x2;
  double Area() const { return (y2 - y1) * (x2 - x1); }
};

Box BoxAt(const std::vector<double>& b, int64_t i, bool center_point_box) {
  const double* p = b.data() + i * 4;
  if (center_point_box) {
    return {p[1] - p[3] / 2, p[0] - p[2] / 2, p[1] + p[3] / 2, p[0] + p[2] / 2};
  }
  // Any two opposite corners: [y1, x1, y2, x2] in either order along each axis.
  return {std::min(p[0], p[2]), std::min(p[1], p[3]), std::max(p[0], p[2]), std::max(p[1], p[3])};
}

// Whether b overlaps a by more than the threshold; boxes without area never suppress.
bool Suppresses(const Box& a, const Box& b, double iou_threshold) {
  const double ih = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  const double iw = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  if (ih <= 0 || iw <= 0) return false;
  const double inter = ih * iw;
  const double area_a = a.Area(), area_b = b.Area();
  const double uni = area_a + area_b - inter;
  if (area_a <= 0 || area_b <= 0 || uni <= 0) return false;
  return inter / uni > iou_threshold;
}

}  // namespace

StatusOr<Tensor> NonMaxSuppression(const Tensor& boxes, const Tensor& scores,
                                   const NmsParams& params) {
  const Shape& bs = boxes.shape();
  const Shape& ss = scores.shape();
  if (bs.rank() != 3 || bs[2] != 4 || ss.rank() != 3 || ss[0] != bs[0] || ss[2] != bs[1]) {
    return InvalidArgument(
        "boxes must be [num_batches, spatial_dimension, 4] and scores "
        "[num_batches, num_classes, spatial_dimension], got boxes " +
        bs.ToString() + " and scores " + ss.ToString());
  }
  if (params.iou_threshold < 0.0 || params.iou_threshold > 1.0) {
    return InvalidArgument("iou_threshold must be in [0, 1], got " +
                           std::to_string(params.iou_threshold));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> b, FloatsOf(boxes, "boxes"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> s, FloatsOf(scores, "scores"));
  const int64_t batches = bs[0], classes = ss[1], spatial = bs[1];
  std::vector<int64_t> selected;  // flat (batch, class, box) triples
  for (int64_t n = 0; n < batches; ++n) {
    for (int64_t c = 0; c < classes; ++c) {
      if (params.max_output_boxes_per_class <= 0) continue;
      const double* sc = s.data() + (n * classes + c) * spatial;
      std::vector<int64_t> order;
      for (int64_t i = 0; i < spatial; ++i) {
        if (std::isnan(sc[i])) continue;  // a NaN score ranks nowhere
        if (!params.score_threshold || sc[i] > *params.score_threshold) order.push_back(i);
      }
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t l, int64_t r) { return sc[l] > sc[r]; });
      std::vector<Box> kept;
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= params.max_output_boxes_per_class) break;
        const Box box = BoxAt(b, n * spatial + i, params.center_point_box);
        bool suppressed = false;
        for (const Box& k : kept) {
          if (Suppresses(k, box, params.iou_threshold)) {
            suppressed = true;
            break;
          }
        }
        if (suppressed) continue;
        kept.push_back(box);
        selected.insert(selected.end(), {n, c, i});
      }
    }
  }
  const int64_t count = static_cast<int64_t>(selected.size()) / 3;
  return Tensor::FromVector<int64_t>(Shape({count, 3}), selected);
}

StatusOr<std::unique_ptr<OpKernel>> NonMaxSuppressionKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t center, info.GetInt("center_point_box", 0));
  if (center != 0 && center != 1) {
    return InvalidArgument("center_point_box must be 0 or 1, got " + std::to_string(center));
  }
  return std::unique_ptr<OpKernel>(new NonMaxSuppressionKernel(center == 1));
}

Status NonMaxSuppressionKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* boxes, GetInput(ctx, 0, "boxes"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scores, GetInput(ctx, 1, "scores"));
  NmsParams params;
  params.center_point_box = center_point_box_;
  if (const Tensor* t = ctx.input_tensor(2); t != nullptr && t->NumElements() > 0) {
    ONNXGATE_ASSIGN_OR_RETURN(params.max_output_boxes_per_class,
                              IntScalarOf(*t, "max_output_boxes_per_class"));
  }
  if (const Tensor* t = ctx.input_tensor(3); t != nullptr && t->NumElements() > 0) {
    ONNXGATE_ASSIGN_OR_RETURN(params.iou_threshold, FloatScalarOf(*t, "iou_threshold"));
  }
  if (const Tensor* t = ctx.input_tensor(4); t != nullptr && t->NumElements() > 0) {
    ONNXGATE_ASSIGN_OR_RETURN(double threshold, FloatScalarOf(*t, "score_threshold"));
    params.score_threshold = threshold;
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NonMaxSuppression(*boxes, *scores, params));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
