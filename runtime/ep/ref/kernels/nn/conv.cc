// Conv: lowered to im2col plus one matrix product per image and group, in double.
#include "runtime/ep/ref/kernels/nn/conv.h"

#include <Eigen/Core>

#include "runtime/ep/ref/kernels/nn/im2col.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The sizes of one convolution: X [n, c, input...], W [m, c / group, kernel...], Y [n, m,
// output...].
struct ConvProblem {
  int64_t n, c, m, group;
  WindowGeometry g;
};

// Y = conv(X, W) + B, all in double; `b` is empty when there is no bias.
std::vector<double> ConvDouble(const ConvProblem& pb, const std::vector<double>& x,
                               const std::vector<double>& w, const std::vector<double>& b) {
  const int64_t in_plane = Product(pb.g.input);
  const int64_t out_plane = Product(pb.g.output);
  const int64_t kernel_size = Product(pb.g.kernel);
  const int64_t cg = pb.c / pb.group;  // input channels per group
  const int64_t mg = pb.m / pb.group;  // output channels per group
  const std::vector<int64_t> table = WindowIndexTable(pb.g);
  std::vector<double> y(static_cast<size_t>(pb.n * pb.m * out_plane), 0.0);
  RowMajorMatrix col(cg * kernel_size, out_plane);
  for (int64_t img = 0; img < pb.n; ++img) {
    for (int64_t grp = 0; grp < pb.group; ++grp) {
      Im2Col(x.data() + (img * pb.c + grp * cg) * in_plane, cg, pb.g, table, col.data());
      Eigen::Map<const RowMajorMatrix> wg(w.data() + grp * mg * cg * kernel_size, mg,
                                          cg * kernel_size);
      Eigen::Map<RowMajorMatrix> yg(y.data() + (img * pb.m + grp * mg) * out_plane, mg, out_plane);
      yg.noalias() = wg * col;
      if (!b.empty()) {
        for (int64_t oc = 0; oc < mg; ++oc) yg.row(oc).array() += b[grp * mg + oc];
      }
    }
  }
  return y;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> Conv::Create(const KernelInfo& info) {
  ConvPoolAttributeSet set;
  set.has_dilations = true;
  ONNXGATE_ASSIGN_OR_RETURN(ConvPoolAttributes attrs, ParseConvPoolAttributes(info, set));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t group, info.GetInt("group", 1));
  if (group < 1) {
    return InvalidArgument("'group' must be >= 1, got " + std::to_string(group));
  }
  return std::unique_ptr<OpKernel>(new Conv(std::move(attrs), group));
}

Status Conv::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetInput(ctx, 1, "W"));
  const Tensor* b = ctx.input_tensor(2);
  const Shape& xs = x->shape();
  const Shape& ws = w->shape();
  auto kernel_dims = ConvKernelDims(attrs_, group_, xs, ws);
  if (!kernel_dims.ok()) return InvalidArgument("Conv: " + kernel_dims.status().message());
  const std::vector<int64_t>& kernel = *kernel_dims;
  if (w->dtype() != x->dtype() || (b != nullptr && b->dtype() != x->dtype())) {
    return InvalidArgument("Conv: X, W and B must share one element type");
  }
  ConvProblem pb;
  pb.n = xs[0];
  pb.c = xs[1];
  pb.m = ws[0];
  pb.group = group_;
  if (b != nullptr && (b->shape().rank() != 1 || b->shape()[0] != pb.m)) {
    return InvalidArgument("Conv: B must have shape [" + std::to_string(pb.m) + "], got " +
                           b->shape().ToString());
  }
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  auto geometry = ResolveWindowGeometry(attrs_, input, kernel);
  if (!geometry.ok()) return geometry.status().WithContext("Conv with X " + xs.ToString());
  pb.g = std::move(geometry).value();

  std::vector<int64_t> out_dims = {pb.n, pb.m};
  out_dims.insert(out_dims.end(), pb.g.output.begin(), pb.g.output.end());
  Shape out_shape(std::move(out_dims));
  ONNXGATE_RETURN_IF_ERROR(out_shape.Validate());

  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> wd, ToDoubles(*w));
  std::vector<double> bd;
  if (b != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(bd, ToDoubles(*b));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                            FromDoubles(x->dtype(), out_shape, ConvDouble(pb, xd, wd, bd)));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
