// ConvTranspose: one matrix product per image and group, then col2im, in double.
#include "runtime/ep/ref/kernels/nn/conv_transpose.h"

#include <Eigen/Core>

#include "runtime/ep/ref/kernels/nn/im2col.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// X [n, c, x...], W [c, m / group, kernel...], Y [n, m, y...]; `g` as ResolveTransposedGeometry.
struct TransposedProblem {
  int64_t n, c, m, group;
  WindowGeometry g;
};

std::vector<double> ConvTransposeDouble(const TransposedProblem& pb, const std::vector<double>& x,
                                        const std::vector<double>& w,
                                        const std::vector<double>& b) {
  const int64_t x_plane = Product(pb.g.output);
  const int64_t y_plane = Product(pb.g.input);
  const int64_t kernel_size = Product(pb.g.kernel);
  const int64_t cg = pb.c / pb.group;
  const int64_t mg = pb.m / pb.group;
  const std::vector<int64_t> table = WindowIndexTable(pb.g);
  std::vector<double> y(static_cast<size_t>(pb.n * pb.m * y_plane), 0.0);
  RowMajorMatrix col(mg * kernel_size, x_plane);
  for (int64_t img = 0; img < pb.n; ++img) {
    for (int64_t grp = 0; grp < pb.group; ++grp) {
      Eigen::Map<const RowMajorMatrix> xg(x.data() + (img * pb.c + grp * cg) * x_plane, cg,
                                          x_plane);
      Eigen::Map<const RowMajorMatrix> wg(w.data() + grp * cg * mg * kernel_size, cg,
                                          mg * kernel_size);
      col.noalias() = wg.transpose() * xg;
      double* yg = y.data() + (img * pb.m + grp * mg) * y_plane;
      Col2ImAdd(col.data(), mg, pb.g, table, yg);
      if (!b.empty()) {
        for (int64_t oc = 0; oc < mg; ++oc) {
          for (int64_t i = 0; i < y_plane; ++i) yg[oc * y_plane + i] += b[grp * mg + oc];
        }
      }
    }
  }
  return y;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> ConvTranspose::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(ConvTransposeAttributes attrs, ParseConvTransposeAttributes(info));
  return std::unique_ptr<OpKernel>(new ConvTranspose(std::move(attrs)));
}

Status ConvTranspose::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetInput(ctx, 1, "W"));
  const Tensor* b = ctx.input_tensor(2);
  if (w->dtype() != x->dtype() || (b != nullptr && b->dtype() != x->dtype())) {
    return InvalidArgument("ConvTranspose: X, W and B must share one element type");
  }
  ONNXGATE_ASSIGN_OR_RETURN(
      ConvTransposeShapes shapes,
      ResolveConvTransposeShapes(attrs_, x->shape(), w->shape(), b ? &b->shape() : nullptr));
  TransposedProblem pb{shapes.n, shapes.c, shapes.m, attrs_.group, std::move(shapes.g)};
  const Shape& out_shape = shapes.y;

  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> wd, ToDoubles(*w));
  std::vector<double> bd;
  if (b != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(bd, ToDoubles(*b));
  }
  ONNXGATE_ASSIGN_OR_RETURN(
      Tensor y, FromDoubles(x->dtype(), out_shape, ConvTransposeDouble(pb, xd, wd, bd)));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
