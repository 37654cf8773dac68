// Det.
#include "runtime/ep/ref/kernels/math/det.h"

#include <Eigen/Dense>
#include <vector>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<Tensor> Determinant(const Tensor& x) {
  const std::vector<int64_t>& dims = x.shape().dims();
  const size_t rank = dims.size();
  if (rank < 2 || dims[rank - 1] != dims[rank - 2]) {
    return InvalidArgument("X must have shape [*, M, M], got " + x.shape().ToString());
  }
  const int64_t m = dims[rank - 1];
  const std::vector<int64_t> batch_dims(dims.begin(), dims.end() - 2);
  const Shape batch_shape(batch_dims);
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> values, ToDoubles(x));
  std::vector<double> det(static_cast<size_t>(batch_shape.NumElements()));
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (size_t b = 0; b < det.size(); ++b) {
    // Eigen's determinant() is an LU with partial pivoting (closed forms up to 4x4), and 1 for
    // an empty matrix.
    Eigen::Map<const RowMajor> matrix(values.data() + b * m * m, m, m);
    det[b] = matrix.determinant();
  }
  return FromDoubles(x.dtype(), batch_shape, det);
}

Status DetKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Determinant(*x));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
