// AffineGrid.
#include "runtime/ep/ref/kernels/tensor/affine_grid.h"

#include <string>
#include <vector>

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

// The normalised position of index i on an axis of `n` points: the pixel centres spread over
// [-1, 1] (align_corners: the outer ones at -1 and 1; otherwise the pixel edges are).
double Position(int64_t i, int64_t n, bool align_corners) {
  const double di = static_cast<double>(i), dn = static_cast<double>(n);
  if (align_corners) return n == 1 ? -1.0 : -1.0 + 2.0 * di / (dn - 1.0);
  return -1.0 + (2.0 * di + 1.0) / dn;
}

}  // namespace

StatusOr<Tensor> AffineGrid(const Tensor& theta, const std::vector<int64_t>& size,
                            bool align_corners) {
  if (size.size() != 4 && size.size() != 5) {
    return InvalidArgument("size must be [N, C, H, W] or [N, C, D, H, W], got " +
                           ListToString(size));
  }
  const int64_t r = static_cast<int64_t>(size.size()) - 2;  // spatial axes: 2 or 3
  const int64_t n = size[0];
  const Shape& ts = theta.shape();
  if (ts.rank() != 3 || ts[0] != n || ts[1] != r || ts[2] != r + 1) {
    return InvalidArgument("theta must be [N, " + std::to_string(r) + ", " + std::to_string(r + 1) +
                           "] for size " + ListToString(size) + ", got " + ts.ToString());
  }
  for (int64_t s : size) {
    if (s < 0) return InvalidArgument("size must not be negative, got " + ListToString(size));
  }
  // Spatial dims in order (D,) H, W; the grid's last axis lists x (along W) first.
  const std::vector<int64_t> spatial(size.begin() + 2, size.end());
  std::vector<int64_t> out_dims = {n};
  out_dims.insert(out_dims.end(), spatial.begin(), spatial.end());
  out_dims.push_back(r);
  const Shape out_shape(out_dims);
  const int64_t limit = kMaxOutputBytes / static_cast<int64_t>(sizeof(double));
  ONNXGATE_RETURN_IF_ERROR(Shape(spatial).Validate(limit));
  ONNXGATE_RETURN_IF_ERROR(out_shape.Validate(limit));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> t, FloatsOf(theta, "theta"));
  int64_t points = 1;
  for (int64_t s : spatial) points *= s;
  std::vector<double> grid(static_cast<size_t>(out_shape.NumElements()));
  std::vector<double> pos(static_cast<size_t>(r + 1), 1.0);  // (x, y[, z], 1)
  for (int64_t b = 0; b < n; ++b) {
    const double* m = t.data() + b * r * (r + 1);
    for (int64_t p = 0; p < points; ++p) {
      // Axis k of `spatial` (W last) gives homogeneous coordinate r - 1 - k.
      int64_t rest = p;
      for (int64_t k = r - 1; k >= 0; --k) {
        const int64_t dim = spatial[static_cast<size_t>(k)];
        pos[static_cast<size_t>(r - 1 - k)] = Position(rest % dim, dim, align_corners);
        rest /= dim;
      }
      double* dst = grid.data() + (b * points + p) * r;
      for (int64_t row = 0; row < r; ++row) {
        double v = 0.0;
        for (int64_t col = 0; col <= r; ++col) {
          v += m[row * (r + 1) + col] * pos[static_cast<size_t>(col)];
        }
        dst[row] = v;
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(theta.dtype(), out_shape));
  ONNXGATE_RETURN_IF_ERROR(VisitFloatTypes(theta.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* o = y.mutable_data<T>();
    for (size_t i = 0; i < grid.size(); ++i) o[i] = StoreAs<T>(grid[i]);
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> AffineGridKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t align, info.GetInt("align_corners", 0));
  if (align != 0 && align != 1) {
    return InvalidArgument("align_corners must be 0 or 1, got " + std::to_string(align));
  }
  return std::unique_ptr<OpKernel>(new AffineGridKernel(align == 1));
}

Status AffineGridKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* theta, GetInput(ctx, 0, "theta"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* size_input, GetInput(ctx, 1, "size"));
  if (size_input->dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("'size' must be int64, got ") +
                           DataTypeShortName(size_input->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> size, ToInt64List(*size_input, "size"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor grid, AffineGrid(*theta, size, align_corners_));
  ctx.set_output(0, std::move(grid));
  return OkStatus();
}

}  // namespace onnxgate::ref
